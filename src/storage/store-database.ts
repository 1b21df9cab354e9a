// The Kysely instance a Store opens, carrying the state the Store keeps for its connection.
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, type KyselyConfig } from 'kysely';
import type pg from 'pg';
import type { ChargeQueue } from './charges/statements.js';
import type { CompiledOnce } from './compiled-queries.js';
import type { KeyRowCache } from './repositories/api-keys.js';
import type { BulkBuild } from './repositories/bulk-exports.js';
import type { TradeBaseQuery } from './repositories/trades.js';
import type { Database } from './schema.js';
import type { PreparedQuery } from './sqlite-hot-path.js';

/** What a store runs on: the better-sqlite3 handle (SQLite) or the pg pool (PostgreSQL). */
export interface StoreConnection {
  sqlite?: BetterSqlite3.Database;
  pool?: pg.Pool;
}

/**
 * The Kysely instance of a Store (openStore). Code is handed the Kysely instance, not the Store,
 * so what the Store keeps for its connection rides on it, is found from it, and ends with it: the
 * connection under it, the queue its charges wait in, the statements prepared and the queries
 * compiled for it, what it learned of its own schema, the key rows the metered path keeps and the
 * bulk build under way. Each member is kept by the module named beside it (a few above storage:
 * what they keep belongs to this connection all the same); this class only holds them. A
 * transaction, or any instance Kysely derives from this one, is a plain Kysely without that state:
 * there a charge is taken alone, a query is compiled and sent as text, a key is read for every
 * call, a bulk build is not joined, and nothing is remembered between calls.
 */
export class StoreDatabase extends Kysely<Database> {
  /** SQLite: the better-sqlite3 handle the store runs on (sqlite-hot-path.ts); none on PostgreSQL. */
  readonly sqlite: BetterSqlite3.Database | undefined;
  /** PostgreSQL: the pool compiled queries run on as named statements (compiled-queries.ts). */
  readonly pool: pg.Pool | undefined;
  /**
   * The queue its charges wait in, made by the first charge (charges/charge.ts): grouped on
   * SQLite (one connection), batched on PostgreSQL (a pool).
   */
  charges: ChargeQueue | undefined;
  /** SQLite: the hot queries prepared on the handle, by name (sqlite-hot-path.ts). */
  readonly preparedQueries = new Map<string, PreparedQuery<string>>();
  /** The hot queries compiled once, by name (compiled-queries.ts). */
  readonly compiledQueries = new Map<string, CompiledOnce<string, unknown>>();
  /** The trade listing's select list and joins, built once (repositories/trades.ts). */
  tradeBaseQuery: TradeBaseQuery | undefined;
  /** Whether the database can hold a KNN vector index (dialect.ts). */
  vectorSupport: Promise<boolean> | undefined;
  /** Whether the search index's KNN table exists (repositories/search-vectors.ts). */
  searchVectorIndex: boolean | undefined;
  /** The key rows the metered path read lately, kept up to a second (accounts/authentication.ts). */
  readonly keyCache: KeyRowCache = { byHash: new Map(), byKeyId: new Map() };
  /** The bulk history's build running in this process, which a second caller joins (resources/bulk-trades.ts). */
  bulkBuild: Promise<BulkBuild> | undefined;

  constructor(config: KyselyConfig, connection: StoreConnection = {}) {
    super(config);
    this.sqlite = connection.sqlite;
    this.pool = connection.pool;
  }
}
