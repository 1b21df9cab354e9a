// Verify-first sign-up: a sign-up is a request that waits for its address to be confirmed. No
// account exists until the mailed link is followed, so sign-up answers alike for new and taken
// addresses and an unconfirmed address never holds an account (or an e-mail) hostage.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signup_requests')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** Lower-cased; several open requests may name one address, each with its own password. */
    .addColumn('email', 'text', (c) => c.notNull())
    /** scrypt of the password chosen with this request (src/accounts/passwords.ts). */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    /** SHA-256 of the mailed token: the database alone cannot confirm anything. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signup_requests_email_idx').on('signup_requests').column('email').execute();
  await db.schema
    .createIndex('signup_requests_expiry_idx')
    .on('signup_requests')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signup_requests').ifExists().execute();
}
