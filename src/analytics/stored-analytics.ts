// The stored results (docs/analytics.md, "Stored results"). Of the two range analytics: every
// suspicious-timing hit of the whole history at the widest `days_before` and both action kinds,
// and the trades in some cluster of the whole history at the default cluster parameters. A request
// whose parameters these cover selects its range from them instead of running the rule over the
// range; the rebuild runs the same rule (matchTiming, clusteredTradeIds) over every trade. And the
// rankings of the most-traded tickers over the windows a request most often asks for.
import type { Kysely } from 'kysely';
import { todayUtc } from '../domain/dates.js';
import { findRangeTradeKeys, findTimingTradeKeys } from '../storage/repositories/analytics-clusters.js';
import { groupTopTickers } from '../storage/repositories/stats.js';
import {
  allClusterTrades,
  type ClusterTradeRow,
  inRebuildTransaction,
  pendingAnalyticsChanges,
  replaceClusterAnswers,
  replaceStoredAnalytics,
  STORED_SCOPES,
  storedAnalyticsCurrent,
  storedResultCurrent,
  type TradeFilterKey,
  tradeFilterKeys,
} from '../storage/repositories/stored-analytics.js';
import { replaceStoredOverlap } from '../storage/repositories/stored-overlap.js';
import {
  clearStoredTopTickers,
  markStoredTopTickers,
  STORED_TOP_WINDOWS,
  storedTopTickerDays,
  storedTopTickersDay,
  storeTopTickerCells,
  storeTopTickerRanks,
  windowStart,
} from '../storage/repositories/stored-top-tickers.js';
import type {
  ClusterAnswersTable,
  OverlapHitsTable,
  OverlapRecordsTable,
  TimingHitsTable,
} from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { clustersOfTrades, keyClusters, STORED_CLUSTER_PARAMS } from './clusters.js';
import { MAX_WINDOW_DAYS, nearestLinkDays, withUrls } from './overlap.js';
import { matchOverlap } from './overlap-match.js';
import { type DossierRefresh, refreshStoredDossiers } from './stored-dossiers.js';
import {
  ACTION_KINDS,
  matchTiming,
  readTimingInput,
  STORED_DAYS_BEFORE,
  type TimingParams,
} from './suspicious-timing.js';
import { timedParts } from './timed-parts.js';

/** The whole history: every transaction date a trade can carry. */
export const WHOLE_HISTORY = { from: '1900-01-01', to: '2999-12-31' } as const;

export interface StoredAnalyticsReport {
  /** Whether the timing hits and clustered trades were rebuilt. */
  rebuilt: boolean;
  timing_hits: number;
  cluster_trades: number;
  /** Whether the stored clusters' answer text was rebuilt (with the clustered trades, or alone), and how many clusters it holds. */
  cluster_answers: { rebuilt: boolean; clusters: number };
  /** Whether the most-traded tickers' rankings were rebuilt, and how many ranked rows they hold. */
  top_tickers: { rebuilt: boolean; ranked: number };
  /** Whether the overlap hits at the widest window were rebuilt, and how many trades they hold. */
  overlap: { rebuilt: boolean; hits: number };
  /** Whether the company dossiers were rebuilt, all or the changed tickers', and how many. */
  dossiers: DossierRefresh;
  /** Wall seconds of each part: range (timing hits and clusters), cluster_answers, top_tickers, overlap, dossiers. */
  seconds: Record<string, number>;
}

/**
 * Brings every stored result up to date: the range analytics', the overlap hits and the company
 * dossiers when an input changed since they were computed, the most-traded tickers' rankings when
 * a trade changed or the day did (or all, with `force`).
 */
