// GET /legislation/suspicious-timing: trades shortly before a legislative action touching the
// company by a member with a part in it, a page of them, with the parameters that produced them.
import type { Kysely } from 'kysely';
import {
  ACTION_KINDS,
  type ActionKind,
  findTimingHits,
  type TimingHit,
} from '../analytics/suspicious-timing.js';
import { invalidField, quoted } from '../errors.js';
import type { AnalyticsTradeRange } from '../storage/repositories/analytics-clusters.js';
import type { Database } from '../storage/schema.js';
import { memberIdsOf } from './member-ids.js';
import { splitList } from './trade-params.js';

export const TIMING_DEFAULTS = { daysBefore: 30 } as const;

export interface TimingQuery {
  days_before?: number;
  action_kinds?: string;
  politician_id?: string;
  min_amount?: number;
  limit: number;
  offset: number;
}

function parseKinds(raw: string | undefined): ActionKind[] {
  if (raw === undefined) return [...ACTION_KINDS];
  return splitList('action_kinds', raw).map((kind) => {
    const value = kind.toLowerCase();
    const known = ACTION_KINDS.find((candidate) => candidate === value);
    if (!known)
      throw invalidField('action_kinds', `${quoted(kind)} is not one of ${ACTION_KINDS.join(', ')}`);
    return known;
  });
}

export async function suspiciousTiming(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  query: TimingQuery,
): Promise<{
  total: number;
  trade_count: number;
  hits: TimingHit[];
  params: {
    days_before: number;
    action_kinds: ActionKind[];
    politician_id: number[] | null;
    min_amount: number | null;
  };
}> {
  const kinds = parseKinds(query.action_kinds);
  const politicianIds =
    query.politician_id === undefined
      ? undefined
      : await memberIdsOf(db, 'politician_id', query.politician_id);
  const daysBefore = query.days_before ?? TIMING_DEFAULTS.daysBefore;
  const found = await findTimingHits(
    db,
    {
      ...range,
      ...(politicianIds ? { politicianIds } : {}),
      ...(query.min_amount === undefined ? {} : { minAmount: query.min_amount }),
    },
    { daysBefore, kinds },
    { limit: query.limit, offset: query.offset },
  );
  return {
    total: found.total,
    trade_count: found.trade_count,
    hits: found.hits,
    params: {
      days_before: daysBefore,
      action_kinds: kinds,
      politician_id: politicianIds ? [...politicianIds] : null,
      min_amount: query.min_amount ?? null,
    },
  };
}
