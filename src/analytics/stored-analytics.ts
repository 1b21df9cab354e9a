// The stored results of the two range analytics (docs/analytics.md, "Stored results"): every
// suspicious-timing hit of the whole history at the widest `days_before` and both action kinds,
// and the trades in some cluster of the whole history at the default cluster parameters. A request
// whose parameters these cover selects its range from them instead of running the rule over the
// range; the rebuild runs the same rule (matchTiming, clusteredTradeIds) over every trade.
import type { Kysely } from 'kysely';
import { findRangeTradeKeys, findTimingTradeKeys } from '../storage/repositories/analytics-clusters.js';
import {
  inRebuildTransaction,
  pendingAnalyticsChanges,
  replaceStoredAnalytics,
  storedAnalyticsCurrent,
  tradeFilterKeys,
} from '../storage/repositories/stored-analytics.js';
import type { TimingHitsTable } from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { clusteredTradeIds, STORED_CLUSTER_PARAMS } from './clusters.js';
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
  rebuilt: boolean;
  timing_hits: number;
  cluster_trades: number;
}

/**
 * Recomputes both stored results when an input changed since they were computed (or always, with
 * `force`), in one transaction: requests see the old results or the new ones, never a mix.
 */
export async function refreshStoredAnalytics(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<StoredAnalyticsReport> {
  const current = await storedAnalyticsCurrent(db);
  if (!options.force && current.timing && current.clusters)
    return { rebuilt: false, timing_hits: 0, cluster_trades: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx);
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
