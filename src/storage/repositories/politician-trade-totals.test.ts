// politician_trade_totals against the full aggregate over the trades, on the real-data fixture
// (ingest of the real trade sets, their amendments and a full enrichment run wrote it through the
// triggers) and after every kind of trade write: pricing and unpricing, supersession, amount,
// date and member changes, a quality flag leaving a trade out and taking it back, a new trade
// without an amount, and a delete. trade_counts (the platform summary's totals, kept by triggers
// too) is held to the same aggregate after each of them, and after a change of direction and
// source. Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import type { Database } from '../schema.js';
import { MARKET_COLUMNS, writeMarketFields } from './enrichment.js';
import { aggregateTradeTotals, storedTradeTotals } from './politician-trade-totals.js';
import { countableTrade } from './quality.js';
import { supersedeTrade } from './report-trades.js';
import { summaryCounts } from './stats.js';

/** The platform summary counted from every trade, as it was before trade_counts kept it. */
async function countedSummary(db: Kysely<Database>) {
  const totals = await db
    .selectFrom('trades')
    .select((eb) => [
      eb.fn.countAll<number>().as('trades'),
      eb.fn.count<number>('politician_id').distinct().as('politicians'),
      eb.fn.max('disclosure_date').as('latest_disclosure'),
      eb.fn.min('transaction_date').as('earliest_transaction'),
      eb.fn.max('transaction_date').as('latest_transaction'),
    ])
    .where(countableTrade(''))
    .executeTakeFirstOrThrow();
  const bySource = await db
    .selectFrom('trades')
    .select((eb) => [
      'source',
      eb.fn.countAll<number>().as('trades'),
      eb.fn.count<number>('politician_id').distinct().as('politicians'),
    ])
    .where(countableTrade(''))
    .groupBy('source')
    .orderBy('source')
    .execute();
  const byAction = await db
    .selectFrom('trades')
    .select((eb) => ['trade_action as action', eb.fn.countAll<number>().as('trades')])
    .where(countableTrade(''))
    .groupBy('trade_action')
    .orderBy('trade_action')
    .execute();
  return {
    total_trades: Number(totals.trades),
    total_politicians: Number(totals.politicians),
    latest_disclosure_date: totals.latest_disclosure ?? null,
    earliest_transaction_date: totals.earliest_transaction ?? null,
    latest_transaction_date: totals.latest_transaction ?? null,
    by_source: bySource.map((row) => ({
      source: row.source,
      trades: Number(row.trades),
      politicians: Number(row.politicians),
    })),
    by_action: byAction.map((row) => ({ action: row.action, trades: Number(row.trades) })),
  };
}

const fixture = inject('fixture');

