// Self-service accounts: credentials, sessions, one-time tokens, the mail outbox, payment intents,
// the audit log, what operators and the status page read. The account's ledger and request log are
// read where they are written (credit-ledger.ts, request-log.ts).
import { type Kysely, sql } from 'kysely';
import type { AccountTokensTable, AuditLogTable } from '../schema/accounts.js';
import type { Database } from '../schema.js';
import { INTERRUPTED, interruptedSources, SCHEDULER_LEASE } from './role-leases.js';

// ---- credentials ----

export async function insertCredentials(
  db: Kysely<Database>,
  row: { accountId: number; passwordHash: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('account_credentials')
    .values({
      account_id: row.accountId,
      password_hash: row.passwordHash,
      email_verified_at: null,
      is_operator: 0,
      trial_used_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The account and its credentials by e-mail (lower-cased by the caller). */
export async function findLogin(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('account_credentials as c', 'c.account_id', 'a.id')
    .select(['a.id as account_id', 'a.email', 'c.password_hash', 'c.email_verified_at'])
    .where('a.email', '=', email)
    .executeTakeFirst();
}

export async function findCredentials(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('account_credentials')
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Sets the password; an account made by the CLI (no credentials yet) gets its credentials row now. */
export async function setPassword(
  db: Kysely<Database>,
  accountId: number,
  passwordHash: string,
  now: string,
): Promise<void> {
  const result = await db
    .updateTable('account_credentials')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return;
  await insertCredentials(db, { accountId, passwordHash }, now);
}

export async function markEmailVerified(db: Kysely<Database>, accountId: number, now: string): Promise<void> {
  await db
    .updateTable('account_credentials')
    .set({ email_verified_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Marks the one free trial as taken; false when it already was (compare-and-set). */
export async function takeTrial(db: Kysely<Database>, accountId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('account_credentials')
    .set({ trial_used_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('trial_used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Operators are made from the CLI; a missing credentials row (a CLI-made account) gets one without a password. */
export async function setOperator(
  db: Kysely<Database>,
  accountId: number,
  operator: boolean,
  now: string,
): Promise<void> {
  const result = await db
    .updateTable('account_credentials')
    .set({ is_operator: operator ? 1 : 0, updated_at: now })
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return;
  await db
    .insertInto('account_credentials')
    .values({
      account_id: accountId,
      // No scrypt hash has this shape: the account can sign in only after a password reset.
      password_hash: '!',
      email_verified_at: null,
      is_operator: operator ? 1 : 0,
      trial_used_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

// ---- sessions ----

export async function insertSession(
  db: Kysely<Database>,
  session: { tokenHash: string; accountId: number; csrfToken: string; expiresAt: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('account_sessions')
    .values({
      token_hash: session.tokenHash,
      account_id: session.accountId,
      csrf_token: session.csrfToken,
      created_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** A live session with its account. */
export async function findSession(db: Kysely<Database>, tokenHash: string, now: string) {
  return db
    .selectFrom('account_sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .leftJoin('account_credentials as c', 'c.account_id', 'a.id')
    .select([
      's.token_hash',
      's.csrf_token',
      's.expires_at',
      'a.id as account_id',
      'a.email',
      'c.is_operator',
      'c.email_verified_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('account_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Drops an account's expired sessions (done at each sign-in, so the table does not grow without end). */
export async function deleteExpiredSessions(
  db: Kysely<Database>,
  accountId: number,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('account_sessions')
    .where('account_id', '=', accountId)
    .where('expires_at', '<=', now)
    .execute();
}

export async function deleteSessionsOf(db: Kysely<Database>, accountId: number): Promise<void> {
  await db.deleteFrom('account_sessions').where('account_id', '=', accountId).execute();
}

// ---- one-time tokens ----

export async function insertToken(
  db: Kysely<Database>,
  token: { tokenHash: string; accountId: number; purpose: AccountTokensTable['purpose']; expiresAt: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: token.tokenHash,
      account_id: token.accountId,
      purpose: token.purpose,
      expires_at: token.expiresAt,
      used_at: null,
      created_at: now,
    })
    .execute();
}

/** Uses a token once: returns its account when it was unused, unexpired and for this purpose. */
export async function consumeToken(
  db: Kysely<Database>,
  tokenHash: string,
  purpose: AccountTokensTable['purpose'],
  now: string,
): Promise<number | undefined> {
  const row = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['account_id'])
    .executeTakeFirst();
  return row?.account_id;
}

// ---- mail outbox (development mailer) ----

export async function insertMail(
  db: Kysely<Database>,
  mail: { to: string; subject: string; body: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({ to_address: mail.to, subject: mail.subject, body: mail.body, created_at: now })
    .execute();
}

export async function mailTo(db: Kysely<Database>, address: string) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', address)
    .orderBy('id', 'desc')
    .execute();
}

/** The newest mail in the outbox, for every address (the development mailbox page). */
export async function recentMail(db: Kysely<Database>, limit: number) {
  return db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

// ---- payment intents ----

export async function insertIntent(
  db: Kysely<Database>,
  intent: { accountId: number; provider: string; externalId: string | null; amountCents: number },
  now: string,
) {
  return db
    .insertInto('payment_intents')
    .values({
      account_id: intent.accountId,
      provider: intent.provider,
      external_id: intent.externalId,
      amount_cents: intent.amountCents,
      status: 'pending',
      created_at: now,
      settled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setIntentExternalId(
  db: Kysely<Database>,
  id: number,
  externalId: string,
): Promise<void> {
  await db.updateTable('payment_intents').set({ external_id: externalId }).where('id', '=', id).execute();
}

export async function findIntent(db: Kysely<Database>, by: { id: number } | { externalId: string }) {
  const query = db.selectFrom('payment_intents').selectAll();
  return 'id' in by
    ? query.where('id', '=', by.id).executeTakeFirst()
    : query.where('external_id', '=', by.externalId).executeTakeFirst();
}

/** Settles a pending intent once (compare-and-set); false when it was not pending. */
export async function settleIntent(
  db: Kysely<Database>,
  id: number,
  status: 'paid' | 'cancelled',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('payment_intents')
    .set({ status, settled_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function intentsOf(db: Kysely<Database>, accountId: number | null, status?: string) {
  let query = db.selectFrom('payment_intents').selectAll().orderBy('id', 'desc').limit(200);
  if (accountId !== null) query = query.where('account_id', '=', accountId);
  if (status) query = query.where('status', '=', status as 'pending');
  return query.execute();
}

// ---- audit log ----

export async function insertAudit(
  db: Kysely<Database>,
  entry: { accountId: number; actor: AuditLogTable['actor']; action: string; detail: string | null },
  now: string,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      account_id: entry.accountId,
      actor: entry.actor,
      action: entry.action,
      detail: entry.detail,
      created_at: now,
    })
    .execute();
}

export async function auditOf(db: Kysely<Database>, accountId: number, limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'actor', 'action', 'detail', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ---- operators ----

export async function listAccountsForAdmin(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('account_credentials as c', 'c.account_id', 'a.id')
    .select((eb) => [
      'a.id',
      'a.email',
      'a.plan',
      'a.trial_ends_at',
      'a.allowance',
      'a.credits',
      'a.created_at',
      'c.is_operator',
      'c.email_verified_at',
      eb
        .selectFrom('api_keys as k')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('k.account_id', '=', 'a.id')
        .where('k.revoked_at', 'is', null)
        .as('active_keys'),
      eb
        .selectFrom('credit_ledger as g')
        .select(sql<number>`coalesce(sum(g.amount), 0)`.as('n'))
        .whereRef('g.account_id', '=', 'a.id')
        .where('g.kind', '=', 'grant')
        .as('granted'),
    ])
    .orderBy('a.id')
    .limit(limit)
    .execute();
}

export async function revokedKeysForAdmin(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .select(['k.id', 'k.prefix', 'k.last4', 'k.name', 'k.revoked_at', 'k.replaced_by', 'a.email'])
    .where('k.revoked_at', 'is not', null)
    .orderBy('k.revoked_at', 'desc')
    .limit(limit)
    .execute();
}

// ---- status page ----

/**
 * Per source: the last run, documents by parse status, trades stored. A run shown as running whose
 * scheduler lost its lease (killed without shutting down) has status `interrupted` as of `now`.
 */
export async function ingestStatus(db: Kysely<Database>, now: Date) {
  const [stored, interrupted, documents, trades, totalTrades] = await Promise.all([
    db.selectFrom('ingest_state').selectAll().orderBy('source').execute(),
    interruptedSources(db, SCHEDULER_LEASE, now.toISOString()),
    db
      .selectFrom('ingest_documents as d')
      .innerJoin('filings as f', 'f.id', 'd.filing_id')
      .select(['d.source', 'f.parse_status', sql<number>`count(*)`.as('n')])
      .groupBy(['d.source', 'f.parse_status'])
      .execute(),
    db
      .selectFrom('ingest_documents as d')
      .innerJoin('trades as t', 't.filing_id', 'd.filing_id')
      .select(['d.source', sql<number>`count(*)`.as('n')])
      .groupBy('d.source')
      .execute(),
    db.selectFrom('trades').select(sql<number>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  const states = stored.map((state) =>
    interrupted.has(state.source) ? { ...state, last_status: INTERRUPTED } : state,
  );
  return {
    states,
    documents: documents.map((row) => ({
      source: row.source,
      parseStatus: row.parse_status,
      count: Number(row.n),
    })),
    trades: trades.map((row) => ({ source: row.source, count: Number(row.n) })),
    totalTrades: Number(totalTrades?.n ?? 0),
  };
}

// ---- sign-up requests waiting for their address to be confirmed (migration 0020) ----

export async function insertSignupRequest(
  db: Kysely<Database>,
  request: { email: string; passwordHash: string; tokenHash: string; expiresAt: string },
  now: string,
): Promise<void> {
  await db
    .insertInto('signup_requests')
    .values({
      email: request.email,
      password_hash: request.passwordHash,
      token_hash: request.tokenHash,
      expires_at: request.expiresAt,
      created_at: now,
    })
    .execute();
}

/** Drops expired requests, and for `email` all but its newest `keep` open ones. */
export async function pruneSignupRequests(
  db: Kysely<Database>,
  email: string,
  keep: number,
  now: string,
): Promise<void> {
  await db.deleteFrom('signup_requests').where('expires_at', '<=', now).execute();
  const open = await db
    .selectFrom('signup_requests')
    .select('id')
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .execute();
  const stale = open.slice(keep).map((row) => row.id);
  if (stale.length > 0) await db.deleteFrom('signup_requests').where('id', 'in', stale).execute();
}

/**
 * Takes an open request by its token's hash, once: the row is deleted, and only the caller whose
 * delete removed it gets it back (two clicks on one link make one account).
 */
export async function takeSignupRequest(db: Kysely<Database>, tokenHash: string, now: string) {
  const row = await db
    .selectFrom('signup_requests')
    .select(['id', 'email', 'password_hash'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('signup_requests').where('id', '=', row.id).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1
    ? { email: row.email, passwordHash: row.password_hash }
    : undefined;
}

export async function deleteSignupRequestsFor(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom('signup_requests').where('email', '=', email).execute();
}

/** The newest open request for an address (sign-in tells its owner to confirm first). */
export async function latestSignupRequest(db: Kysely<Database>, email: string, now: string) {
  return db
    .selectFrom('signup_requests')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}