export async function refreshStoredAnalytics(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<StoredAnalyticsReport> {
  const { seconds, timed } = timedParts();
  const range = await timed('range', () => refreshRangeAnalytics(db, options));
  const clusterAnswers = range.rebuilt
    ? { rebuilt: true, clusters: range.clusters }
    : await timed('cluster_answers', () => refreshStoredClusterAnswers(db, options));
  const topTickers = await timed('top_tickers', () => refreshStoredTopTickers(db, options));
  const overlap = await timed('overlap', () => refreshStoredOverlap(db, options));
  const dossiers = await timed('dossiers', () => refreshStoredDossiers(db, options));
  return {
    rebuilt: range.rebuilt,
    timing_hits: range.timing_hits,
    cluster_trades: range.cluster_trades,
    cluster_answers: clusterAnswers,
    top_tickers: topTickers,
    overlap,
    dossiers,
    seconds,
  };
}

/**
 * Recomputes both stored range results, and the clusters' answer text with them, when an input of
 * the range results changed since they were computed (or always, with `force`), in one
 * transaction: requests see the old results or the new ones, never a mix.
 */
export async function refreshRangeAnalytics(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ rebuilt: boolean; timing_hits: number; cluster_trades: number; clusters: number }> {
  const current = await storedAnalyticsCurrent(db);
  if (!options.force && current.timing && current.clusters)
    return { rebuilt: false, timing_hits: 0, cluster_trades: 0, clusters: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['timing', 'clusters', 'cluster_answers'], async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx, [
      ...STORED_SCOPES.timing,
      ...STORED_SCOPES.cluster_answers,
    ]);
    const filterKeys = new Map((await tradeFilterKeys(trx, WHOLE_HISTORY)).map((key) => [key.id, key]));
    const params: TimingParams = { daysBefore: STORED_DAYS_BEFORE, kinds: ACTION_KINDS };
    const timingKeys = await findTimingTradeKeys(trx, WHOLE_HISTORY);
    const matches =
      timingKeys.length === 0
        ? []
        : matchTiming(await readTimingInput(trx, timingKeys, WHOLE_HISTORY, params), params);
    const hits: TimingHitsTable[] = [];
    for (const [rank, match] of matches.entries()) {
      const key = filterKeys.get(match.trade.id);
      if (!key) continue;
      hits.push({
        rank,
        trade_id: key.id,
        transaction_date: key.transaction_date,
        ticker: key.ticker,
        source: key.source,
        trade_action: key.trade_action,
        politician_id: key.politician_id,
        amount_low: key.amount_low,
        action_kind: match.action.kind,
        days_between: match.days_between,
        evidence: JSON.stringify({
          action: match.action,
          member_roles: match.member_roles,
          bill_match: match.bill_match,
        }),
      });
    }
    const clusters = await storedClusters(trx, await findRangeTradeKeys(trx, WHOLE_HISTORY), filterKeys);
    await replaceStoredAnalytics(trx, {
      hits,
      actionKinds: ACTION_KINDS,
      clusterTrades: clusters.trades,
      clusterAnswers: clusters.answers,
      computedAt,
      seenChanges,
    });
    return {
      rebuilt: true,
      timing_hits: hits.length,
      cluster_trades: clusters.trades.length,
      clusters: clusters.answers.length,
    };
  });
}

/**
 * Rebuilds the stored clusters' answer text alone when only an input of the text changed (a
 * member's name, a seat, a trade's bracket text: what the clusters show but the rule does not
 * read), from the clustered trades as stored; or always, with `force`. Nothing is done while the
 * clustered trades themselves are stale: their rebuild (refreshRangeAnalytics) writes the text too.
 */
export async function refreshStoredClusterAnswers(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ rebuilt: boolean; clusters: number }> {
  if (!options.force && (await storedResultCurrent(db, 'cluster_answers')))
    return { rebuilt: false, clusters: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['cluster_answers'], async (trx) => {
    if (!(await storedResultCurrent(trx, 'clusters'))) return { rebuilt: false, clusters: 0 };
    const seenChanges = await pendingAnalyticsChanges(trx, STORED_SCOPES.cluster_answers);
    const keys = await allClusterTrades(trx);
    const { answers } = await storedClusters(trx, keys, new Map(keys.map((key) => [key.id, key])));
    await replaceClusterAnswers(trx, answers, computedAt, seenChanges);
    return { rebuilt: true, clusters: answers.length };
  });
}

/**
 * The clusters of the whole history at the stored parameters, found on these keys: every trade in
 * one with its cluster's rank (its place in the answer order), and every cluster's row with its
 * answer text. The text is built by the code a request runs (clustersOfTrades) and kept as the
 * cluster's `JSON.stringify`, whose fields are built in the order the response schema lists them:
 * byte for byte what the route's serializer writes.
 */
