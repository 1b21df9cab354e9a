// The stored results of GET /legislation/suspicious-timing and GET /clusters/recent (migration
// 0075-stored-analytics; docs/analytics.md, "Stored results"): whether they are current, their
// replacement by a rebuild, and the reads a request makes of them.
import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { isSqlite, jsonTextsArray, positionsOfJsonArray } from '../dialect.js';
import { pageLimit } from '../list-order.js';
import type { ClusterAnswersTable, TimingHitsTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import {
  inStoredTradeRange,
  inTradeRange,
  narrowsBeyondDates,
  type TradeRangeFilter,
} from './trade-range.js';

export type StoredName = 'timing' | 'clusters';
/**
 * Every stored result: the range analytics', the stored clusters' answer text, the most-traded
 * tickers' rankings, the overlap hits and the company dossiers.
 */
export type StoredResult = StoredName | 'cluster_answers' | 'tickers' | 'overlap' | 'dossier';

/** The scopes of pending changes each stored result depends on. */
export const STORED_SCOPES: Record<StoredResult, readonly string[]> = {
  timing: ['trades', 'timing'],
  clusters: ['trades'],
  cluster_answers: ['trades', 'cluster_answers'],
  tickers: ['tickers'],
  overlap: ['overlap'],
  dossier: ['dossier'],
};

/** Whether each stored result has been computed and no change to its inputs is pending since. */
export async function storedAnalyticsCurrent(db: Kysely<Database>): Promise<Record<StoredName, boolean>> {
  const stored = new Set(
    (await db.selectFrom('analytics_stored').select('name').execute()).map((row) => row.name),
  );
  const pending = new Set(
    (await db.selectFrom('analytics_changes').select('scope').distinct().execute()).map((row) => row.scope),
  );
  const current = (name: StoredName) =>
    stored.has(name) && !STORED_SCOPES[name].some((scope) => pending.has(scope));
  return { timing: current('timing'), clusters: current('clusters') };
}

/** Whether this stored result has been computed and no change to its inputs is pending since. */
export async function storedResultCurrent(db: Kysely<Database>, name: StoredResult): Promise<boolean> {
  return (await currentResult(db, name).executeTakeFirst()) !== undefined;
}

/** A row when this stored result has been computed and no change to its inputs is pending since. */
function currentResult(db: Kysely<Database>, name: StoredResult) {
  return db
    .selectFrom('analytics_stored')
    .select('name')
    .where('name', '=', name)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('analytics_changes')
            .select('id')
            .where('scope', 'in', [...STORED_SCOPES[name]]),
        ),
      ),
    );
}

/**
 * The rebuild's transaction. PostgreSQL: one snapshot for the changes seen and the inputs read, so
 * that a change committed meanwhile stays pending. SQLite: its first statement writes, so the
 * transaction holds the write lock from the start and no other writer comes between its reads and
 * its writes.
 */
export function inRebuildTransaction<T>(
  db: Kysely<Database>,
  names: readonly StoredResult[],
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const sqlite = isSqlite(db as unknown as Kysely<unknown>);
  const transaction = sqlite ? db.transaction() : db.transaction().setIsolationLevel('repeatable read');
  return transaction.execute(async (trx) => {
    if (sqlite)
      await trx
        .deleteFrom('analytics_stored')
        .where('name', 'in', [...names])
        .execute();
    return work(trx);
  });
}

/** The ids of the pending changes of these scopes (a rebuild clears those it has seen). */
export async function pendingAnalyticsChanges(
  db: Kysely<Database>,
  scopes: readonly string[],
): Promise<number[]> {
  return (
    await db
      .selectFrom('analytics_changes')
      .select('id')
      .where('scope', 'in', [...scopes])
      .execute()
  ).map((row) => row.id);
}

/** Clears the changes a rebuild has seen and records when the result was computed. */
export async function markStoredResult(
  db: Kysely<Database>,
  results: readonly { name: StoredResult; rowCount: number }[],
  computedAt: string,
  seenChanges: readonly number[],
): Promise<void> {
  for (const batch of chunk(seenChanges, 500))
    if (batch.length > 0) await db.deleteFrom('analytics_changes').where('id', 'in', batch).execute();
  await db
    .deleteFrom('analytics_stored')
    .where(
      'name',
      'in',
      results.map((result) => result.name),
    )
    .execute();
  await db
    .insertInto('analytics_stored')
    .values(
      results.map((result) => ({ name: result.name, computed_at: computedAt, row_count: result.rowCount })),
    )
    .execute();
}

/** The range filter's columns, which the stored rows copy of every trade (trades and cluster_trades as `t`). */
const FILTER_KEY_COLUMNS = [
  't.transaction_date',
  't.ticker',
  't.source',
  't.trade_action',
  't.politician_id',
  't.amount_low',
] as const;

