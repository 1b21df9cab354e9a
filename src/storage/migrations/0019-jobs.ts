// Enrichment as a queue of jobs that any worker process may run, and the request id
// that caused an outbox event or a delivery, so the worker's log lines can name it.
//
// One job waits at a time: a waiting job holds queue_key = 'enrichment' (unique), and an enqueue
// while one waits folds into it (enrichment is incremental: one run covers every request made
// before it starts). A claim clears queue_key, so work requested while a job runs waits as the
// next job.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('enrichment_jobs')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** 'enrichment' while the job waits to be claimed; null once claimed or finished. */
    .addColumn('queue_key', 'text')
    /** 1: recompute every trade (`enrich --all`); 0: incremental. */
    .addColumn('full_run', 'integer', (c) => c.notNull().defaultTo(0))
    /** pending | running | completed | failed */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Who asked first: `ingest`, `ingest run 42`, `cli`. */
    .addColumn('requested_by', 'text', (c) => c.notNull())
    /** How many requests this job answers (enqueues folded into it while it waited). */
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('progress_phase', 'text')
    .addColumn('progress_done', 'integer')
    .addColumn('progress_total', 'integer')
    /** JSON summary of the enrichment report of a completed job. */
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('enrichment_jobs_queue_key_unique')
    .on('enrichment_jobs')
    .column('queue_key')
    .unique()
    .execute();
  await db.schema.createIndex('enrichment_jobs_status_idx').on('enrichment_jobs').column('status').execute();

  // The API request that wrote an outbox event, copied to its deliveries by the fan-out, and the
  // one that sent a test delivery.
  await db.schema.alterTable('events').addColumn('request_id', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('request_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('request_id').execute();
  await db.schema.alterTable('events').dropColumn('request_id').execute();
  await db.schema.dropTable('enrichment_jobs').execute();
}