async function storedClusters(
  trx: Kysely<Database>,
  keys: Parameters<typeof keyClusters>[0],
  filterKeys: ReadonlyMap<number, TradeFilterKey>,
): Promise<{ trades: ClusterTradeRow[]; answers: ClusterAnswersTable[] }> {
  const found = keyClusters(keys, STORED_CLUSTER_PARAMS);
  const built = await clustersOfTrades(
    trx,
    WHOLE_HISTORY,
    found.flatMap((cluster) => cluster.ids),
    STORED_CLUSTER_PARAMS,
  );
  const trades: ClusterTradeRow[] = [];
  const answers: ClusterAnswersTable[] = [];
  for (const [rank, cluster] of found.entries()) {
    const answer = built[rank];
    if (
      answer?.ticker !== cluster.ticker ||
      answer.direction !== cluster.direction ||
      answer.window.to !== cluster.to ||
      answer.trade_count !== cluster.ids.length
    )
      throw new Error('the built clusters do not follow the clusters found on the keys');
    const sources = new Set<string>();
    for (const id of cluster.ids) {
      const key = filterKeys.get(id);
      if (!key) throw new Error(`clustered trade ${id} without its filter columns`);
      trades.push({ ...key, cluster_rank: rank });
      sources.add(key.source);
    }
    answers.push({
      rank,
      ticker: cluster.ticker,
      direction: cluster.direction,
      window_from: answer.window.from,
      window_to: answer.window.to,
      member_count: answer.member_count,
      trade_count: answer.trade_count,
      sources: [...sources].sort().join(','),
      json: JSON.stringify(answer),
    });
  }
  return { trades, answers };
}

/**
 * Recomputes the most-traded tickers' rankings of every stored window, as of today and tomorrow,
 * when a trade they read changed or they were computed on another day (or always, with `force`).
 * One transaction, as above. Each ranking is the grouping a request computes (groupTopTickers)
 * over every ticker of the window.
 */
export async function refreshStoredTopTickers(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ rebuilt: boolean; ranked: number }> {
  const now = options.now ?? new Date();
  const today = todayUtc(now);
  if (!options.force && (await storedTopTickersDay(db)) === today) return { rebuilt: false, ranked: 0 };
  return inRebuildTransaction(db, ['tickers'], async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx, STORED_SCOPES.tickers);
    await clearStoredTopTickers(trx);
    let ranked = 0;
    for (const asOf of storedTopTickerDays(today)) {
      for (const days of STORED_TOP_WINDOWS) {
        const window = { asOf, days };
        const ranking = await groupTopTickers(trx, { disclosedFrom: windowStart(window) });
        await storeTopTickerRanks(trx, window, ranking);
        await storeTopTickerCells(trx, window);
        ranked += ranking.length;
      }
    }
    await markStoredTopTickers(trx, now.toISOString(), ranked, seenChanges);
    return { rebuilt: true, ranked };
  });
}

/**
 * Recomputes the overlap hits of the whole history at the widest window when an input of the links
 * changed since they were computed (or always, with `force`). One transaction, as above; the same
 * matching a request runs (matchOverlap), over every trade.
 */
export async function refreshStoredOverlap(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ rebuilt: boolean; hits: number }> {
  if (!options.force && (await storedResultCurrent(db, 'overlap'))) return { rebuilt: false, hits: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['overlap'], async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx, STORED_SCOPES.overlap);
    const matches = await matchOverlap(trx, WHOLE_HISTORY, MAX_WINDOW_DAYS);
    const tickers = [...new Set(matches.map((match) => match.trade.ticker))];
    const keys = new Map(
      tickers.length === 0
        ? []
        : (await tradeFilterKeys(trx, { ...WHOLE_HISTORY, tickers })).map((key) => [key.id, key]),
    );
    const hits: OverlapHitsTable[] = [];
    const records: OverlapRecordsTable[] = [];
    for (const { trade, links } of matches) {
      const key = keys.get(trade.id);
      if (!key) continue;
      const { id, ...columns } = key;
      const nearest = nearestLinkDays(links);
      // As the answer writes them: the JSON path sends or joins their texts.
      const served = withUrls(links);
      const lists = [
        ['lobbying', served.lobbying],
        ['contract', served.contracts],
        ['campaign', served.campaign],
      ] as const;
      const hitRecords: OverlapRecordsTable[] = lists.flatMap(([kind, list]) =>
        list.map((record, position) => ({
          trade_id: id,
          kind,
          position,
          days: Math.abs(record.days_from_trade),
          record: JSON.stringify(record),
        })),
      );
      records.push(...hitRecords);
      hits.push({
        trade_id: id,
        ...columns,
        lobbying_days: nearest.lobbying,
        contract_days: nearest.contract,
        campaign_days: nearest.campaign,
        evidence: JSON.stringify(links),
        served_links: JSON.stringify(served).slice(1, -1),
        farthest_days: Math.max(0, ...hitRecords.map((record) => record.days)),
        seats: JSON.stringify(served.committees_at_trade),
      });
    }
    await replaceStoredOverlap(trx, { hits, records }, computedAt, seenChanges);
    return { rebuilt: true, hits: hits.length };
  });
}
