// GET /conflict's member counts (memberTradeCounts: total_trades, trades_with_sector,
// trades_outside_seat_history) read from the trigger-kept politician_trade_totals,
// trade_sector_counts and trade_date_counts, against the same counts recomputed over the member's
// trades: on the
// real-data fixture (ingest of the real trade sets, their amendments and a full enrichment wrote
// them through the triggers) and after enrichment filling and clearing sectors, supersession by an
// amendment and its undoing, a quality flag, a member change, inserts and deletes. Also a database
// that already holds trades when migrations 0079 and 0103 create the tables. Runs on SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { migrateToLatest, migrations } from '../migrate.js';
import type { Database } from '../schema.js';
import { writeSignals } from './enrichment.js';
import { supersedeTrade } from './report-trades.js';
import { memberTradeCounts } from './trade-links.js';

const STAMP = '2026-06-01T00:00:00.000Z';

/** The member's counts over their trades, counted here row by row: current and not flagged out. */
async function recounted(db: Kysely<Database>, politicianId: number, seatsKnownFrom: string | null) {
  const trades = (
    await db
      .selectFrom('trades')
      .select(['sector', 'industry', 'transaction_date', 'superseded_by', 'quality_excluded'])
      .where('politician_id', '=', politicianId)
      .execute()
  ).filter((trade) => trade.superseded_by === null && Number(trade.quality_excluded) === 0);
  return {
    total: trades.length,
    withSector: trades.filter((trade) => trade.sector !== null || trade.industry !== null).length,
    outsideSeatHistory: trades.filter(
      (trade) => seatsKnownFrom === null || trade.transaction_date < seatsKnownFrom,
    ).length,
  };
}

/** trade_sector_counts as stored (members with a counted trade) and as recounted from every trade. */
async function sectorCounts(db: Kysely<Database>) {
  const stored = await db
    .selectFrom('trade_sector_counts')
    .select(['politician_id', 'trade_count'])
    .orderBy('politician_id')
    .execute();
  const recount = await db
    .selectFrom('trades')
    .select(['politician_id', (eb) => eb.fn.countAll<number | string>().as('trade_count')])
    .where('superseded_by', 'is', null)
    .where('quality_excluded', '=', 0)
    .where((eb) => eb.or([eb('sector', 'is not', null), eb('industry', 'is not', null)]))
    .groupBy('politician_id')
    .orderBy('politician_id')
    .execute();
  const normal = (rows: { politician_id: number; trade_count: number | string }[]) =>
    rows
      .map((row) => ({ politician_id: row.politician_id, trade_count: Number(row.trade_count) }))
      .filter((row) => row.trade_count > 0);
  return { stored: normal(stored), recounted: normal(recount) };
}

/** trade_date_counts as stored (days with a counted trade) and as recounted from every trade. */
async function dateCounts(db: Kysely<Database>) {
  const stored = await db
    .selectFrom('trade_date_counts')
    .select(['politician_id', 'transaction_date', 'trade_count'])
    .orderBy('politician_id')
    .orderBy('transaction_date')
    .execute();
  const recount = await db
    .selectFrom('trades')
    .select([
      'politician_id',
      'transaction_date',
      (eb) => eb.fn.countAll<number | string>().as('trade_count'),
    ])
    .where('superseded_by', 'is', null)
    .where('quality_excluded', '=', 0)
    .groupBy(['politician_id', 'transaction_date'])
    .orderBy('politician_id')
    .orderBy('transaction_date')
    .execute();
  const normal = (
    rows: { politician_id: number; transaction_date: string; trade_count: number | string }[],
  ) =>
    rows
      .map((row) => ({ ...row, trade_count: Number(row.trade_count) }))
      .filter((row) => row.trade_count > 0);
  return { stored: normal(stored), recounted: normal(recount) };
}

const fixture = inject('fixture');

