// A list page the database writes as JSON text against the resources the object path builds for
// the same query: the same rows, in the same order, with the same fields and values.
import { expect } from 'vitest';

export function expectSamePage(
  page: { json: string | Buffer; rows: number },
  objects: readonly unknown[],
  label: string,
): void {
  expect(page.rows, label).toBe(objects.length);
  expect(JSON.parse(page.json.toString()), label).toEqual(JSON.parse(JSON.stringify(objects)));
}
