// Read queries over trades, shared by every endpoint that serves Trade rows.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { TradeSortColumn } from '../../domain/sorts.js';
import { compiledOnce } from '../compiled-queries.js';
import { integersOfJsonArray } from '../dialect.js';
import type { Database } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';
import { StoreDatabase } from '../store-database.js';

export interface TradeFilter {
  disclosedFrom?: string;
  disclosedTo?: string;
  tickers?: readonly string[];
  politicianIds?: readonly number[];
  parties?: readonly string[];
  sources?: readonly string[];
  states?: readonly string[];
  actions?: readonly string[];
  assetTypes?: readonly string[];
  sectors?: readonly string[];
  /** Leave out assets without a ticker ("N/A"). */
  excludeNoTicker?: boolean;
  /** Only trades stored after this id (live feed polling). */
  afterId?: number;
  /** Only these trades (event payloads of just-stored trades). */
  ids?: readonly number[];
  includeSuperseded?: boolean;
  /** Transaction dates from / to (inclusive). */
  transactedFrom?: string;
  transactedTo?: string;
  /** Only trades changed at or after this instant (ISO 8601, as `updated_at` is stored). */
  updatedSince?: string;
  /** Also list trades a quality flag leaves out of statistics (include_superseded lists them too). */
  includeFlagged?: boolean;
}

export interface TradeOrder {
  column: TradeSortColumn;
  direction: 'asc' | 'desc';
}

export interface Page {
  limit: number;
  offset: number;
}

type TradeQuery = SelectQueryBuilder<
  Database & { t: Database['trades']; p: Database['politicians']; f: Database['filings'] },
  't' | 'p' | 'f',
  object
>;

/** The columns of every Trade row, in the resource's order. */
export const TRADE_SELECTION = [
  't.id',
  't.politician_id',
  'p.name as politician_name',
  'p.party',
  'p.party_name',
  'p.state',
  'p.slug as politician_slug',
  't.source',
  't.ticker',
  't.trade_type',
  't.asset_type',
  't.asset_description',
  't.amount_range',
  't.amount_low',
  't.amount_high',
  't.transaction_date',
  't.disclosure_date',
  't.days_to_disclose',
  't.owner',
  't.comment',
  't.filing_id',
  'f.url as filing_url',
  't.sector',
  't.industry',
  't.price_on_trade_date',
  't.price_on_disclosure',
  't.gain_7d',
  't.gain_30d',
  't.gain_60d',
  't.gain_90d',
  't.gain_1yr',
  't.alpha_30d',
  't.alpha_90d',
  't.alpha_1yr',
  't.public_gain_30d',
  't.public_gain_90d',
  't.public_gain_180d',
  't.public_alpha_30d',
  't.public_alpha_90d',
  't.public_alpha_180d',
  't.current_return',
  't.current_alpha',
  't.option_type',
  't.strike_price',
  't.option_expiry',
  't.conviction_score',
  't.peer_z_score',
  't.is_ma_affected',
  't.superseded_by',
  // What API consumers sync and join on: the member's Bioguide id, the House cap-gains box, the
  // time of the last change.
  'p.bioguide_id',
  't.cap_gains_over_200',
  't.updated_at',
  // Identity and data quality (migration 0060-quality).
  't.identity_match',
  't.quality_flags',
  't.exchange_from_ticker',
  't.exchange_to_ticker',
  // Where the values came from (migration 0066-trade-parse-method).
  't.parse_method',
  't.parse_confidence',
] as const;

function buildBaseQuery(db: Kysely<Database>) {
  return db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .leftJoin('filings as f', 'f.id', 't.filing_id')
    .select(TRADE_SELECTION);
}

export type TradeBaseQuery = ReturnType<typeof buildBaseQuery>;
type BaseQuery = TradeBaseQuery;

// Kysely builders are immutable, so the select list (fifty parsed column references, two joins)
// is built once per store and every call adds its filters to a copy.
function baseQuery(db: Kysely<Database>): BaseQuery {
  if (!(db instanceof StoreDatabase)) return buildBaseQuery(db);
  db.tradeBaseQuery ??= buildBaseQuery(db);
  return db.tradeBaseQuery;
}

export type TradeRecord = Awaited<ReturnType<BaseQuery['execute']>>[number];

