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
  inRebuildTransaction,
  pendingAnalyticsChanges,
  replaceStoredAnalytics,
  STORED_SCOPES,
  storedAnalyticsCurrent,
  storedResultCurrent,
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
import type { OverlapHitsTable, TimingHitsTable } from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { clusteredTradeIds, STORED_CLUSTER_PARAMS } from './clusters.js';
import { MAX_WINDOW_DAYS, nearestLinkDays } from './overlap.js';
import { matchOverlap } from './overlap-match.js';
import { type DossierRefresh, refreshStoredDossiers } from './stored-dossiers.js';
import {
  ACTION_KINDS,
  matchTiming,
  readTimingInput,
  STORED_DAYS_BEFORE,
  type TimingParams,
} from './suspicious-timing.js';

/** The whole history: every transaction date a trade can carry. */
export const WHOLE_HISTORY = { from: '1900-01-01', to: '2999-12-31' } as const;

export interface StoredAnalyticsReport {
  /** Whether the timing hits and clustered trades were rebuilt. */
  rebuilt: boolean;
  timing_hits: number;
  cluster_trades: number;
  /** Whether the most-traded tickers' rankings were rebuilt, and how many ranked rows they hold. */
  top_tickers: { rebuilt: boolean; ranked: number };
  /** Whether the overlap hits at the widest window were rebuilt, and how many trades they hold. */
  overlap: { rebuilt: boolean; hits: number };
  /** Whether the company dossiers were rebuilt, all or the changed tickers', and how many. */
  dossiers: DossierRefresh;
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
  const range = await refreshRangeAnalytics(db, options);
  const topTickers = await refreshStoredTopTickers(db, options);
  const overlap = await refreshStoredOverlap(db, options);
  const dossiers = await refreshStoredDossiers(db, options);
  return { ...range, top_tickers: topTickers, overlap, dossiers };
}

/**
 * Recomputes both stored range results when an input changed since they were computed (or always,
 * with `force`), in one transaction: requests see the old results or the new ones, never a mix.
 */
export async function refreshRangeAnalytics(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<Omit<StoredAnalyticsReport, 'top_tickers' | 'overlap' | 'dossiers'>> {
  const current = await storedAnalyticsCurrent(db);
  if (!options.force && current.timing && current.clusters)
    return { rebuilt: false, timing_hits: 0, cluster_trades: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['timing', 'clusters'], async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx, [
      ...STORED_SCOPES.timing,
      ...STORED_SCOPES.clusters,
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
    const clustered = clusteredTradeIds(await findRangeTradeKeys(trx, WHOLE_HISTORY), STORED_CLUSTER_PARAMS);
    const clusterTrades = clustered.flatMap((id) => {
      const key = filterKeys.get(id);
      return key ? [key] : [];
    });
    await replaceStoredAnalytics(trx, { hits, clusterTrades, computedAt, seenChanges });
    return { rebuilt: true, timing_hits: hits.length, cluster_trades: clusterTrades.length };
  });
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
    const hits: OverlapHitsTable[] = matches.flatMap(({ trade, links }) => {
      const key = keys.get(trade.id);
      if (!key) return [];
      const { id, ...columns } = key;
      const nearest = nearestLinkDays(links);
      return [
        {
          trade_id: id,
          ...columns,
          lobbying_days: nearest.lobbying,
          contract_days: nearest.contract,
          campaign_days: nearest.campaign,
          evidence: JSON.stringify(links),
        },
      ];
    });
    await replaceStoredOverlap(trx, hits, computedAt, seenChanges);
    return { rebuilt: true, hits: hits.length };
  });
}