/** What the stored rows copy of every trade in a range: its key and the range filter's columns. */
export async function tradeFilterKeys(db: Kysely<Database>, range: TradeRangeFilter) {
  return db
    .selectFrom('trades as t')
    .select(['t.id', ...FILTER_KEY_COLUMNS])
    .where(inTradeRange(range))
    .execute();
}

export type TradeFilterKey = Awaited<ReturnType<typeof tradeFilterKeys>>[number];

/** A clustered trade's stored row: its key, the range filter's columns and its cluster. */
export type ClusterTradeRow = TradeFilterKey & { cluster_rank: number };

/**
 * Replaces both stored results of the range analytics, and the clusters' answer text, in one go
 * and clears the changes the rebuild has seen. Called in the rebuild's transaction, after it has
 * read its inputs.
 */
export async function replaceStoredAnalytics(
  db: Kysely<Database>,
  stored: {
    hits: readonly TimingHitsTable[];
    /** Every action kind of the timing rule: the counts per day are kept for each set of them. */
    actionKinds: readonly string[];
    clusterTrades: readonly ClusterTradeRow[];
    clusterAnswers: readonly ClusterAnswersTable[];
    computedAt: string;
    seenChanges: readonly number[];
  },
): Promise<void> {
  await db.deleteFrom('timing_hits').execute();
  await db.deleteFrom('cluster_trades').execute();
  for (const batch of chunk(stored.hits, rowsPerInsert(11)))
    if (batch.length > 0) await db.insertInto('timing_hits').values(batch).execute();
  await writeTimingCounts(db, stored.actionKinds);
  const clusterRows = stored.clusterTrades.map(({ id, ...key }) => ({ trade_id: id, ...key }));
  for (const batch of chunk(clusterRows, rowsPerInsert(8)))
    if (batch.length > 0) await db.insertInto('cluster_trades').values(batch).execute();
  await writeClusterAnswers(db, stored.clusterAnswers);
  await markStoredResult(
    db,
    [
      { name: 'timing', rowCount: stored.hits.length },
      { name: 'clusters', rowCount: stored.clusterTrades.length },
      { name: 'cluster_answers', rowCount: stored.clusterAnswers.length },
    ],
    stored.computedAt,
    stored.seenChanges,
  );
}

/**
 * Replaces the clusters' answer text alone (the clustered trades unchanged) and clears the changes
 * the rebuild has seen; in the rebuild's transaction.
 */
export async function replaceClusterAnswers(
  db: Kysely<Database>,
  answers: readonly ClusterAnswersTable[],
  computedAt: string,
  seenChanges: readonly number[],
): Promise<void> {
  await writeClusterAnswers(db, answers);
  await markStoredResult(
    db,
    [{ name: 'cluster_answers', rowCount: answers.length }],
    computedAt,
    seenChanges,
  );
}

async function writeClusterAnswers(db: Kysely<Database>, answers: readonly ClusterAnswersTable[]) {
  await db.deleteFrom('cluster_answers').execute();
  // Few rows per insert: each carries a cluster's whole text.
  for (const batch of chunk(answers, 50))
    if (batch.length > 0) await db.insertInto('cluster_answers').values(batch).execute();
}

/** Every stored clustered trade, for a rebuild of the clusters' answer text. */
export function allClusterTrades(db: Kysely<Database>) {
  return db
    .selectFrom('cluster_trades as t')
    .select(['t.trade_id as id', ...FILTER_KEY_COLUMNS])
    .execute();
}

function storedHits(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  daysBefore: number,
  kinds: readonly string[],
) {
  return db
    .selectFrom('timing_hits as t')
    .where(inStoredTradeRange(range))
    .where('t.days_between', '<=', daysBefore)
    .where('t.action_kind', 'in', [...kinds]);
}

/**
 * A range's stored hits at `daysBefore` and these action kinds: how many, over how many trades.
 * Summed from the counts per day when nothing but the dates narrows the range, else counted hit by hit.
 */
export function countStoredTimingHits(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  daysBefore: number,
  kinds: readonly string[],
): Promise<{ total: number; trades: number }> {
  return narrowsBeyondDates(range)
    ? countStoredHitRows(db, range, daysBefore, kinds)
    : sumStoredTimingCounts(db, range, daysBefore, kinds);
}

/** The same two numbers counted from the range's stored hits, one index entry per hit. */
export async function countStoredHitRows(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  daysBefore: number,
  kinds: readonly string[],
): Promise<{ total: number; trades: number }> {
  const row = await storedHits(db, range, daysBefore, kinds)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.count<number | string>('t.trade_id').distinct().as('trades'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), trades: Number(row.trades) };
}

