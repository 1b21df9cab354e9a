// Plan gating of the ways a query can read a gated value without printing it: ordering by it or
// filtering on it. Nulling the field in the answer is not enough when `sort_by=alpha_30d` still
// returns the rows in alpha order, so such queries need the plan that sees the field.

import type { Plan } from '../domain/plans.js';
import { ApiError } from '../errors.js';
import { PLAN_GATED_FIELDS } from './plans.js';

const GATED = new Set(PLAN_GATED_FIELDS);

/** Query parameters whose value names the field the answer is ordered by. */
const ORDER_PARAMETERS = new Set(['sort_by', 'order_by', 'sort']);

/** Plans that see the gated fields (every plan but `none`). */
export function seesGatedFields(plan: Plan): boolean {
  return plan !== 'none';
}

/**
 * The gated field a query orders or filters by, or undefined. A filter is a parameter named after
 * the field, bare or with a `min_`/`max_` prefix (no route has one today; a new one is caught).
 */
export function gatedFieldOfQuery(query: unknown): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  for (const [name, value] of Object.entries(query)) {
    if (ORDER_PARAMETERS.has(name) && typeof value === 'string') {
      const ordered = value
        .split(',')
        .map((part) => part.trim().replace(/^[-+]/, ''))
        .find((part) => GATED.has(part));
      if (ordered) return ordered;
    }
    const filtered = name.replace(/^(min|max)_/, '');
    if (GATED.has(filtered)) return filtered;
  }
  return undefined;
}

/** The 403 for a query that orders or filters by a gated field; `field` names it. */
export function gatedFieldRefused(field: string, plan: Plan): ApiError {
  return new ApiError(
    'forbidden',
    `Sorting or filtering by ${field} requires the core plan or higher (the field is plan-gated); this account is on ${plan}`,
    { field, required_plan: 'core', plan },
  );
}
