// Performance and operator limits: an account's custom per-minute request limit, set by
// `dcledger accounts limit ACCOUNT N` for contracts above the Max plan (null: the plan's limit).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('requests_per_minute', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('requests_per_minute').execute();
}
