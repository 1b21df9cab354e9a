// A refund line sits beside the charge it gives back, with the same request id: the ledger's
// request id is unique per kind of line (at most one charge and one refund per call), no longer
// unique alone. PostgreSQL swaps the constraint for a unique index. SQLite cannot drop a column's
// UNIQUE, so the table is rebuilt as SQLite's documentation describes (new table, copy, drop,
// rename): one pass over the ledger, while the migration holds the database.
import { type Kysely, sql } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';
import { isSqlite } from '../dialect.js';

const COLUMNS = sql.raw('id, account_id, key_id, kind, amount, request_id, route, note, created_at');

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await db.schema
      .createTable('credit_ledger_next')
      .addColumn('id', autoIdType(db), autoIdColumn(db))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('key_id', 'integer')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('request_id', 'text')
      .addColumn('route', 'text')
      .addColumn('note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into credit_ledger_next (${COLUMNS}) select ${COLUMNS} from credit_ledger`.execute(db);
    await db.schema.dropTable('credit_ledger').execute();
    await db.schema.alterTable('credit_ledger_next').renameTo('credit_ledger').execute();
    await db.schema
      .createIndex('credit_ledger_account_idx')
      .on('credit_ledger')
      .columns(['account_id', 'created_at'])
      .execute();
  } else {
    // The name PostgreSQL gave the column's UNIQUE when 0002 created it, looked up, not assumed.
    const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
      where conrelid = 'credit_ledger'::regclass and contype = 'u'
        and conkey = array[(select attnum from pg_attribute
          where attrelid = 'credit_ledger'::regclass and attname = 'request_id')]::smallint[]`.execute(db);
    for (const { name } of rows)
      await sql`alter table credit_ledger drop constraint ${sql.id(name)}`.execute(db);
  }
  await db.schema
    .createIndex('credit_ledger_request_kind_idx')
    .on('credit_ledger')
    .columns(['request_id', 'kind'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to one line per request id: the refund lines go (their amounts stay in the balances).
  await db
    .deleteFrom('credit_ledger' as never)
    .where(sql`kind`, '=', 'refund')
    .execute();
  await db.schema.dropIndex('credit_ledger_request_kind_idx').ifExists().execute();
  if (isSqlite(db)) {
    await db.schema
      .createIndex('credit_ledger_request_id_unique')
      .on('credit_ledger')
      .column('request_id')
      .unique()
      .execute();
  } else {
    await sql`alter table credit_ledger add constraint credit_ledger_request_id_key unique (request_id)`.execute(
      db,
    );
  }
}
