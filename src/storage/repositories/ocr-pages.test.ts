// What the OCR reader's word list is given from the database, on the real-data fixture (the
// shared trade sets and the SEC's companies): every stored spelling of a trade's asset once.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { tradeDescriptions } from './ocr-pages.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)("the stored trades' asset descriptions", () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('lists each spelling once, names no issuer list holds among them, and no empty one', async () => {
    const descriptions = await tradeDescriptions(store.db);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(descriptions).toContain('PROSUS NV SP/ADR');
    expect(descriptions).toContain('Safran S.A. Unsponsored ADR');
    expect(descriptions).not.toContain('');
    const stored = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.count<number>('asset_description').distinct().as('spellings'))
      .executeTakeFirstOrThrow();
    // Trades replaced by a later filing's are not current and give no spelling of their own.
    expect(descriptions.length).toBeGreaterThan(5000);
    expect(descriptions.length).toBeLessThanOrEqual(Number(stored.spellings));
  });
});
