// The charge of one metered call: the one entry point of the charge engine (storage/charges/).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { SqliteStoreDatabase } from '../sqlite-hot-path.js';
import { StoreDatabase } from '../store-database.js';
import { chargeAsynchronously } from './one-charge.js';
import { PostgresChargeBatches } from './postgres-batches.js';
import { SqliteChargeGroups } from './sqlite-groups.js';
import type { ChargeOutcome, ChargeQueue, ChargeValues } from './statements.js';

/**
 * Takes `cost` credits for one call in one transaction: the key's daily spend (refused past its
 * cap), the account's balance (allowance first, then credits; refused when it cannot cover the
 * cost, so it can never go negative) and a ledger row keyed by the request id. With `usage`,
 * the call's request-log row is written in the same transaction, so a crash cannot keep the
 * charge and lose the row that explains it.
 */
export async function chargeCall(
  db: Kysely<Database>,
  call: { accountId: number; keyId: number; cost: number; requestId: string; route: string; day: string },
  now: string,
  usage?: { method: string; status: number },
): Promise<ChargeOutcome> {
  // Object.assign, not a literal that starts with a spread: V8 builds such a literal slowly when
  // properties follow it (microseconds on every metered call; BENCHMARKS.md).
  const values: ChargeValues = Object.assign({}, call, {
    amount: -call.cost,
    now,
    method: usage?.method ?? '',
    status: usage?.status ?? 0,
  });
  const withUsage = usage !== undefined;
  // A store's own Kysely instance takes it in that store's queue; any other (a transaction) takes
  // it alone.
  if (db instanceof StoreDatabase) return chargeQueueOf(db).take(values, withUsage);
  return chargeAsynchronously(db, values, withUsage);
}

/** The store's charge queue, made by its first charge. */
function chargeQueueOf(db: StoreDatabase): ChargeQueue {
  db.charges ??= db.sqlite
    ? new SqliteChargeGroups(db as SqliteStoreDatabase)
    : new PostgresChargeBatches(db);
  return db.charges;
}
