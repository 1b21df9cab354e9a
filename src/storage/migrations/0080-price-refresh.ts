// The daily price job's runs: when each ran, what it asked and got, which providers failed and
// the newest close afterwards, so that /status can say how current the prices are and, when every
// provider failed, that cached closes are being served.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_refresh_runs')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** The process that ran it (`host:pid:random`), or `cli:host:pid` for `dcledger prices refresh`. */
    .addColumn('holder', 'text', (c) => c.notNull())
    /** `schedule` or `cli`. */
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    /** running | completed | partial (some symbols failed) | failed (every provider failed) | aborted */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('symbols_asked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('symbols_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('symbols_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bars_added', 'integer', (c) => c.notNull().defaultTo(0))
    /** The benchmark's newest close after the run: the day prices are current to. */
    .addColumn('newest_close', 'text')
    /** JSON: per provider {asked, answered, not_found, failed, last_error, gave_up}. */
    .addColumn('providers', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('price_refresh_runs_started')
    .on('price_refresh_runs')
    .column('started_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('price_refresh_runs').execute();
}
