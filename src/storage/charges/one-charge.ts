// One charge taken on its own, through Kysely: in a transaction of the charge's statements, or on
// PostgreSQL as one statement. The path of a charge that cannot join a group or a batch (inside a
// transaction, or beside one that is open on SQLite's one connection).
import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-queries.js';
import { chainsWritesInOneStatement } from '../dialect.js';
import type { Database } from '../schema.js';
import {
  CHARGE_PARAMS,
  type ChargeOutcome,
  ChargeRefused,
  type ChargeStatementRow,
  type ChargeValues,
  chargeQueries,
  chargeStatement,
} from './statements.js';

export async function chargeAsynchronously(
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  try {
    if (chainsWritesInOneStatement(db as unknown as Kysely<unknown>))
      return await chargeInOneStatement(db, values, withUsage);
    return await db.transaction().execute(async (trx) => {
      const key = await chargeQueries.keySpend(trx, values).executeTakeFirst();
      if (!key) {
        const exists = await chargeQueries.keyState(trx, values).executeTakeFirst();
        throw new ChargeRefused(exists && exists.revoked_at === null ? 'daily_cap' : 'revoked');
      }
      const account = await chargeQueries.accountDebit(trx, values).executeTakeFirst();
      if (!account) throw new ChargeRefused('balance');
      if (values.cost > 0) await chargeQueries.ledgerRow(trx, values).execute();
      if (withUsage) await chargeQueries.usageRow(trx, values).execute();
      return {
        ok: true as const,
        allowance: account.allowance,
        credits: account.credits,
        spentToday: key.spent_today,
      };
    });
  } catch (error) {
    if (error instanceof ChargeRefused) return { ok: false, reason: error.reason };
    throw error;
  }
}

/**
 * PostgreSQL: the same four writes as one statement of data-modifying CTEs, sent alone
 * (autocommit): one round trip to the server instead of three (begin, the statement, commit)
 * or six. A single statement is atomic by itself: it commits whole or not at all. On PostgreSQL
 * every statement of a /trades call is a round trip that waits for a server process, and the
 * charge's were its largest cost (`npm run bench -- http-pg`, docs/architecture.md).
 *
 * The writes must all happen or none, without a rollback to undo them: `g` first locks the key
 * and account rows (FOR UPDATE; a concurrent charge waits, and then reads the rows as that one
 * left them) and decides the charge on them: key not revoked, within its daily cap, balance
 * covers the cost. Every write is gated on that decision (`exists (select 1 from g where ok)`);
 * the ledger and request-log rows are inserted from the debit's own returned row, so they exist
 * exactly when the debit does. The rows stay locked until the statement commits, so no other
 * charge moves them between the decision and the writes.
 */
async function chargeInOneStatement(
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  // Four shapes (a ledger row when the call costs anything, a request-log row with usage), each
  // compiled once and sent as a named prepared statement (compiled-queries.ts).
  const withLedger = values.cost > 0;
  const statement = compiledOnce<(typeof CHARGE_PARAMS)[number], ChargeStatementRow>(
    db,
    `accounts.charge.oneStatement:${withLedger}:${withUsage}`,
    (param) => {
      const v = Object.fromEntries(CHARGE_PARAMS.map((key) => [key, param(key)])) as unknown as ChargeValues;
      const query = chargeStatement(v, withLedger, withUsage);
      return { compile: () => query.compile(db) };
    },
  );
  const [row] = await statement.execute(values);
  if (!row || row.spent_today === null || row.allowance === null || row.credits === null) {
    if (!row || row.revoked === null || row.revoked) throw new ChargeRefused('revoked');
    throw new ChargeRefused(row.within_cap ? 'balance' : 'daily_cap');
  }
  return { ok: true, allowance: row.allowance, credits: row.credits, spentToday: row.spent_today };
}
