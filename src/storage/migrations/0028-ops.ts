// Which ingest run emitted an event (structured logs across roles): events and their
// webhook deliveries name the scheduler_runs row of the run that wrote them, so the worker's
// delivery lines carry the same `run` as the scheduler's lines. Null for events no run emitted
// (API requests carry request_id instead) and for rows written before this migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // scheduler_runs.id is an integer on both databases (SQLite integer, PostgreSQL serial).
  await db.schema.alterTable('events').addColumn('run_id', 'integer').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('run_id', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('run_id').execute();
  await db.schema.alterTable('events').dropColumn('run_id').execute();
}
