// findListedTradesByIds (the conflict page's trades, one query compiled for lists of every length)
// returns what findTrades returns for the same ids: the listed trades only (a superseded trade, one
// a quality flag leaves out and an unknown id are not), every column, newest transaction first.
// Real-data fixture; runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { supersedeTrade } from './report-trades.js';
import { findListedTradesByIds, findTrades } from './trades.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('findListedTradesByIds', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  const byFindTrades = (ids: number[]) =>
    findTrades(
      store.db,
      { ids },
      { column: 'transaction_date', direction: 'desc' },
      { limit: Math.max(1, ids.length), offset: 0 },
    );

  it('equals findTrades over the same ids, for lists of different lengths', async () => {
    const listed = await store.db
      .selectFrom('trades')
      .select('id')
      .where('superseded_by', 'is', null)
      .orderBy('id', 'desc')
      .limit(40)
      .execute();
    const [flagged, superseded, ...rest] = listed.map((row) => row.id);
    if (flagged === undefined || superseded === undefined) throw new Error('the fixture has too few trades');
    await store.db.updateTable('trades').set({ quality_excluded: 1 }).where('id', '=', flagged).execute();
    await supersedeTrade(store.db, superseded, flagged, '2026-06-01T00:00:00.000Z');
    const ids = [...rest.slice(0, 30), flagged, superseded, 999_999_999];

    const rows = await findListedTradesByIds(store.db, ids);
    expect(rows).toEqual(await byFindTrades(ids));
    expect(rows).toHaveLength(30);
    expect(rows.map((row) => row.id)).not.toContain(flagged);
    expect(rows.map((row) => row.id)).not.toContain(superseded);
    const dates = rows.map((row) => row.transaction_date);
    expect(dates).toEqual([...dates].sort().reverse());

    const one = rest.slice(0, 1);
    expect(await findListedTradesByIds(store.db, one)).toEqual(await byFindTrades(one));
    expect(await findListedTradesByIds(store.db, [])).toEqual([]);
    await store.db.updateTable('trades').set({ quality_excluded: 0 }).where('id', '=', flagged).execute();
    await store.db.updateTable('trades').set({ superseded_by: null }).where('id', '=', superseded).execute();
  });
});
