// The tables that count trades (member totals, ticker descriptions, trade_counts,
// trade_sector_counts, trade_date_counts) against their aggregates over the trades after
// statements that write many trades of many members at once: one insert of copies, one update
// moving them across every counted column, one update of the real trades (sector, quality
// exclusion, pricing, direction, description, date and member at once), one delete. PostgreSQL
// counts each statement once (statement triggers over its transition tables), SQLite row by row:
// both must end equal to the aggregate. Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on
// PostgreSQL.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../test-support/database.js';
import {
  type CountedTrades,
  countsByKey,
  descriptionCounts,
  TRADE_COUNTS,
  TRADE_DATE_COUNTS,
  TRADE_SECTOR_COUNTS,
} from './ddl-trade-counts.js';
import { isSqlite } from './dialect.js';
import * as changedTradesPerStatement from './migrations/0114-pg-changed-trades-per-statement.js';
import { aggregateTradeTotals, storedTradeTotals } from './repositories/politician-trade-totals.js';
import type { Database } from './schema.js';

const fixture = inject('fixture');

type Row = Record<string, unknown>;

/** Rows as comparable text, in one order whatever the database's collation. */
function normalized(rows: readonly Row[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(Object.values(row).map((value) => (typeof value === 'bigint' ? Number(value) : value))),
    )
    .map((text) => text.replace(/"(-?\d+)"/g, '$1'))
    .sort();
}

async function rows(db: Kysely<Database>, query: string): Promise<string[]> {
  return normalized((await sql.raw<Row>(query).execute(db)).rows);
}

async function expectCountsEqualAggregates(db: Kysely<Database>): Promise<void> {
  expect(await storedTradeTotals(db)).toEqual(await aggregateTradeTotals(db));
  expect(
    await rows(
      db,
      'select ticker, described, asset_description, trade_count from ticker_trade_descriptions where trade_count <> 0',
    ),
  ).toEqual(await rows(db, descriptionCounts('trades')));
  const tables: CountedTrades[] = [TRADE_COUNTS, TRADE_SECTOR_COUNTS, TRADE_DATE_COUNTS];
  for (const counts of tables) {
    const key = counts.key.join(', ');
    const stored = await rows(db, `select ${key}, trade_count from ${counts.table} where trade_count <> 0`);
    expect(stored.length, counts.table).toBeGreaterThan(0);
    expect(stored, counts.table).toEqual(await rows(db, countsByKey(counts, 'trades')));
  }
}

