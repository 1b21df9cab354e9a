// Leadership roles of members (Speaker, floor leaders, whips, conference and caucus officers,
// President pro tempore), dated, as the congress-legislators files list them under
// `leadership_roles`. Search words a member's document with them ("Senate Majority Leader since
// 2025"); an import replaces a member's rows with the file's.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('politician_roles')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('politician_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    /** house | senate, as the file says. */
    .addColumn('chamber', 'text')
    .addColumn('start_date', 'text')
    /** Null while the role is held. */
    .addColumn('end_date', 'text')
    .execute();
  await db.schema
    .createIndex('politician_roles_politician')
    .on('politician_roles')
    .columns(['politician_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('politician_roles').execute();
}
