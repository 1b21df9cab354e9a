// Upgrading a database that already holds trades through 0060 (quality columns) and 0061 (totals
// count only countable trades): the member totals are refilled from the trades on record, and
// the new triggers follow a quality flag set afterwards. Constructed rows (two members, four
// trades); runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { migrateToLatest, migrations } from '../migrate.js';
import { aggregateTradeTotals, storedTradeTotals } from '../repositories/politician-trade-totals.js';
import type { Database } from '../schema.js';

const AT = new Date('2024-06-01T00:00:00Z');

/** The migrations a database built before the quality gate had applied. */
async function migrateBeforeQuality(db: Kysely<Database>): Promise<void> {
  const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0060'));
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => earlier },
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  if (error) throw error;
}

async function insertTrade(
  db: Kysely<Database>,
  trade: { member: number; key: string; date: string; low: number; high: number },
): Promise<number> {
  const stamp = AT.toISOString();
  // Only the columns that existed before 0060: the quality columns are not there yet.
  const row = await db
    .insertInto('trades')
    .values({
      politician_id: trade.member,
      source: 'house_clerk',
      source_key: trade.key,
      origin: 'test',
      ticker: 'AAPL',
      asset_description: 'Apple Inc.',
      trade_type: 'Buy',
      trade_action: 'buy',
      amount_range: `$${trade.low} - $${trade.high}`,
      amount_low: trade.low,
      amount_high: trade.high,
      transaction_date: trade.date,
      is_ma_affected: 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('migration 0061 on a database that already has trades', () => {
  let store: TestStore;
  let alice: number;
  let bob: number;
  const ids: number[] = [];

  beforeAll(async () => {
    store = await openTestStore(undefined, { migrate: false });
    await migrateBeforeQuality(store.db);
    alice = await insertTestMember(
      store.db,
      { slug: 'alice-upgrade', name: 'Alice Upgrade', chamber: 'House' },
      AT,
    );
    bob = await insertTestMember(
      store.db,
      { slug: 'bob-upgrade', name: 'Bob Upgrade', chamber: 'Senate' },
      AT,
    );
    ids.push(
      await insertTrade(store.db, { member: alice, key: 'a#1', date: '2024-01-10', low: 1001, high: 15000 }),
    );
    ids.push(
      await insertTrade(store.db, { member: alice, key: 'a#2', date: '2024-03-05', low: 15001, high: 50000 }),
    );
    ids.push(
      await insertTrade(store.db, { member: bob, key: 'b#1', date: '2023-11-20', low: 50001, high: 100000 }),
    );
    ids.push(
      await insertTrade(store.db, { member: bob, key: 'b#2', date: '2024-02-01', low: 1001, high: 15000 }),
    );
  });
  afterAll(async () => store?.dispose());

  it('counts the old trades before the upgrade (0021 triggers)', async () => {
    const totals = await store.db
      .selectFrom('politician_trade_totals')
      .select(['politician_id', 'trade_count', 'last_trade_date'])
      .orderBy('politician_id')
      .execute();
    expect(totals.map((row) => [row.politician_id, Number(row.trade_count), row.last_trade_date])).toEqual([
      [alice, 2, '2024-03-05'],
      [bob, 2, '2024-02-01'],
    ]);
  });

  it('applies 0060 and 0061 and keeps the totals equal to the countable trades', async () => {
    const report = await migrateToLatest(store.db);
    expect(report.applied).toEqual(expect.arrayContaining(['0060-quality', '0061-quality-totals']));
    const trades = await store.db
      .selectFrom('trades')
      .select(['id', 'quality_excluded', 'quality_flags'])
      .orderBy('id')
      .execute();
    expect(trades.map((trade) => [trade.id, trade.quality_excluded, trade.quality_flags])).toEqual(
      ids.map((id) => [id, 0, null]),
    );
    const stored = await storedTradeTotals(store.db);
    expect(stored).toEqual(await aggregateTradeTotals(store.db));
    expect(stored.find((row) => row.politician_id === alice)).toMatchObject({
      trade_count: 2,
      total_volume_low: 16002,
      total_volume_high: 65000,
      last_trade_date: '2024-03-05',
    });
  });

  it('moves the totals when a flag excludes an old trade and when it is cleared', async () => {
    const latest = ids[1] as number;
    await store.db
      .updateTable('trades')
      .set({ quality_flags: 'date_out_of_range', quality_excluded: 1 })
      .where('id', '=', latest)
      .execute();
    let alices = (await storedTradeTotals(store.db)).find((row) => row.politician_id === alice);
    expect(alices).toMatchObject({ trade_count: 1, total_volume_low: 1001, last_trade_date: '2024-01-10' });
    expect(await storedTradeTotals(store.db)).toEqual(await aggregateTradeTotals(store.db));

    await store.db
      .updateTable('trades')
      .set({ quality_flags: null, quality_excluded: 0 })
      .where('id', '=', latest)
      .execute();
    alices = (await storedTradeTotals(store.db)).find((row) => row.politician_id === alice);
    expect(alices).toMatchObject({ trade_count: 2, total_volume_low: 16002, last_trade_date: '2024-03-05' });
  });
});