describe.skipIf(fixture === null)('trades counted by whole statements', () => {
  let store: TestStore;
  let members: number[];
  beforeAll(async () => {
    if (!fixture) return;
    store = await openTestStore(fixture);
    // The five members with the most trades, so that every statement writes many trades of each.
    const busiest = await aggregateTradeTotals(store.db);
    members = busiest
      .sort((a, b) => b.trade_count - a.trade_count)
      .slice(0, 5)
      .map((row) => row.politician_id);
  });
  afterAll(async () => store?.dispose());

  it('equal their aggregates after the real ingest and enrichment', async () => {
    expect(members).toHaveLength(5);
    await expectCountsEqualAggregates(store.db);
  });

  it('on PostgreSQL, count updates and deletes by statement, with no counting row trigger left', async (context) => {
    if (isSqlite(store.db as Kysely<unknown>)) context.skip();
    const triggers = await sql<{ tgname: string; row: boolean }>`
      select tgname, (tgtype & 1) = 1 as row from pg_trigger
      where tgrelid = 'trades'::regclass and not tgisinternal and tgname like any (array['trade%', 'ticker%'])
      order by tgname`.execute(store.db);
    expect(triggers.rows).toEqual([
      { tgname: 'trades_deleted_counts', row: false },
      { tgname: 'trades_inserted_counts', row: false },
      { tgname: 'trades_touch', row: true },
      { tgname: 'trades_updated_counts', row: false },
    ]);
  });

  // PostgreSQL runs a statement of up to 50 rows and a larger one by different plans.
  it.each([20, 250])(
    'follow one insert, one update and one delete of %i trades of many members',
    async (size) => {
      const { db } = store;
      const templates = await db
        .selectFrom('trades')
        .selectAll()
        .where('politician_id', 'in', members)
        .where('superseded_by', 'is', null)
        .orderBy('id', 'desc')
        .limit(size)
        .execute();
      expect(new Set(templates.map((row) => row.politician_id)).size).toBeGreaterThan(1);
      const inserted = await db
        .insertInto('trades')
        .values(
          templates.map(({ id: _id, ...fields }, index) => ({
            ...fields,
            source_key: `${fields.source_key}#statement-test-${size}-${index}`,
          })),
        )
        .returning('id')
        .execute();
      await expectCountsEqualAggregates(db);
      const ids = inserted.map((row) => row.id);
      const [first, second] = members;
      // One statement moving the copies across every column any table counts by.
      await sql`update trades set
        politician_id = case when id % 4 = 0 then ${second} when id % 4 = 1 then ${first} else politician_id end,
        quality_excluded = case when id % 5 = 0 then 1 - quality_excluded else quality_excluded end,
        superseded_by = case when id % 6 = 0 then ${templates[0]?.id} else superseded_by end,
        sector = case when id % 3 = 0 then null when id % 3 = 1 then 'Statement test' else sector end,
        industry = case when id % 3 = 0 then null else industry end,
        transaction_date = case when id % 7 = 0 then '2031-02-03' else transaction_date end,
        amount_low = case when id % 8 = 0 then null else amount_low end,
        source = case when id % 9 = 0 then 'statement-test' else source end,
        trade_action = case when id % 10 = 0 then 'exchange' else trade_action end,
        asset_description = case when id % 11 = 0 then null when id % 11 = 1 then 'Statement test asset'
          else asset_description end,
        price_on_trade_date = case when id % 2 = 0 then null else 42.5 end
      where id in (${sql.join(ids)})`.execute(db);
      await expectCountsEqualAggregates(db);
      await db.deleteFrom('trades').where('id', 'in', ids).execute();
      await expectCountsEqualAggregates(db);
    },
  );

  it('follow one update of the real trades of many members across the counted columns', async () => {
    const { db } = store;
    const [, , third] = members;
    await sql`update trades set
        sector = case when id % 5 = 0 then null when id % 5 = 1 then 'Statement test' else sector end,
        industry = case when id % 5 = 0 then null else industry end,
        quality_excluded = case when id % 7 = 0 then 1 - quality_excluded else quality_excluded end,
        price_on_trade_date = case when id % 3 = 0 then
          (case when price_on_trade_date is null then 10.5 else null end) else price_on_trade_date end,
        trade_action = case when id % 11 = 0 then 'exchange' else trade_action end,
        asset_description = case when id % 13 = 0 then 'Statement test asset' else asset_description end,
        transaction_date = case when id % 17 = 0 then '2031-01-01' else transaction_date end,
        politician_id = case when id % 19 = 0 then ${third} else politician_id end
      where politician_id in (${sql.join(members)})`.execute(db);
    await expectCountsEqualAggregates(db);
  });

  it('count alike after migration 0114 goes down (row triggers back) and up again', async () => {
    const { db } = store;
    const moveSectors = (sector: string) =>
      sql`update trades set sector = case when id % 3 = 0 then null else ${sector} end,
          quality_excluded = case when id % 5 = 0 then 1 - quality_excluded else quality_excluded end
        where politician_id in (${sql.join(members)})`.execute(db);
    await changedTradesPerStatement.down(db as Kysely<unknown>);
    await moveSectors('Row triggers');
    await expectCountsEqualAggregates(db);
    await changedTradesPerStatement.up(db as Kysely<unknown>);
    await moveSectors('Statement triggers');
    await expectCountsEqualAggregates(db);
  });
});