function applyFilter<Q extends TradeQuery>(query: Q, filter: TradeFilter): Q {
  let q = query as TradeQuery;
  if (!filter.includeSuperseded) q = q.where('t.superseded_by', 'is', null);
  // A flag that makes a trade meaningless (a year 2225) keeps it out of the default listing and
  // its sorts; the full record (include_superseded) and the filing still show it.
  if (!filter.includeSuperseded && !filter.includeFlagged) q = q.where('t.quality_excluded', '=', 0);
  if (filter.disclosedFrom) q = q.where('t.disclosure_date', '>=', filter.disclosedFrom);
  if (filter.disclosedTo) q = q.where('t.disclosure_date', '<=', filter.disclosedTo);
  if (filter.tickers?.length) q = q.where('t.ticker', 'in', [...filter.tickers]);
  if (filter.politicianIds?.length) q = q.where('t.politician_id', 'in', [...filter.politicianIds]);
  if (filter.sources?.length) q = q.where('t.source', 'in', [...filter.sources]);
  if (filter.actions?.length) q = q.where('t.trade_action', 'in', [...filter.actions]);
  if (filter.assetTypes?.length) q = q.where('t.asset_type', 'in', [...filter.assetTypes]);
  // Sector names are matched case-insensitively ("technology" finds "Technology").
  if (filter.sectors?.length)
    q = q.where(
      sql<string>`lower(${sql.ref('t.sector')})`,
      'in',
      filter.sectors.map((sector) => sector.toLowerCase()),
    );
  if (filter.excludeNoTicker) q = q.where('t.ticker', '<>', 'N/A');
  if (filter.afterId !== undefined) q = q.where('t.id', '>', filter.afterId);
  if (filter.ids) q = q.where('t.id', 'in', filter.ids.length > 0 ? [...filter.ids] : [-1]);
  if (filter.parties?.length) q = q.where('p.party', 'in', [...filter.parties]);
  if (filter.states?.length) q = q.where('p.state', 'in', [...filter.states]);
  if (filter.transactedFrom) q = q.where('t.transaction_date', '>=', filter.transactedFrom);
  if (filter.transactedTo) q = q.where('t.transaction_date', '<=', filter.transactedTo);
  if (filter.updatedSince) q = q.where('t.updated_at', '>=', filter.updatedSince);
  return q as Q;
}

/** Whether a sort column may be null: every column a list can be ordered by says, so a new one cannot be forgotten. */
const SORT_MAY_BE_NULL: Readonly<Record<TradeSortColumn, boolean>> = {
  disclosure_date: true,
  transaction_date: false,
  amount: false,
  ticker: false,
  politician_name: false,
  days_to_disclose: true,
  gain_30d: true,
  gain_90d: true,
  gain_1yr: true,
  alpha_30d: true,
  alpha_90d: true,
  alpha_1yr: true,
  conviction_score: true,
  id: false,
  updated_at: false,
};

function applyOrder<Q extends TradeQuery>(query: Q, order: TradeOrder, nullsPossible: boolean): Q {
  let q = query as TradeQuery;
  const dir = order.direction;
  // Nulls sort last in both directions on both dialects (SQLite and PostgreSQL disagree by default).
  const column = order.column;
  if (nullsPossible && SORT_MAY_BE_NULL[column]) {
    q = q.orderBy(sql`(${sql.ref(`t.${column}`)} is null)`, 'asc');
  }
  switch (column) {
    case 'amount':
      q = q.orderBy('t.amount_low', dir).orderBy(sql`coalesce(t.amount_high, t.amount_low)`, dir);
      break;
    case 'politician_name':
      q = q.orderBy('p.name', dir);
      break;
    case 'id':
      break;
    default:
      q = q.orderBy(`t.${column}`, dir);
  }
  return q.orderBy('t.id', dir) as Q;
}

/**
 * The page's trades with every column, in order. The page is chosen first on the trade ids alone
 * (filters, order, limit and offset in a subquery that selects only `t.id`), then only its rows
 * are read in full. When the order cannot come from an index (e.g. one ticker's trades by
 * transaction date), the database sorts every matching trade: sorting ids and two or three keys
 * instead of fifty-column rows made `/tickers/NVDA/trades` (848 matches) about twice as fast on
 * SQLite (BENCHMARKS.md). Where the disclosure-date index gives the order (the default
 * `/trades` page) the database stops after the page's rows anyway and the second pass would only
 * add its cost (+25% on that query), so such pages are read in one pass.
 */
