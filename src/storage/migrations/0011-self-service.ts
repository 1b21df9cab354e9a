// Self-service accounts: passwords, browser sessions, one-time e-mail tokens, the development mail
// outbox, payment intents and the audit log of key and plan events.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_credentials')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    /** scrypt$N$r$p$salt$hash (base64url); see src/accounts/passwords.ts. */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified_at', 'text')
    /** 1 for operators (set with `dcledger accounts operator`), who see the admin view. */
    .addColumn('is_operator', 'integer', (c) => c.notNull().defaultTo(0))
    /** When the account started its one free Core trial (a trial is offered once). */
    .addColumn('trial_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_sessions')
    /** SHA-256 of the cookie value: a stolen database holds no usable session. */
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_sessions_account_idx')
    .on('account_sessions')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** verify_email | reset_password */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payment_intents')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** manual | stripe */
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The provider's id (a Stripe Checkout session id); null for manual intents. */
    .addColumn('external_id', 'text', (c) => c.unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    /** pending | paid | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  await db.schema
    .createIndex('payment_intents_account_idx')
    .on('payment_intents')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    /** user | operator | provider */
    .addColumn('actor', 'text', (c) => c.notNull())
    /** e.g. key.created, key.revoked, key.rotated, key.cap, plan.changed, topup.requested, topup.paid */
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_account_idx')
    .on('audit_log')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('request_log_account_idx')
    .on('request_log')
    .columns(['account_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('request_log_account_idx').ifExists().execute();
  for (const table of [
    'audit_log',
    'payment_intents',
    'mail_outbox',
    'account_tokens',
    'account_sessions',
    'account_credentials',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