/** The same two numbers summed from the counts per day (0107-timing-counts), for a range of dates alone. */
export async function sumStoredTimingCounts(
  db: Kysely<Database>,
  range: { from: string; to: string },
  daysBefore: number,
  kinds: readonly string[],
): Promise<{ total: number; trades: number }> {
  const row = await db
    .selectFrom('timing_counts')
    .select((eb) => [
      eb.fn.sum<number | string | null>('hits').as('total'),
      eb.fn.sum<number | string | null>('trades').as('trades'),
    ])
    .where('action_kinds', '=', kindsKey(kinds))
    .where('transaction_date', '>=', range.from)
    .where('transaction_date', '<=', range.to)
    .where('days_between', '<=', daysBefore)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total ?? 0), trades: Number(row.trades ?? 0) };
}

/** A set of action kinds as timing_counts keys it: distinct, sorted, comma-joined. */
function kindsKey(kinds: readonly string[]): string {
  return [...new Set(kinds)].sort().join(',');
}

/** Every non-empty set of these action kinds: each is a set a request can ask for. */
function kindSets(kinds: readonly string[]): string[][] {
  const distinct = [...new Set(kinds)];
  const sets: string[][] = [];
  for (let mask = 1; mask < 1 << distinct.length; mask++)
    sets.push(distinct.filter((_, index) => mask & (1 << index)));
  return sets;
}

/**
 * Replaces the counts per day from the stored hits, for every set of the action kinds: per
 * transaction date and days before the action, the hits of the set's kinds, and the trades whose
 * nearest hit of those kinds is that many days before (so a sum over days <= D counts each trade
 * with a hit within D once).
 */
async function writeTimingCounts(db: Kysely<Database>, kinds: readonly string[]): Promise<void> {
  await db.deleteFrom('timing_counts').execute();
  for (const set of kindSets(kinds)) {
    const ofSet = sql`action_kind in (${sql.join(set)})`;
    await sql`
      insert into timing_counts (action_kinds, transaction_date, days_between, hits, trades)
      select ${kindsKey(set)}, transaction_date, days_between, sum(hits), sum(trades)
      from (
        select transaction_date, days_between, count(*) as hits, 0 as trades
        from timing_hits where ${ofSet}
        group by transaction_date, days_between
        union all
        select transaction_date, nearest, 0, count(*)
        from (
          select trade_id, transaction_date, min(days_between) as nearest
          from timing_hits where ${ofSet}
          group by trade_id, transaction_date
        ) as nearest_hits
        group by transaction_date, nearest
      ) as counted
      group by transaction_date, days_between`.execute(db);
  }
}

/** One page of a range's stored hits, in answer order. */
export function storedTimingPage(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  daysBefore: number,
  kinds: readonly string[],
  page: { limit: number; offset: number },
) {
  return storedTimingPageQuery(db, range, daysBefore, kinds, page).execute();
}

/** storedTimingPage's query, each hit with its `rank` (the page's order). */
export function storedTimingPageQuery(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  daysBefore: number,
  kinds: readonly string[],
  page: { limit: number; offset: number },
) {
  return storedHits(db, range, daysBefore, kinds)
    .select(['t.rank', 't.trade_id', 't.days_between', 't.evidence'])
    .orderBy('t.rank')
    .limit(pageLimit(page.limit))
    .offset(page.offset);
}

/** The keys of a range's trades that belong to a stored cluster, oldest first. */
export function storedClusterTradeKeys(db: Kysely<Database>, range: TradeRangeFilter) {
  return db
    .selectFrom('cluster_trades as t')
    .select(['t.trade_id as id', 't.politician_id', 't.ticker', 't.trade_action', 't.transaction_date'])
    .where(inStoredTradeRange(range))
    .orderBy('t.transaction_date')
    .orderBy('t.trade_id')
    .execute();
}

/** The stored clusters of the whole history that hold a trade of the range's dates, tickers and directions. */
function storedClustersIn(db: Kysely<Database>, range: TradeRangeFilter) {
  let query = db
    .selectFrom('cluster_answers')
    .where('window_to', '>=', range.from)
    .where('window_from', '<=', range.to);
  if (range.tickers?.length) query = query.where('ticker', 'in', [...range.tickers]);
  if (range.actions?.length) query = query.where('direction', 'in', [...range.actions]);
  return query;
}

/** A stored cluster the range's dates cut: its first or last trade date is outside them. */
function cutByDates(eb: ExpressionBuilder<Database, 'cluster_answers'>, range: TradeRangeFilter) {
  return eb.or([eb('window_from', '<', range.from), eb('window_to', '>', range.to)]);
}

const ORDER_COLUMNS = ['rank', 'ticker', 'direction', 'window_to', 'member_count'] as const;