describe.skipIf(fixture === null)('politician_trade_totals', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  const expectParity = async () => {
    const stored = await storedTradeTotals(store.db);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await aggregateTradeTotals(store.db));
    const { total_filings: _filings, ...summary } = await summaryCounts(store.db);
    expect(summary).toEqual(await countedSummary(store.db));
  };

  /** The current trades of the member with the most of them, oldest first. */
  const busiestMember = async () => {
    const [top] = await aggregateTradeTotals(store.db).then((rows) =>
      rows.sort((a, b) => b.trade_count - a.trade_count),
    );
    if (!top) throw new Error('the fixture has no trades');
    const trades = await store.db
      .selectFrom('trades')
      .select(['id', 'politician_id', 'price_on_trade_date', 'amount_low', 'transaction_date'])
      .where('politician_id', '=', top.politician_id)
      .where('superseded_by', 'is', null)
      .where('quality_excluded', '=', 0)
      .orderBy('id')
      .execute();
    return { member: top, trades };
  };

  it('equals the aggregate after the real ingest and enrichment', async () => {
    await expectParity();
    const enriched = (await storedTradeTotals(store.db)).reduce((sum, row) => sum + row.enriched_trades, 0);
    expect(enriched).toBeGreaterThan(0);
  });

  it('follows enrichment pricing and unpricing trades', async () => {
    const { trades } = await busiestMember();
    const unpriced = trades.filter((trade) => trade.price_on_trade_date === null).slice(0, 5);
    const priced = trades.filter((trade) => trade.price_on_trade_date !== null).slice(0, 3);
    expect(unpriced.length + priced.length).toBeGreaterThan(0);
    // Enrichment writes every market column of a trade at once: the rows as stored, the price changed.
    const stored = await store.db
      .selectFrom('trades')
      .selectAll()
      .where(
        'id',
        'in',
        [...unpriced, ...priced].map((trade) => trade.id),
      )
      .execute();
    const marketRow = (row: (typeof stored)[number]) => ({
      id: row.id,
      ...Object.fromEntries(
        Object.keys(MARKET_COLUMNS).map((column) => [column, row[column as keyof typeof row]]),
      ),
    });
    await writeMarketFields(
      store.db,
      stored.map((row) => ({
        ...marketRow(row),
        price_on_trade_date: row.price_on_trade_date === null ? 101.5 : null,
      })),
    );
    await expectParity();
  });

  it('follows supersession, amount, date and member changes', async () => {
    const { member, trades } = await busiestMember();
    const [a, b, c, d, e] = trades;
    if (!a || !b || !c || !d || !e) throw new Error('the busiest member has fewer than 5 trades');
    await supersedeTrade(store.db, a.id, b.id, '2026-06-01T00:00:00.000Z');
    await store.db
      .updateTable('trades')
      .set({ amount_low: null, amount_high: null })
      .where('id', '=', c.id)
      .execute();
    await store.db
      .updateTable('trades')
      .set({ transaction_date: '2030-01-01' })
      .where('id', '=', d.id)
      .execute();
    const other = await store.db
      .selectFrom('politicians')
      .select('id')
      .where('id', '<>', member.politician_id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await store.db.updateTable('trades').set({ politician_id: other.id }).where('id', '=', e.id).execute();
    await expectParity();
    const after = (await storedTradeTotals(store.db)).find(
      (row) => row.politician_id === member.politician_id,
    );
    expect(after?.trade_count).toBe(member.trade_count - 2);
    expect(after?.last_trade_date).toBe('2030-01-01');
    // Undoing the supersession counts the trade again.
    await store.db.updateTable('trades').set({ superseded_by: null }).where('id', '=', a.id).execute();
    await expectParity();
  });

  it('leaves out the trades a quality flag excludes, on insert and when the flag changes', async () => {
    const { member, trades } = await busiestMember();
    const [a] = trades;
    if (!a) throw new Error('the busiest member has no trade');
    await expectParity();
    await store.db.updateTable('trades').set({ quality_excluded: 1 }).where('id', '=', a.id).execute();
    await expectParity();
    const totalsOf = async () =>
      (await storedTradeTotals(store.db)).find((row) => row.politician_id === member.politician_id);
    expect((await totalsOf())?.trade_count).toBe(member.trade_count - 1);
    // Enrichment pricing an excluded trade does not count it either.
    await store.db.updateTable('trades').set({ price_on_trade_date: 12.5 }).where('id', '=', a.id).execute();
    await expectParity();
    await store.db.updateTable('trades').set({ quality_excluded: 0 }).where('id', '=', a.id).execute();
    await expectParity();
    expect((await totalsOf())?.trade_count).toBe(member.trade_count);
    const template = await store.db
      .selectFrom('trades')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const { id: _id, ...fields } = template;
    const inserted = await store.db
      .insertInto('trades')
      .values({ ...fields, source_key: `${template.source_key}#excluded-test`, quality_excluded: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expectParity();
    expect((await totalsOf())?.trade_count).toBe(member.trade_count);
    await store.db.deleteFrom('trades').where('id', '=', inserted.id).execute();
    await expectParity();
  });

  it('follows a new trade without an amount for a member with none, and its delete', async () => {
    const lonely = await store.db
      .selectFrom('politicians as p')
      .leftJoin('trades as t', 't.politician_id', 'p.id')
      .select('p.id')
      .where('t.id', 'is', null)
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    const template = await store.db.selectFrom('trades').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const { id: _id, ...fields } = template;
    const inserted = await store.db
      .insertInto('trades')
      .values({
        ...fields,
        politician_id: lonely.id,
        source_key: `${template.source_key}#totals-test`,
        amount_low: null,
        amount_high: null,
        superseded_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expectParity();
    const row = (await storedTradeTotals(store.db)).find((totals) => totals.politician_id === lonely.id);
    expect(row).toMatchObject({ trade_count: 1, total_volume_low: null, total_volume_high: null });
    await store.db.deleteFrom('trades').where('id', '=', inserted.id).execute();
    await expectParity();
    expect((await storedTradeTotals(store.db)).some((totals) => totals.politician_id === lonely.id)).toBe(
      false,
    );
  });

  it('moves a trade between directions and sources in the summary', async () => {
    const { trades } = await busiestMember();
    const [a, b] = trades;
    if (!a || !b) throw new Error('the busiest member has fewer than 2 trades');
    const before = await summaryCounts(store.db);
    const action = await store.db
      .selectFrom('trades')
      .select(['trade_action', 'source'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const otherAction = action.trade_action === 'exchange' ? 'buy' : 'exchange';
    await store.db.updateTable('trades').set({ trade_action: otherAction }).where('id', '=', a.id).execute();
    await store.db.updateTable('trades').set({ source: 'summary-test' }).where('id', '=', b.id).execute();
    await expectParity();
    const after = await summaryCounts(store.db);
    expect(after.total_trades).toBe(before.total_trades);
    expect(after.by_source.find((row) => row.source === 'summary-test')).toEqual({
      source: 'summary-test',
      trades: 1,
      politicians: 1,
    });
  });
});
