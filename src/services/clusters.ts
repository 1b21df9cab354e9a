// GET /clusters/recent: trading clusters of a historical range, a page of them, with the
// parameters that produced them.
import type { Kysely } from 'kysely';
import { type Cluster, findClusterPage } from '../analytics/clusters.js';
import type { AnalyticsTradeRange } from '../storage/repositories/analytics-clusters.js';
import type { Database } from '../storage/schema.js';

export const CLUSTER_DEFAULTS = { minMembers: 3, windowDays: 7 } as const;

export interface ClusterQuery {
  min_members?: number;
  window_days?: number;
  limit: number;
  offset: number;
}

export async function recentClusters(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  query: ClusterQuery,
): Promise<{ total: number; clusters: Cluster[]; params: { min_members: number; window_days: number } }> {
  const params = {
    minMembers: query.min_members ?? CLUSTER_DEFAULTS.minMembers,
    windowDays: query.window_days ?? CLUSTER_DEFAULTS.windowDays,
  };
  const { total, clusters } = await findClusterPage(db, range, params, {
    limit: query.limit,
    offset: query.offset,
  });
  return {
    total,
    clusters,
    params: { min_members: params.minMembers, window_days: params.windowDays },
  };
}
