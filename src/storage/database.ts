// Opens the one database the service uses: SQLite (better-sqlite3) by default, PostgreSQL (pg)
// when DATABASE_URL is set. Everything above this file talks Kysely and does not care which.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { DatabaseConfig } from '../config.js';
import { databaseOpenError } from './open-error.js';
import type { Database } from './schema.js';
import { StoreDatabase } from './store-database.js';

/**
 * How long a SQLite write waits for another process's write (e.g. `dcledger ingest` beside
 * `serve`) before failing with "database is locked".
 */
export const SQLITE_BUSY_TIMEOUT_MS = 15_000;

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  /** A StoreDatabase (store-database.ts): it carries what the store keeps for its connection. */
  db: Kysely<Database>;
  dialect: DialectName;
  /** Human-readable target for logs: the SQLite file or the PostgreSQL host/database (never the password). */
  target: string;
  close(): Promise<void>;
}

export interface StoreOptions {
  /**
   * A reader beside the serving process (the analytics threads): SQLite opens the file read-only,
   * writes no pragma and begins its transactions deferred, so it never takes the write lock the
   * serving connection's charges need; PostgreSQL uses a small pool of its own.
   */
  readOnly?: boolean;
  /**
   * A writer in the background beside the serving process (the search warm-up's process): on
   * SQLite, it never keeps the write lock taken for long in a row (pacedConnection).
   */
  background?: boolean;
}

/**
 * A background writer's writes in a row (pacedConnection): after WRITE_LOCK_RUN_MS of them, it
 * leaves the write lock free for WRITE_LOCK_GAP_MS. The serving process's charges try again for
 * the lock every millisecond or so (charges/sqlite-groups.ts), so the gap lets the next one in.
 */
export const WRITE_LOCK_RUN_MS = 2;
export const WRITE_LOCK_GAP_MS = 2;

export function openStore(config: DatabaseConfig, options: StoreOptions = {}): Store {
  if (config.kind === 'postgres') return openPostgres(config.url, options.readOnly ? 2 : 10);
  return options.readOnly
    ? openSqliteReader(config.file)
    : openSqlite(config.file, options.background === true);
}

function openSqliteReader(file: string): Store {
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  } catch (error) {
    sqlite?.close();
    throw databaseOpenError(file, error);
  }
  const db = new StoreDatabase(
    { dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) },
    { sqlite },
  );
  return { db, dialect: 'sqlite', target: file, close: () => db.destroy() };
}

function openSqlite(file: string, background: boolean): Store {
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    if (file !== ':memory:') {
      mkdirSync(dirname(file), { recursive: true });
      if (existsSync(file) && statSync(file).isDirectory())
        throw Object.assign(new Error(file), { code: 'EISDIR' });
    }
    sqlite = new BetterSqlite3(file);
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    loadVectorExtension(sqlite);
    // Rewriting the header's user_version with its own value fails at once on a read-only or
    // corrupt file, where serving would otherwise start and answer 500s.
    const version = Number(sqlite.pragma('user_version', { simple: true }));
    sqlite.pragma(`user_version = ${version}`);
  } catch (error) {
    sqlite?.close();
    throw databaseOpenError(file, error);
  }
  const db = new StoreDatabase(
    {
      dialect: new ImmediateSqliteDialect(
        { database: withStatementCache(sqlite) },
        background ? sqlite : undefined,
      ),
    },
    { sqlite },
  );
  return { db, dialect: 'sqlite', target: file, close: () => db.destroy() };
}

/**
 * sqlite-vec (from the npm registry, a prebuilt binary per platform) gives semantic search its
 * KNN index. Search falls back to an exact scan in memory where the binary does not load.
 */
function loadVectorExtension(sqlite: BetterSqlite3.Database): void {
  try {
    sqliteVec.load(sqlite);
  } catch {
    // No binary for this platform: dialect.vectorIndexAvailable() answers false.
  }
}

