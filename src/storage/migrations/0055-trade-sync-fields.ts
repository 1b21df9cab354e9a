// What API consumers syncing trades need:
// - `cap_gains_over_200`: the House PTR's "Cap. Gains > $200?" box (1 ticked, 0 not, null where
//   the filing or data set does not say);
// - `updated_at` kept on every change of what a trade says (ddl.ts, createTradeTouchTriggers),
//   with an index on (updated_at, id) for `updated_since`.
import type { Kysely } from 'kysely';
import { createTradeTouchTriggers, dropTradeTouchTriggers } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trades').addColumn('cap_gains_over_200', 'integer').execute();
  await db.schema.createIndex('trades_updated_at_idx').on('trades').columns(['updated_at', 'id']).execute();
  await createTradeTouchTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTradeTouchTriggers(db);
  await db.schema.dropIndex('trades_updated_at_idx').execute();
  await db.schema.alterTable('trades').dropColumn('cap_gains_over_200').execute();
}
