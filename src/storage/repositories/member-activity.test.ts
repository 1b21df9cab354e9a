// memberDisclosedVolume (the filer's disclosed volume of the past year, read when a filing is
// listed) on the real-data fixture, against the sum in code over the member's whole history; and,
// on SQLite, that it reads the year's entries of trades_member_disclosure_idx alone, not every
// trade of the member's history. Runs on SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../domain/dates.js';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import { sqlitePlanOf } from '../../test-support/query-plan.js';
import { memberDisclosedVolume } from './member-activity.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('a member’s disclosed volume on the real data', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it('equals the sum in code over the member’s whole history, for the most active members and their filing days', async () => {
    const members = await store.db
      .selectFrom('trades')
      .select('politician_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('politician_id', 'is not', null)
      .groupBy('politician_id')
      .orderBy('n', 'desc')
      .orderBy('politician_id')
      .limit(8)
      .execute();
    let nonZero = 0;
    for (const { politician_id } of members) {
      if (politician_id === null) continue;
      const history = await store.db
        .selectFrom('trades')
        .select(['disclosure_date', 'superseded_by', 'amount_low', 'amount_high'])
        .where('politician_id', '=', politician_id)
        .execute();
      const days = [
        ...new Set(history.map((trade) => trade.disclosure_date).filter((day) => day !== null)),
      ].sort();
      // The member's filing days (every fifth), and a day after the last one.
      const asked = [...days.filter((_, index) => index % 5 === 0), addDays(days.at(-1) ?? '2025-01-01', 1)];
      for (const to of asked) {
        const from = addDays(to, -365);
        const expected = history
          .filter(
            (trade) =>
              trade.superseded_by === null &&
              trade.disclosure_date !== null &&
              trade.disclosure_date >= from &&
              trade.disclosure_date < to,
          )
          .reduce((sum, trade) => sum + (trade.amount_high ?? trade.amount_low ?? 0), 0);
        expect(await memberDisclosedVolume(store.db, politician_id, from, to)).toBe(expected);
        if (expected > 0) nonZero += 1;
      }
    }
    expect(nonZero).toBeGreaterThan(20);
  });

  it.skipIf(testDialect() !== 'sqlite')(
    'reads the year’s entries of the member’s disclosure-date index alone on SQLite',
    async () => {
      const volume = await sqlitePlanOf(store.db, (db) =>
        memberDisclosedVolume(db, 1, '2024-01-01', '2025-01-01'),
      );
      expect(volume).toEqual([expect.stringContaining('USING COVERING INDEX trades_member_disclosure_idx')]);
    },
  );
});
