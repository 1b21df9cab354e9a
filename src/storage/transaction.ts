// Runs work in a transaction, joining the caller's when there already is one (Kysely does not nest).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Runs reads in one read-only snapshot (repeatable read on PostgreSQL; SQLite's transactions read
 * one snapshot anyway, and Kysely's SQLite driver ignores the setting), so that keys read first
 * and the whole rows read for them afterwards agree although writers commit in between. Inside a
 * caller's transaction, the caller's snapshot is the one read.
 */
export function inReadSnapshot<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}

/**
 * PostgreSQL ended the transaction to break a cycle of lock waits (40P01) or a serialization
 * conflict (40001): nothing of it was kept, and running it again is what the server expects.
 */
export function isLockConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** How many times a transaction ended by a lock conflict runs in all. */
export const LOCK_CONFLICT_ATTEMPTS = 4;

/**
 * inTransaction, run again when PostgreSQL ends it for a lock conflict: writers that take the same
 * rows in different orders (two sources' documents counting trades of the same tickers) both
 * finish instead of one failing. The work must change nothing outside the transaction before its
 * last statement, so a run that was rolled back leaves no trace. Inside a caller's transaction it
 * runs once: the caller's transaction is the one to run again.
 */
export async function inRetriedTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isLockConflict(error) || attempt >= LOCK_CONFLICT_ATTEMPTS) throw error;
      // A random pause, so the two writers do not meet again in the same order.
      await sleep(Math.floor(Math.random() * 20 * attempt));
    }
  }
}