/** Those stored clusters, in answer order, without their text: what decides whether the range holds each whole. */
export function storedClustersOfRange(db: Kysely<Database>, range: TradeRangeFilter) {
  return storedClustersIn(db, range)
    .select([...ORDER_COLUMNS, 'window_from', 'sources'])
    .orderBy('rank')
    .execute();
}

export type StoredClusterRow = Awaited<ReturnType<typeof storedClustersOfRange>>[number];

/** What the answer orders a stored cluster by, and its rank. */
export type StoredClusterOrder = Pick<StoredClusterRow, (typeof ORDER_COLUMNS)[number]>;

/** The ranks of those stored clusters whose first or last trade date is outside the range's dates. */
export async function storedClustersCutByDates(
  db: Kysely<Database>,
  range: TradeRangeFilter,
): Promise<number[]> {
  const rows = await storedClustersIn(db, range)
    .select('rank')
    .where((eb) => cutByDates(eb, range))
    .execute();
  return rows.map((row) => row.rank);
}

/**
 * Whether the stored clusters' text is current, how many stored clusters hold a trade of the
 * range's dates, tickers and directions, and how many of them the range's dates cut: one
 * statement, the question most requests ask first.
 */
export async function storedClusterCounts(
  db: Kysely<Database>,
  range: TradeRangeFilter,
): Promise<{ current: boolean; total: number; cut: number }> {
  const row = await storedClustersIn(db, range)
    .select((eb) => [
      eb.exists(currentResult(db, 'cluster_answers')).as('current'),
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .sum<number | string | null>(eb.case().when(cutByDates(eb, range)).then(1).else(0).end())
        .as('cut'),
    ])
    .executeTakeFirstOrThrow();
  return { current: Boolean(Number(row.current)), total: Number(row.total), cut: Number(row.cut ?? 0) };
}

/** The first `count` of those stored clusters in answer order that are not among `except`, without their text. */
export function firstStoredClusters(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  except: readonly number[],
  count: number,
) {
  let query = storedClustersIn(db, range).select([...ORDER_COLUMNS]);
  if (except.length > 0) query = query.where('rank', 'not in', [...except]);
  return query.orderBy('rank').limit(count).execute();
}

/**
 * A page of the range's stored clusters, in rank order, as the text of one JSON array of their
 * answer texts, and how many (see clusterTextsArray).
 */
export async function storedClusterTextPage(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  page: { limit: number; offset: number },
): Promise<{ json: string | Buffer; rows: number }> {
  const texts = storedClustersIn(db, range)
    .select(['json', 'rank'])
    .orderBy('rank')
    .limit(pageLimit(page.limit))
    .offset(page.offset);
  const row = await db
    .selectFrom(texts.as('r'))
    .select(clusterTextsArray(db, sql.ref('r.json'), sql.ref('r.rank')))
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/** The keys of these stored clusters' trades that are in the range, oldest first. */
export function storedClusterKeysOf(db: Kysely<Database>, ranks: readonly number[], range: TradeRangeFilter) {
  return db
    .selectFrom('cluster_trades as t')
    .select(['t.trade_id as id', 't.politician_id', 't.ticker', 't.trade_action', 't.transaction_date'])
    .where('t.cluster_rank', 'in', ranks.length > 0 ? [...ranks] : [-1])
    .where(inStoredTradeRange(range))
    .orderBy('t.transaction_date')
    .orderBy('t.trade_id')
    .execute();
}

/**
 * The answer texts of these stored clusters, in the order given, as the text of one JSON array,
 * and how many were found (see clusterTextsArray).
 */
export async function clusterAnswersJson(
  db: Kysely<Database>,
  ranks: readonly number[],
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const positions = db.selectFrom(positionsOfJsonArray(plain, JSON.stringify(ranks)).as('k'));
  // SQLite: the ranks stay the outer loop (a cross join is never reordered), so the texts arrive in their order.
  const joined = isSqlite(plain)
    ? positions.crossJoin('cluster_answers as a').whereRef('a.rank', '=', 'k.id')
    : positions.innerJoin('cluster_answers as a', 'a.rank', 'k.id');
  const row = await joined
    .select(clusterTextsArray(db, sql.ref('a.json'), sql.ref('k.position')))
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/**
 * Stored cluster texts, in `order`, joined as the text of one JSON array (jsonTextsArray: on SQLite
 * in the order the rows arrive), and how many. On SQLite always as UTF-8 bytes: a cluster's text is
 * kilobytes (its members' trades), so even a short page is worth sending undecoded.
 */
function clusterTextsArray(db: Kysely<Database>, text: RawBuilder<unknown>, order: RawBuilder<unknown>) {
  const plain = db as unknown as Kysely<unknown>;
  return [
    jsonTextsArray(plain, text, order, isSqlite(plain)).as('json'),
    sql<number | string>`count(*)`.as('rows'),
  ] as const;
}