describe.skipIf(fixture === null)('memberTradeCounts', () => {
  let store: TestStore;
  /** The member with the most trades, another member, and the busiest member's trades oldest first. */
  let busiest: number;
  let other: number;
  let seatsKnownFrom: string | null;
  /** A day inside the busiest member's history, so that both sides of it hold trades. */
  let midHistory: string;

  beforeAll(async () => {
    if (!fixture) return;
    store = await openTestStore(fixture);
    const top = await store.db
      .selectFrom('trades')
      .select(['politician_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('superseded_by', 'is', null)
      .groupBy('politician_id')
      .orderBy('n', 'desc')
      .orderBy('politician_id')
      .limit(2)
      .execute();
    const [first, second] = top;
    if (!first || !second) throw new Error('the fixture has fewer than two members with trades');
    busiest = first.politician_id;
    other = second.politician_id;
    const state = await store.db
      .selectFrom('member_links')
      .select('seats_known_from')
      .where('politician_id', '=', busiest)
      .executeTakeFirst();
    seatsKnownFrom = state?.seats_known_from ?? null;
    const dates = await store.db
      .selectFrom('trades')
      .select('transaction_date')
      .where('politician_id', '=', busiest)
      .orderBy('transaction_date')
      .execute();
    midHistory = dates[Math.floor(dates.length / 2)]?.transaction_date ?? '2020-01-01';
  });
  afterAll(async () => store?.dispose());

  const busiestTrades = () =>
    store.db
      .selectFrom('trades')
      .select(['id', 'sector', 'industry', 'peer_z_score', 'conviction_score', 'transaction_date'])
      .where('politician_id', '=', busiest)
      .where('superseded_by', 'is', null)
      .where('quality_excluded', '=', 0)
      .orderBy('id')
      .execute();

  const expectParity = async () => {
    for (const member of [busiest, other]) {
      for (const from of [seatsKnownFrom, null, midHistory]) {
        expect(await memberTradeCounts(store.db, member, from)).toEqual(
          await recounted(store.db, member, from),
        );
      }
    }
    const { stored, recounted: fromTrades } = await sectorCounts(store.db);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(fromTrades);
    const byDate = await dateCounts(store.db);
    expect(byDate.stored.length).toBeGreaterThan(0);
    expect(byDate.stored).toEqual(byDate.recounted);
  };

  it('equals the recount after the real ingest and enrichment, on both sides of a seat history start', async () => {
    await expectParity();
    const counts = await memberTradeCounts(store.db, busiest, midHistory);
    expect(counts.withSector).toBeGreaterThan(0);
    expect(counts.withSector).toBeLessThanOrEqual(counts.total);
    expect(counts.outsideSeatHistory).toBeGreaterThan(0);
    expect(counts.outsideSeatHistory).toBeLessThan(counts.total);
  });

  it('follows enrichment filling a sector or an industry, and clearing them', async () => {
    const trades = await busiestTrades();
    const unknown = trades.filter((trade) => trade.sector === null && trade.industry === null);
    const known = trades.filter((trade) => trade.sector !== null);
    const before = await memberTradeCounts(store.db, busiest, null);
    const [industryOnly, ...filled] = [...unknown, ...known].slice(0, 4);
    const cleared = known.slice(-2);
    if (!industryOnly || cleared.length < 2) throw new Error('the busiest member has too few trades');
    const signal = (trade: (typeof trades)[number], sector: string | null, industry: string | null) => ({
      id: trade.id,
      sector,
      industry,
      peer_z_score: trade.peer_z_score,
      conviction_score: trade.conviction_score,
    });
    await writeSignals(store.db, [
      signal(industryOnly, null, 'Semiconductors'),
      ...filled.map((trade) => signal(trade, 'Information Technology', trade.industry)),
      ...cleared.map((trade) => signal(trade, null, null)),
    ]);
    await expectParity();
    const after = await memberTradeCounts(store.db, busiest, null);
    const entered = [industryOnly, ...filled].filter(
      (trade) => trade.sector === null && trade.industry === null,
    );
    expect(after.withSector).toBe(before.withSector + entered.length - cleared.length);
    expect(after.total).toBe(before.total);
  });

  it('follows supersession by an amendment and its undoing', async () => {
    const [a, b] = await busiestTrades();
    if (!a || !b) throw new Error('the busiest member has fewer than 2 trades');
    const before = await memberTradeCounts(store.db, busiest, null);
    await supersedeTrade(store.db, a.id, b.id, STAMP);
    await expectParity();
    expect((await memberTradeCounts(store.db, busiest, null)).total).toBe(before.total - 1);
    await store.db.updateTable('trades').set({ superseded_by: null }).where('id', '=', a.id).execute();
    await expectParity();
  });

  it('follows a quality flag leaving a trade out and taking it back, and a change of member or date', async () => {
    const [a, b, c] = (await busiestTrades()).filter((trade) => trade.sector !== null);
    if (!a || !b || !c) throw new Error('the busiest member has fewer than 3 trades with a sector');
    await store.db.updateTable('trades').set({ quality_excluded: 1 }).where('id', '=', a.id).execute();
    await expectParity();
    await store.db.updateTable('trades').set({ quality_excluded: 0 }).where('id', '=', a.id).execute();
    await store.db.updateTable('trades').set({ politician_id: other }).where('id', '=', b.id).execute();
    await store.db
      .updateTable('trades')
      .set({ transaction_date: '2030-01-01' })
      .where('id', '=', c.id)
      .execute();
    await expectParity();
  });

  it('follows inserted trades (with and without a sector, flagged out, superseded) and deletes', async () => {
    const template = await store.db
      .selectFrom('trades')
      .selectAll()
      .where('politician_id', '=', busiest)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { id: _id, ...fields } = template;
    const inserted: number[] = [];
    const variants = [
      { sector: 'Energy', industry: null, quality_excluded: 0, superseded_by: null },
      { sector: null, industry: null, quality_excluded: 0, superseded_by: null },
      { sector: 'Energy', industry: 'Oil & Gas', quality_excluded: 1, superseded_by: null },
      { sector: 'Energy', industry: null, quality_excluded: 0, superseded_by: template.id },
    ];
    for (const [index, variant] of variants.entries()) {
      const row = await store.db
        .insertInto('trades')
        .values({ ...fields, ...variant, source_key: `${template.source_key}#counts-test-${index}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      inserted.push(row.id);
    }
    await expectParity();
    await store.db.deleteFrom('trades').where('id', 'in', inserted).execute();
    await expectParity();
  });
});

describe('migrations 0079 and 0103 on a database that already has trades', () => {
  let store: TestStore;
  let alice: number;

  beforeAll(async () => {
    store = await openTestStore(undefined, { migrate: false });
    const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0079'));
    const { error } = await new Migrator({
      db: store.db,
      provider: { getMigrations: async () => earlier },
      allowUnorderedMigrations: true,
    }).migrateToLatest();
    if (error) throw error;
    alice = await insertTestMember(
      store.db,
      { slug: 'alice-sectors', name: 'Alice Sectors', chamber: 'House' },
      new Date(STAMP),
    );
    const trades = [
      { key: 'a#1', date: '2019-04-02', sector: 'Energy', industry: null, excluded: 0 },
      { key: 'a#2', date: '2024-01-10', sector: null, industry: 'Banks', excluded: 0 },
      { key: 'a#3', date: '2025-02-01', sector: null, industry: null, excluded: 0 },
      { key: 'a#4', date: '2025-03-05', sector: 'Financials', industry: null, excluded: 1 },
    ];
    for (const trade of trades) {
      await store.db
        .insertInto('trades')
        .values({
          politician_id: alice,
          source: 'house_clerk',
          source_key: trade.key,
          origin: 'test',
          ticker: 'XOM',
          asset_description: 'Exxon Mobil Corporation',
          trade_type: 'Buy',
          trade_action: 'buy',
          amount_range: '$1,001 - $15,000',
          amount_low: 1001,
          amount_high: 15000,
          transaction_date: trade.date,
          sector: trade.sector,
          industry: trade.industry,
          quality_excluded: trade.excluded,
          is_ma_affected: 0,
          created_at: STAMP,
          updated_at: STAMP,
        })
        .execute();
    }
  });
  afterAll(async () => store?.dispose());

  it('fills trade_sector_counts and trade_date_counts from the trades on record, and the triggers follow later writes', async () => {
    const report = await migrateToLatest(store.db);
    expect(report.applied).toContain('0079-trade-sector-counts');
    expect(report.applied).toContain('0103-trade-date-counts');
    expect(await memberTradeCounts(store.db, alice, '2025-01-03')).toEqual({
      total: 3,
      withSector: 2,
      outsideSeatHistory: 2,
    });
    await store.db.updateTable('trades').set({ sector: 'Energy' }).where('source_key', '=', 'a#3').execute();
    expect(await memberTradeCounts(store.db, alice, null)).toEqual({
      total: 3,
      withSector: 3,
      outsideSeatHistory: 3,
    });
    await store.db
      .updateTable('trades')
      .set({ transaction_date: '2025-04-01', quality_excluded: 0 })
      .where('source_key', '=', 'a#4')
      .execute();
    expect(await memberTradeCounts(store.db, alice, '2025-01-03')).toEqual({
      total: 4,
      withSector: 4,
      outsideSeatHistory: 2,
    });
    const { stored, recounted: fromTrades } = await sectorCounts(store.db);
    expect(stored).toEqual(fromTrades);
    const byDate = await dateCounts(store.db);
    expect(byDate.stored).toEqual(byDate.recounted);
  });
});
