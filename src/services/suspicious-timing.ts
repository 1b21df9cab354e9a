// GET /legislation/suspicious-timing: trades shortly before a legislative action touching the
// company by a member with a part in it, a page of them, with the parameters that produced them.
import type { Kysely } from 'kysely';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import {
  ACTION_KINDS,
  type ActionKind,
  findTimingHits,
  type TimingPage,
  type TimingPageJson,
} from '../analytics/suspicious-timing.js';
import { invalidField, quoted } from '../errors.js';
import { TimingHitSchema } from '../resources/suspicious-timing.js';
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

/**
 * The page of hits a query asks for, with its counts and the parameters that produced it. With
 * `asJson` (whether the caller's plan-gated fields are hidden) the hits come as the JSON text the
 * database writes while the stored hits are current, and as objects otherwise.
 */
export async function suspiciousTiming(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  query: TimingQuery,
  asJson?: { hideGated: boolean },
): Promise<
  (TimingPage | TimingPageJson) & {
    params: {
      days_before: number;
      action_kinds: ActionKind[];
      politician_id: number[] | null;
      min_amount: number | null;
    };
  }
> {
  const kinds = parseKinds(query.action_kinds);
  const politicianIds =
    query.politician_id === undefined
      ? undefined
      : await memberIdsOf(db, 'politician_id', query.politician_id);
  const daysBefore = query.days_before ?? TIMING_DEFAULTS.daysBefore;
  const params = {
    days_before: daysBefore,
    action_kinds: kinds,
    politician_id: politicianIds ? [...politicianIds] : null,
    min_amount: query.min_amount ?? null,
  };
  const filter = {
    ...range,
    ...(politicianIds ? { politicianIds } : {}),
    ...(query.min_amount === undefined ? {} : { minAmount: query.min_amount }),
  };
  const page = { limit: query.limit, offset: query.offset };
  const shape = asJson && { tradeFields: TRADE_FIELDS, nulled: asJson.hideGated ? GATED_FIELDS : NONE };
  return { ...(await findTimingHits(db, filter, { daysBefore, kinds }, page, shape)), params };
}

const GATED_FIELDS: ReadonlySet<string> = new Set(PLAN_GATED_FIELDS);
const TRADE_FIELDS = Object.keys(TimingHitSchema.properties.trade.properties);
const NONE: ReadonlySet<string> = new Set();
