// Reads and writes of the enrichment job: which trades to (re)compute, their market fields, the
// cross-trade signals, member statistics and reconstructed portfolios.
import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { MARKET_FIELDS } from '../../domain/market-fields.js';
import { chunk, readInBatches, rowsPerInsert } from '../batch.js';
import { type ColumnType, updateRowsByKey } from '../bulk-update.js';
import type { PoliticianStatsTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { countableTrade } from './quality.js';
import { type TradeValues, updateTradesById } from './trade-updates.js';

export async function tradeSymbols(db: Kysely<Database>) {
  return db
    .selectFrom('trades')
    .select(['id', 'ticker', 'filed_ticker', 'asset_type', 'transaction_date', 'market_symbol'])
    .orderBy('id')
    .execute();
}

export type SymbolRow = Awaited<ReturnType<typeof tradeSymbols>>[number];

/** Sets market symbols; a trade whose symbol changed is marked never enriched. */
export async function setMarketSymbols(
  db: Kysely<Database>,
  changes: ReadonlyArray<TradeValues<'market_symbol'>>,
): Promise<void> {
  await updateTradesById(
    db,
    { market_symbol: 'text', enriched_at: 'text' },
    changes.map((change) => ({ ...change, enriched_at: null })),
  );
}

/**
 * Trades to compute. All of them with `all`; otherwise those never enriched, those whose next
 * window closes by `today`, and those whose prices changed since: a rewritten history of their
 * symbol or of the benchmark redoes every trade, a newer bar only the trades still waiting for one.
 */
export async function enrichTargets(
  db: Kysely<Database>,
  options: { all: boolean; today: string; benchmark: string },
) {
  let query = db
    .selectFrom('trades as t')
    .select([
      't.id',
      't.politician_id',
      't.market_symbol',
      't.ticker',
      't.filed_ticker',
      't.transaction_date',
      't.disclosure_date',
    ])
    .where('t.superseded_by', 'is', null);
  if (!options.all) {
    query = query.where((eb) =>
      eb.or([
        eb('t.enriched_at', 'is', null),
        eb('t.enrich_due', '<=', options.today),
        changedSince(eb, sql.ref('t.market_symbol')),
        changedSince(eb, sql.lit(options.benchmark)),
      ]),
    );
  }
  return query.orderBy('t.market_symbol').orderBy('t.id').execute();
}

export type EnrichTarget = Awaited<ReturnType<typeof enrichTargets>>[number];

// A series of `symbol` changed after the trade was enriched: its history was rewritten, or it got a
// newer bar while the trade waits for one. Two EXISTS (trade's symbol, benchmark) rather than one
// with an OR, so that each finds its series by primary key.
function changedSince(
  eb: ExpressionBuilder<Database & { t: Database['trades'] }, 't'>,
  symbol: RawBuilder<unknown>,
) {
  return eb.exists(
    eb
      .selectFrom('price_series as s')
      .select(sql`1`.as('one'))
      .where(sql<boolean>`s.symbol = ${symbol}`)
      .where((inner) =>
        inner.or([
          inner('s.history_changed_at', '>', inner.ref('t.enriched_at')),
          inner.and([
            inner('t.awaiting_prices', '=', 1),
            inner('s.updated_at', '>', inner.ref('t.enriched_at')),
          ]),
        ]),
      ),
  );
}

export const MARKET_COLUMNS: Readonly<Record<string, ColumnType>> = {
  ...Object.fromEntries(MARKET_FIELDS.map((field) => [field, 'double precision' as const])),
  is_ma_affected: 'integer',
  enrich_due: 'text',
  awaiting_prices: 'integer',
  enriched_at: 'text',
};

export async function writeMarketFields(
  db: Kysely<Database>,
  rows: ReadonlyArray<Record<string, unknown> & { id: number }>,
): Promise<void> {
  await updateRowsByKey(db, 'trades', { column: 'id', type: 'integer' }, MARKET_COLUMNS, rows);
}

export async function signalRows(db: Kysely<Database>) {
  return db
    .selectFrom('trades')
    .select([
      'id',
      'politician_id',
      'ticker',
      'market_symbol',
      'trade_action',
      'transaction_date',
      'days_to_disclose',
      'amount_low',
      'amount_high',
      'gain_30d',
      'sector',
      'industry',
      'peer_z_score',
      'conviction_score',
    ])
    .where(countableTrade(''))
    .execute();
}

export type SignalRow = Awaited<ReturnType<typeof signalRows>>[number];

const SIGNAL_COLUMNS = {
  sector: 'text',
  industry: 'text',
  peer_z_score: 'double precision',
  conviction_score: 'double precision',
} as const;

export async function writeSignals(
  db: Kysely<Database>,
  rows: ReadonlyArray<TradeValues<keyof typeof SIGNAL_COLUMNS>>,
): Promise<void> {
  await updateTradesById(db, SIGNAL_COLUMNS, rows);
}

/** Top-level committees per member (a subcommittee seat counts as its parent committee). */
export async function committeesByMember(db: Kysely<Database>): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees as c', 'c.id', 'm.committee_id')
    .select(['m.politician_id', 'c.id', 'c.parent_id'])
    .execute();
  const result = new Map<number, string[]>();
  for (const row of rows) {
    const committee = row.parent_id ?? row.id;
    const list = result.get(row.politician_id) ?? [];
    if (!list.includes(committee)) list.push(committee);
    result.set(row.politician_id, list);
  }
  return result;
}

