// The Kysely instance a Store opens, carrying the state the Store keeps for its connection.
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, type KyselyConfig } from 'kysely';
import { PostgresChargeBatches } from './charges/postgres-batches.js';
import { SqliteChargeGroups } from './charges/sqlite-groups.js';
import type { ChargeQueue } from './charges/statements.js';
import type { Database } from './schema.js';

/**
 * The Kysely instance of a Store (openStore). Code is handed the Kysely instance, not the Store,
 * so what the Store keeps for its connection rides on it, is found from it, and ends with it: the
 * queue its charges wait in, grouped on SQLite (one connection), batched on PostgreSQL (a pool).
 * A transaction, or any instance Kysely derives from this one, is a plain Kysely without that
 * state: a charge there is taken alone (storage/charges/charge.ts).
 */
export class StoreDatabase extends Kysely<Database> {
  readonly charges: ChargeQueue;

  /** `sqlite`: the better-sqlite3 handle a SQLite store runs on; none on PostgreSQL. */
  constructor(config: KyselyConfig, sqlite?: BetterSqlite3.Database) {
    super(config);
    this.charges = sqlite ? new SqliteChargeGroups(sqlite, this) : new PostgresChargeBatches(this);
  }
}
