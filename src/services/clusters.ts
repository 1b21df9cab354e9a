// GET /clusters/recent: trading clusters of a historical range, a page of them, with the
// parameters that produced them; read as the stored clusters' text while `enrich`'s stored
// clusters are current and cover the page, else built now.
import type { Kysely } from 'kysely';
import { type Cluster, findClusterPage, storedClusterPage } from '../analytics/clusters.js';
import type { AnalyticsTradeRange } from '../storage/repositories/analytics-clusters.js';
import type { Database } from '../storage/schema.js';

export const CLUSTER_DEFAULTS = { minMembers: 3, windowDays: 7 } as const;

export interface ClusterQuery {
  min_members?: number;
  window_days?: number;
  limit: number;
  offset: number;
}

function clusterParams(query: ClusterQuery) {
  return {
    minMembers: query.min_members ?? CLUSTER_DEFAULTS.minMembers,
    windowDays: query.window_days ?? CLUSTER_DEFAULTS.windowDays,
  };
}

export async function recentClusters(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  query: ClusterQuery,
): Promise<{ total: number; clusters: Cluster[]; params: { min_members: number; window_days: number } }> {
  const params = clusterParams(query);
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

/**
 * The page's clusters as the JSON text of their array, joined from the text of each cluster `enrich`
 * stored (on SQLite its UTF-8 bytes), when the stored clusters are current
 * and every cluster of the page is a stored one whole; undefined otherwise (then build it:
 * recentClusters). No cluster field is plan-gated, so the stored text is every caller's.
 */
export async function storedRecentClusters(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  query: ClusterQuery,
): Promise<
  | {
      total: number;
      json: string | Buffer;
      rows: number;
      params: { min_members: number; window_days: number };
    }
  | undefined
> {
  const params = clusterParams(query);
  const page = await storedClusterPage(db, range, params, { limit: query.limit, offset: query.offset });
  if (!page) return undefined;
  return { ...page, params: { min_members: params.minMembers, window_days: params.windowDays } };
}