export function pageQuery(
  db: Kysely<Database>,
  filter: TradeFilter,
  order: TradeOrder,
  page: Page,
): BaseQuery {
  // A disclosure-date range already excludes trades without a disclosure date.
  const nullsPossible = !(order.column === 'disclosure_date' && filter.disclosedFrom);
  if (orderFromIndex(filter, order)) {
    const query = applyOrder(
      applyFilter(baseQuery(db) as unknown as TradeQuery, filter),
      order,
      nullsPossible,
    );
    return (query as unknown as BaseQuery).limit(page.limit).offset(page.offset);
  }
  const rows = (baseQuery(db) as unknown as TradeQuery).where(
    't.id',
    'in',
    pageKeysQuery(db, filter, order, page) as never,
  );
  return applyOrder(rows, order, nullsPossible) as unknown as BaseQuery;
}

/** The ids of a page of pageQuery, in its order: the filters, order, limit and offset on the ids alone. */
export function pageKeysQuery(db: Kysely<Database>, filter: TradeFilter, order: TradeOrder, page: Page) {
  const nullsPossible = !(order.column === 'disclosure_date' && filter.disclosedFrom);
  const keys = applyOrder(
    applyFilter(
      db
        .selectFrom('trades as t')
        .innerJoin('politicians as p', 'p.id', 't.politician_id')
        .select('t.id') as unknown as TradeQuery,
      filter,
    ),
    order,
    nullsPossible,
  ) as unknown as SelectQueryBuilder<Database & { t: Database['trades'] }, 't', { id: number }>;
  return keys.limit(page.limit).offset(page.offset);
}

/**
 * The trades whose ids are the JSON array `idsJson` (a bound value), with every column, in
 * `order`: a page whose ids were chosen before (pageKeysQuery), read whatever they are now
 * (superseded or flagged since included).
 */
export function tradesByIdsQuery(db: Kysely<Database>, idsJson: unknown, order: TradeOrder): BaseQuery {
  const rows = (baseQuery(db) as unknown as TradeQuery).where(
    sql<boolean>`${sql.ref('t.id')} in ${integersOfJsonArray(db as unknown as Kysely<unknown>, idsJson)}`,
  );
  return applyOrder(rows, order, true) as unknown as BaseQuery;
}

/**
 * Whether the database reads the page in order from an index: by id (the primary key), or by
 * disclosure date (its index) with no filter on a ticker or a member, whose own indexes the
 * planner prefers (it then sorts every match).
 */
export function orderFromIndex(filter: TradeFilter, order: TradeOrder): boolean {
  if (filter.tickers?.length || filter.politicianIds?.length) return false;
  return order.column === 'disclosure_date' || order.column === 'id';
}

/**
 * The id of the listed trade `offset` places below the newest (ids only, newest first), or
 * undefined when fewer trades are listed: where the latest `offset + 1` trades begin.
 */
export async function newestTradeIdAt(db: Kysely<Database>, offset: number): Promise<number | undefined> {
  const row = await pageKeysQuery(
    db,
    {},
    { column: 'id', direction: 'desc' },
    { limit: 1, offset },
  ).executeTakeFirst();
  return row?.id;
}

export async function findTrades(
  db: Kysely<Database>,
  filter: TradeFilter,
  order: TradeOrder,
  page: Page,
): Promise<TradeRecord[]> {
  return (await pageQuery(db, filter, order, page).execute()) as TradeRecord[];
}

/**
 * The listed trades (as findTrades lists them: current, not left out by a quality flag) among
 * `ids`, newest transaction first. The ids are bound as one JSON array, so the fifty-column query
 * is built, compiled (and on SQLite prepared) once for every list length: built, compiled and
 * prepared per call, it cost ten times what the database spends reading a page of 25 rows.
 */
export async function findListedTradesByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<TradeRecord[]> {
  if (ids.length === 0) return [];
  const build = (param: (name: 'ids') => never) =>
    applyOrder(
      applyFilter(baseQuery(db) as unknown as TradeQuery, {}).where(
        sql<boolean>`${sql.ref('t.id')} in ${integersOfJsonArray(db as unknown as Kysely<unknown>, param('ids'))}`,
      ),
      { column: 'transaction_date', direction: 'desc' },
      false,
    );
  const values = { ids: JSON.stringify(ids) };
  const sqlite = syncSqliteOf(db);
  if (sqlite) return preparedQuery(sqlite, 'trades.byIds', build).all(values) as TradeRecord[];
  return compiledOnce<'ids', TradeRecord>(db, 'trades.byIds', build).execute(values);
}

export async function countTrades(db: Kysely<Database>, filter: TradeFilter): Promise<number> {
  const query = applyFilter(
    db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .leftJoin('filings as f', 'f.id', 't.filing_id') as unknown as TradeQuery,
    filter,
  );
  const row = await (query as unknown as ReturnType<typeof baseQuery>)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
