// Databases for tests: a fresh SQLite file per test file by default, or a fresh PostgreSQL
// database when DCLEDGER_TEST_DATABASE_URL points at a server (CI runs the suite both ways).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { readTestSettings } from '../config/test-settings.js';
import type { DatabaseConfig } from '../config.js';
import { openStore, type Store } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';

export type FixtureLocation = ({ kind: 'sqlite'; file: string } | { kind: 'postgres'; database: string }) & {
  /**
   * For a database still being built in the background (the run's real-data fixture): a file
   * that exists once it is built, beside which `<ready>.failed` says why its build failed.
   */
  ready?: string;
};

export interface TestStore extends Store {
  /** How to open this database again (e.g. from a child process). */
  config: DatabaseConfig;
  /** Closes the store and deletes its database. */
  dispose(): Promise<void>;
}

export function testDialect(): 'sqlite' | 'postgres' {
  return readTestSettings().postgresUrl ? 'postgres' : 'sqlite';
}

function adminUrl(): string {
  const url = readTestSettings().postgresUrl;
  if (!url) throw new Error('DCLEDGER_TEST_DATABASE_URL is not set');
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The migrated, empty database global setup built for this run, or nothing outside a vitest run
 * (`npm run screenshots`) and under a config without that global setup (vitest.mutate.config.ts).
 */
function emptyTemplate(): FixtureLocation | undefined {
  return process.env.VITEST ? (inject('emptyTemplate') ?? undefined) : undefined;
}

/**
 * A migrated, empty database, or a copy of the real-data fixture. The empty one is a copy of the
 * run's migrated template where there is one (a file copy, not ~30 migrations per call).
 */
export async function openTestStore(
  fixture?: FixtureLocation,
  options: { migrate?: boolean } = {},
): Promise<TestStore> {
  // migrate: false opens a blank database for a test that runs the migrations itself (upgrades).
  const migrate = options.migrate ?? true;
  const source = fixture ?? (migrate ? emptyTemplate() : undefined);
  if (source) await built(source);
  if (testDialect() === 'postgres') {
    const database = uniqueName('dct');
    await admin(async (client) => {
      const template =
        source?.kind === 'postgres' ? ` template ${source.database}${await copyStrategy(client)}` : '';
      await client.query(`create database ${database}${template}`);
    });
    const config: DatabaseConfig = { kind: 'postgres', url: withDatabase(adminUrl(), database) };
    const store = openStore(config);
    if (!source && migrate) await migrateToLatest(store.db);
    return {
      ...store,
      config,
      dispose: async () => {
        await store.close();
        await dropDatabase(database);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-test-'));
  const file = join(dir, 'test.db');
  if (source?.kind === 'sqlite') copyFileSync(source.file, file);
  const config: DatabaseConfig = { kind: 'sqlite', file };
  const store = openStore(config);
  if (!source && migrate) await migrateToLatest(store.db);
  return {
    ...store,
    config,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let fileCopy: Promise<boolean> | undefined;

/**
 * How a test database copies its template. From PostgreSQL 15 a copy is by default written page
 * by page into the WAL: for the real-data fixture, copied by every file that reads it, that is
 * the server's largest cost in a run. FILE_COPY copies the template's files and logs one record,
 * at the price of a checkpoint. Older servers copy files already and know no STRATEGY.
 */
async function copyStrategy(client: pg.Client): Promise<string> {
  fileCopy ??= client
    .query<{ server_version_num: string }>('show server_version_num')
    .then((result) => Number(result.rows[0]?.server_version_num) >= 150000);
  return (await fileCopy) ? ' strategy file_copy' : '';
}

/**
 * Drops a test database. After many writes an autovacuum worker (the server's own role) may be
 * working in it, which `with (force)` may not terminate for an unprivileged role; a plain drop
 * stops autovacuum itself, so retry that way for a few seconds.
 */
async function dropDatabase(database: string): Promise<void> {
  try {
    await admin((client) => client.query(`drop database if exists ${database} with (force)`));
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await admin((client) => client.query(`drop database if exists ${database}`));
      return;
    } catch (error) {
      if (attempt >= 10) {
        // Leave it behind rather than fail a test that has already passed.
        console.warn(`[dcledger tests] could not drop ${database}: ${(error as Error).message}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Waits until a database built in the background is there; throws why, when its build failed. */
async function built(location: FixtureLocation): Promise<void> {
  if (!location.ready) return;
  for (;;) {
    if (existsSync(location.ready)) return;
    const failed = `${location.ready}.failed`;
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    await sleep(200);
  }
}

/** Where a new database for tests to copy goes: a new SQLite file, or a new PostgreSQL database. */
export function newFixtureLocation(): FixtureLocation {
  if (testDialect() === 'postgres') return { kind: 'postgres', database: uniqueName('dcfixture') };
  return { kind: 'sqlite', file: join(mkdtempSync(join(tmpdir(), 'dcledger-fixture-')), 'fixture.db') };
}

/**
 * Creates the migrated database at a location newFixtureLocation gave, for tests to copy. A
 * PostgreSQL template must have no connection open while it is copied: close the store before
 * the tests run.
 */
export async function createFixtureStoreAt(location: FixtureLocation): Promise<Store> {
  if (location.kind === 'postgres') {
    await admin((client) => client.query(`create database ${location.database}`));
    const store = openStore({ kind: 'postgres', url: withDatabase(adminUrl(), location.database) });
    await migrateToLatest(store.db);
    return store;
  }
  const store = openStore({ kind: 'sqlite', file: location.file });
  await migrateToLatest(store.db);
  return store;
}

/**
 * Readies a built fixture for copying. On PostgreSQL the build's updates (enrichment rewrites most
 * trades) leave dead rows that every copy would carry: a full vacuum leaves about two thirds of
 * the bytes, and the statistics it gathers travel with each copy. SQLite's file shrinks too
 * little to pay for the rewrite.
 */
export async function compactFixture(store: Store, location: FixtureLocation): Promise<void> {
  if (location.kind === 'postgres') await sql`vacuum (full, analyze)`.execute(store.db);
}

/** Deletes a database createFixtureStoreAt made (nothing when there is none). */
export async function dropFixture(location: FixtureLocation): Promise<void> {
  if (location.kind === 'postgres') await dropDatabase(location.database);
  else rmSync(dirname(location.file), { recursive: true, force: true });
}

/**
 * Creates a migrated database for tests to copy (global setup): the empty template, and the one
 * that holds the real-data fixture.
 */
export async function createFixtureStore(): Promise<{
  store: Store;
  location: FixtureLocation;
  drop(): Promise<void>;
}> {
  const location = newFixtureLocation();
  const store = await createFixtureStoreAt(location);
  return { store, location, drop: () => dropFixture(location) };
}
