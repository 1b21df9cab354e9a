// A list page the database writes as JSON text against the resources the object path builds for
// the same query: the same rows, in the same order, with the same fields in the same order and
// the same values (a number may be spelled otherwise by the database, so both are re-serialized).
import { expect } from 'vitest';

export function expectSamePage(
  page: { json: string | Buffer; rows: number },
  objects: readonly unknown[],
  label: string,
): void {
  expect(page.rows, label).toBe(objects.length);
  const written = JSON.stringify(JSON.parse(page.json.toString()));
  expect(written, label).toBe(JSON.stringify(objects));
}
