// Several processes on one database: the lease that lets exactly one scheduler act at a time, and
// a record of every scheduled ingest run with the scheduler that ran it.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('role_leases')
    /** What the lease guards: `scheduler`. */
    .addColumn('name', 'text', (c) => c.primaryKey())
    /** The holding process (host, pid and a random id); it renews before expires_at. */
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('acquired_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scheduler_runs')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    /** running | completed | failed | aborted (a run whose scheduler died stays running). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduler_runs').execute();
  await db.schema.dropTable('role_leases').execute();
}
