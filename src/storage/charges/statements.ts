// The charge's SQL, written once: the statements a charge runs (each a Kysely builder, so the
// SQLite hot path can compile them once and the async path run them with real values), the same
// charge as one PostgreSQL statement, and what a charge answers. The ways charges are taken are
// beside this file: one at a time (one-charge.ts), grouped on SQLite (sqlite-groups.ts), batched on
// PostgreSQL (postgres-batches.ts); charge.ts picks one.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

export type ChargeOutcome =
  | { ok: true; allowance: number; credits: number; spentToday: number }
  | { ok: false; reason: 'daily_cap' | 'balance' | 'revoked' };

export class ChargeRefused extends Error {
  constructor(readonly reason: 'daily_cap' | 'balance' | 'revoked') {
    super(reason);
  }
}

export interface ChargeValues {
  accountId: number;
  keyId: number;
  cost: number;
  /** The ledger row's amount: -cost. */
  amount: number;
  requestId: string;
  route: string;
  day: string;
  now: string;
  method: string;
  status: number;
}

// The charge's statements, one builder each: the async path runs them in a Kysely transaction,
// the SQLite hot path compiles them once (placeholder values) and runs them synchronously.
export const chargeQueries = {
  keySpend: (db: Kysely<Database>, v: ChargeValues) => {
    const spentBefore = sql<number>`case when spent_day = ${v.day} then spent_today else 0 end`;
    return db
      .updateTable('api_keys')
      .set({
        spent_today: sql<number>`case when spent_day = ${v.day} then spent_today + ${v.cost} else ${v.cost} end`,
        spent_day: v.day,
        last_used_at: v.now,
      })
      .where('id', '=', v.keyId)
      .where('revoked_at', 'is', null)
      .where(sql<boolean>`${spentBefore} + ${v.cost} <= daily_cap`)
      .returning(['spent_today']);
  },
  keyState: (db: Kysely<Database>, v: ChargeValues) =>
    db.selectFrom('api_keys').select('revoked_at').where('id', '=', v.keyId),
  accountDebit: (db: Kysely<Database>, v: ChargeValues) =>
    db
      .updateTable('accounts')
      .set({
        allowance: sql<number>`case when allowance >= ${v.cost} then allowance - ${v.cost} else 0 end`,
        credits: sql<number>`case when allowance >= ${v.cost} then credits else credits - (${v.cost} - allowance) end`,
        updated_at: v.now,
      })
      .where('id', '=', v.accountId)
      .where(sql<boolean>`allowance + credits >= ${v.cost}`)
      .returning(['allowance', 'credits']),
  ledgerRow: (db: Kysely<Database>, v: ChargeValues) =>
    db.insertInto('credit_ledger').values({
      account_id: v.accountId,
      key_id: v.keyId,
      kind: 'charge',
      amount: v.amount,
      request_id: v.requestId,
      route: v.route,
      note: null,
      created_at: v.now,
    }),
  usageRow: (db: Kysely<Database>, v: ChargeValues) =>
    db.insertInto('request_log').values({
      account_id: v.accountId,
      key_id: v.keyId,
      request_id: v.requestId,
      method: v.method,
      route: v.route,
      status: v.status,
      charge: v.cost,
      created_at: v.now,
    }),
};

export type ChargeStep = keyof typeof chargeQueries;
export const CHARGE_PARAMS = [
  'accountId',
  'keyId',
  'cost',
  'amount',
  'requestId',
  'route',
  'day',
  'now',
  'method',
  'status',
] as const;

export interface ChargeStatementRow {
  spent_today: number | null;
  allowance: number | null;
  credits: number | null;
  revoked: boolean | null;
  within_cap: boolean | null;
}

/** The charge as one statement of data-modifying CTEs (see chargeInOneStatement). */
export function chargeStatement(v: ChargeValues, withLedger: boolean, withUsage: boolean) {
  const spentBefore = sql`case when k.spent_day = ${v.day} then k.spent_today else 0 end`;
  const decided = sql`exists (select 1 from g where g.ok)`;
  const ledger = withLedger
    ? sql`, l as (insert into credit_ledger (account_id, key_id, kind, amount, request_id, route, note, created_at)
          select ${v.accountId}, ${v.keyId}, 'charge', ${v.amount}, ${v.requestId}, ${v.route}, null, ${v.now} from a)`
    : sql``;
  const usage = withUsage
    ? sql`, u as (insert into request_log (account_id, key_id, request_id, method, route, status, charge, created_at)
          select ${v.accountId}, ${v.keyId}, ${v.requestId}, ${v.method}, ${v.route}, ${v.status}, ${v.cost}, ${v.now} from a)`
    : sql``;
  return sql<ChargeStatementRow>`with g as (
      select k.revoked_at is not null as revoked, ${spentBefore} + ${v.cost} <= k.daily_cap as within_cap,
        k.revoked_at is null and ${spentBefore} + ${v.cost} <= k.daily_cap
          and a.allowance + a.credits >= ${v.cost} as ok
      from api_keys k join accounts a on a.id = k.account_id
      where k.id = ${v.keyId} and a.id = ${v.accountId}
      for update of k, a),
    k as (update api_keys set
        spent_today = case when spent_day = ${v.day} then spent_today + ${v.cost} else ${v.cost} end,
        spent_day = ${v.day}, last_used_at = ${v.now}
      where id = ${v.keyId} and ${decided} returning spent_today),
    a as (update accounts set
        allowance = case when allowance >= ${v.cost} then allowance - ${v.cost} else 0 end,
        credits = case when allowance >= ${v.cost} then credits else credits - (${v.cost} - allowance) end,
        updated_at = ${v.now}
      where id = ${v.accountId} and ${decided} returning allowance, credits)
    ${ledger} ${usage}
    select (select spent_today from k) as spent_today, (select allowance from a) as allowance,
      (select credits from a) as credits, (select revoked from g) as revoked,
      (select within_cap from g) as within_cap`;
}

export type ChargeSettled = { charged: ChargeOutcome } | { failed: unknown };

export interface WaitingCharge {
  values: ChargeValues;
  withUsage: boolean;
  settle: (outcome: ChargeSettled) => void;
}

/**
 * Where a store's charges wait to be taken together: one per store, carried by its Kysely instance
 * (store-database.ts); grouped on SQLite (sqlite-groups.ts), batched on PostgreSQL
 * (postgres-batches.ts).
 */
export interface ChargeQueue {
  /** Takes the charge with the others asked for meanwhile; settles once they are committed. */
  take(values: ChargeValues, withUsage: boolean): Promise<ChargeOutcome>;
}
