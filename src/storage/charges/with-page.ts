// PostgreSQL: a call's charge taken in the statement that reads its page, priced by the page's own
// row counts: one round trip for a metered page instead of two (the page, then its charge).
import { type Kysely, type OperationNodeSource, sql } from 'kysely';
import { isSqlite } from '../dialect.js';
import type { Database } from '../schema.js';
import { type ChargeBatchRow, chargeBatchOutcome } from './postgres-batches.js';
import { CHARGE_PARAMS, type ChargeOutcome, type ChargeValues } from './statements.js';

/**
 * The charge of a call whose price depends on the rows of its page: who pays (as chargeCall), and
 * the price as its terms (accounts/price-table.ts `costOf`: base + rows × perRow + executive rows
 * × perExecutiveRow), for the database to apply to the page it builds. The values may be
 * placeholders of a statement compiled once (compiled-queries.ts).
 */
export interface PageChargeValues extends Omit<ChargeValues, 'cost' | 'amount'> {
  base: number;
  perRow: number;
  perExecutiveRow: number;
}

/** A page charge's values by name: a call's (CHARGE_PARAMS) less its cost, with the price's terms. */
export const PAGE_CHARGE_PARAMS: readonly (keyof PageChargeValues)[] = [
  ...CHARGE_PARAMS.filter((name) => name !== 'cost' && name !== 'amount'),
  'base',
  'perRow',
  'perExecutiveRow',
];

/** A page's charge, taken with it: what it cost, and the charge's outcome. */
export interface PageCharged {
  cost: number;
  outcome: ChargeOutcome;
}

/** What the page statement answers besides its own columns when it takes the charge. */
export interface PageChargeColumns extends ChargeBatchRow {
  cost: number;
}

/** Whether the page statement can take the charge itself: PostgreSQL (`charge_page`). */
export function chargesWithPage(db: Kysely<Database>): boolean {
  return !isSqlite(db as unknown as Kysely<unknown>);
}

/**
 * The page query `page` (one row, with `rows`, every row of the page, and `executive_rows`) with
 * the call's charge taken in the same statement by `charge_page` (migration 0099-pg-charge-page),
 * which decides it as every charge is decided: on the key and account rows locked until the
 * statement commits, refused (nothing written) when the key is revoked, past its daily cap or the
 * balance cannot cover the cost. The charge is a lateral call on the page's row, so it runs after
 * the page is built and holds the rows' locks only from then until the commit; a page that fails,
 * or a charge that fails (a request id charged before), fails the statement, and nothing is
 * charged. A refused charge still answers the page, which the caller does not send.
 */
export function chargedPageQuery(page: OperationNodeSource, v: PageChargeValues) {
  const integer = (value: unknown) => sql`cast(${value} as integer)`;
  const text = (value: unknown) => sql`cast(${value} as text)`;
  return sql<Record<string, unknown> & PageChargeColumns>`select p.*, k.cost, c.spent_today, c.allowance,
      c.credits, c.refused, c.error_state, c.error_message
    from (${page}) as p
    cross join lateral (select ${integer(v.base)} + (p.rows - p.executive_rows) * ${integer(v.perRow)}
      + p.executive_rows * ${integer(v.perExecutiveRow)} as cost) as k
    cross join lateral charge_page(${integer(v.accountId)}, ${integer(v.keyId)}, cast(k.cost as integer),
      ${text(v.requestId)}, ${text(v.route)}, ${text(v.day)}, ${text(v.now)}, ${text(v.method)},
      ${integer(v.status)}) as c`;
}

/** The charge a page statement took; a charge that failed (not refused) throws, as chargeCall's does. */
export function pageChargedOf(row: PageChargeColumns): PageCharged {
  const settled = chargeBatchOutcome(row);
  if ('failed' in settled) throw settled.failed;
  return { cost: Number(row.cost), outcome: settled.charged };
}
