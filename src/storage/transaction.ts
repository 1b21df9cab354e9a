// Runs work in a transaction, joining the caller's when there already is one (Kysely does not nest).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
