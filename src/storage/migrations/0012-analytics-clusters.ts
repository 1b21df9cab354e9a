// Indexes for GET /legislation/suspicious-timing: it reads the bill actions of a date range
// (committee actions after the trades) and the votes of a date range already have theirs.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('bill_actions_date_idx').on('bill_actions').column('action_date').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bill_actions_date_idx').execute();
}