/**
 * SQLite transactions begin IMMEDIATE: they take the write lock (waiting up to the busy timeout)
 * before their first read. A deferred transaction that reads and then writes while another
 * process (`dcledger ingest` beside `serve`) has written meanwhile fails at once with "database is
 * locked": SQLite cannot wait there, because the transaction's snapshot is already stale.
 * A transaction declared read only (`setAccessMode('read only')`: the analytics pages' snapshot)
 * never writes, so it begins deferred: in WAL mode it reads one snapshot and holds no lock that
 * writers wait on, however long its reads take.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  /** `paced`: the handle of a background writer's connection, whose writes are paced. */
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly paced?: BetterSqlite3.Database,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const { paced } = this;
    if (paced) {
      const acquire = driver.acquireConnection.bind(driver);
      let wrapped: DatabaseConnection | undefined;
      driver.acquireConnection = async () => {
        const connection = await acquire();
        wrapped ??= pacedConnection(connection, paced);
        return wrapped;
      };
    }
    driver.beginTransaction = async (connection: DatabaseConnection, settings: TransactionSettings) => {
      const begin = settings.accessMode === 'read only' ? 'begin' : 'begin immediate';
      await connection.executeQuery(CompiledQuery.raw(begin));
    };
    return driver;
  }
}

/** Query kinds that write, and raw statements that do (or take the write lock). */
const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const RAW_WRITE = /^\s*(insert|update|delete|replace|begin\s+immediate)\b/i;

function takesWriteLock(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  return WRITES.has(kind) || (kind === 'RawNode' && RAW_WRITE.test(query.sql));
}

/**
 * A background writer's connection. SQLite gives its write lock to whichever connection asks
 * while it is free, with no queue: a writer that commits and writes again within microseconds
 * keeps a serving process's charge, which tries again now and then, out for as long as it goes
 * on. Here, once this connection's writes have followed one another (each less than
 * WRITE_LOCK_GAP_MS after the last let go of the lock) for WRITE_LOCK_RUN_MS, the next one first
 * waits WRITE_LOCK_GAP_MS with the lock free. Writes with other work between them (reading,
 * wording, embedding) never wait. Its write transactions are kept short where they are made: a
 * transaction holds the lock from its begin to its end, whatever this connection does.
 */
function pacedConnection(connection: DatabaseConnection, sqlite: BetterSqlite3.Database): DatabaseConnection {
  let holding = false;
  let released = Number.NEGATIVE_INFINITY;
  let runStarted = 0;
  return {
    async executeQuery<R>(query: CompiledQuery) {
      if (!sqlite.inTransaction && takesWriteLock(query)) {
        const now = performance.now();
        if (now - released >= WRITE_LOCK_GAP_MS) runStarted = now;
        else if (now - runStarted >= WRITE_LOCK_RUN_MS) {
          await new Promise((resolve) => setTimeout(resolve, WRITE_LOCK_GAP_MS));
          runStarted = performance.now();
        }
        holding = true;
      }
      try {
        return await connection.executeQuery<R>(query);
      } finally {
        // Let go: the write outside a transaction is done, or the transaction it began ended.
        if (holding && !sqlite.inTransaction) {
          holding = false;
          released = performance.now();
        }
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

// Kysely's SQLite driver prepares every statement anew; the same few query shapes repeat on
// every request, so keeping prepared statements saves a parse per call.
function withStatementCache(sqlite: BetterSqlite3.Database, capacity = 512): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = sqlite.prepare(sql) as unknown as SqliteStatement;
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * pg (a CommonJS package) is loaded when a PostgreSQL database is first opened, synchronously like
 * the rest of openStore(): a server on SQLite never holds it.
 */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

function openPostgres(url: string, connections: number): Store {
  const { Pool, types: pgTypes } = loadPg();
  // count(*) and bigint come back as strings by default; our values fit in a double.
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
      return pgTypes.getTypeParser(oid, format);
    },
  };
  const pool = new Pool({ connectionString: url, max: connections, types });
  // An idle connection the server closed (a restart, a failover) is dropped from the pool and the
  // next query opens a new one; without a listener the pool's 'error' event ends the process.
  // /readyz reports whether the database answers.
  pool.on('error', () => undefined);
  // A connection the server ends while it is checked out but between two queries (inside a
  // transaction, or just acquired) emits 'error' on its client, where the pool listens only while
  // the client is idle: unheard, it ends the process. The next query on it fails instead (the
  // client is no longer queryable) and the pool drops it on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = new StoreDatabase({ dialect: new PostgresDialect({ pool }) }, { pool });
  const close = async () => {
    await db.destroy();
    // Kysely ends the pool only if it ran a query itself; compiled-queries.ts runs some on the pool.
    if (!pool.ended) await pool.end();
  };
  return { db, dialect: 'postgres', target: describePostgres(url), close };
}

function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `postgres://${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'postgres';
  }
}
