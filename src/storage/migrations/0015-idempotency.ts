// Idempotency keys of POST requests: the claim (a unique row per caller and key) and the first
// answer, replayed to a retry with the same key and body for 24 hours.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    /** Whose key it is: `account:<id>` (API key or session). Keys of two accounts never meet. */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    /** "POST /path" of the route the key was first used on. */
    .addColumn('route', 'text', (c) => c.notNull())
    /** SHA-256 of the method, the path as sent and the body: a different request under the same key is refused. */
    .addColumn('request_hash', 'text', (c) => c.notNull())
    /** pending while the first request runs, done once its answer is stored. */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    /** JSON object of the replayed answer headers (content type, location, ...). */
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key_hash'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expires_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