export async function statsTrades(db: Kysely<Database>, politicianIds: readonly number[]) {
  return readInBatches(politicianIds, (batch) =>
    db
      .selectFrom('trades')
      .select([
        'id',
        'politician_id',
        'ticker',
        'market_symbol',
        'asset_type',
        'asset_description',
        'sector',
        'industry',
        'trade_action',
        'trade_type',
        'option_type',
        'transaction_date',
        'amount_low',
        'amount_high',
        'gain_90d',
        'alpha_30d',
        'alpha_90d',
      ])
      .where(countableTrade(''))
      .where('politician_id', 'in', batch)
      .orderBy('politician_id')
      .orderBy('transaction_date')
      .orderBy('id')
      .execute(),
  );
}

export type StatsTradeRow = Awaited<ReturnType<typeof statsTrades>>[number];

export async function membersWithTrades(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('trades')
    .select('politician_id')
    .distinct()
    .where('superseded_by', 'is', null)
    .execute();
  return rows.map((row) => row.politician_id).sort((a, b) => a - b);
}

export type StatsWrite = PoliticianStatsTable;

export type HoldingWrite = Database['portfolio_holdings'];

/**
 * Members whose statistics are missing or older than a price change of a symbol they traded
 * (or of the benchmark's calendar, which every portfolio is valued along).
 */
export async function staleMembers(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('trades as t')
    .leftJoin('politician_stats as ps', 'ps.politician_id', 't.politician_id')
    .select('t.politician_id')
    .distinct()
    .where('t.superseded_by', 'is', null)
    .where((eb) =>
      eb.or([
        eb('ps.computed_at', 'is', null),
        eb.exists(
          eb
            .selectFrom('price_series as s')
            .select(sql`1`.as('one'))
            .whereRef('s.symbol', '=', 't.market_symbol')
            .whereRef('s.updated_at', '>', 'ps.computed_at'),
        ),
      ]),
    )
    .execute();
  return rows.map((row) => row.politician_id).sort((a, b) => a - b);
}

/** Replaces the statistics and holdings of the given members. */
export async function saveMemberResults(
  db: Kysely<Database>,
  politicianIds: readonly number[],
  stats: readonly StatsWrite[],
  holdings: readonly HoldingWrite[],
): Promise<void> {
  for (const batch of chunk([...politicianIds], 500)) {
    if (batch.length === 0) continue;
    await db.deleteFrom('politician_stats').where('politician_id', 'in', batch).execute();
    await db.deleteFrom('portfolio_holdings').where('politician_id', 'in', batch).execute();
  }
  for (const batch of chunk(stats, rowsPerInsert(24))) {
    await db
      .insertInto('politician_stats')
      .values([...batch])
      .execute();
  }
  for (const batch of chunk(holdings, rowsPerInsert(29))) {
    await db
      .insertInto('portfolio_holdings')
      .values([...batch])
      .execute();
  }
}
