// Accounts, API keys, the credit ledger, top-ups and the request log.
import { type Kysely, sql } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('trial_ends_at', 'text')
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('allowance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The last line of defence against an overdraft: the charge statement itself never allows one.
    .addCheckConstraint('accounts_balance_not_negative', sql`allowance >= 0 and credits >= 0`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('daily_cap', 'integer', (c) => c.notNull())
    .addColumn('spent_day', 'text')
    .addColumn('spent_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'text')
    .addColumn('replaced_by', 'integer')
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key_id', 'integer')
    /** charge | grant | topup | allowance */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Credits added (positive) or spent (negative). */
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.unique())
    .addColumn('route', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_ledger_account_idx')
    .on('credit_ledger')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('topups')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('paid_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topups_account_idx').on('topups').columns(['account_id', 'paid_at']).execute();

  await db.schema
    .createTable('request_log')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('charge', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_log_key_idx')
    .on('request_log')
    .columns(['key_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['request_log', 'topups', 'credit_ledger', 'api_keys', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
