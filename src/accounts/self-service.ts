// What a person does for their own account without a terminal: sign up, sign in, verify the
// e-mail, reset the password, manage keys, change plan, read the ledger and usage. It calls the
// account functions the CLI uses; it adds passwords, sessions, throttling and the audit log.
import type { Kysely } from 'kysely';
import type { Plan } from '../domain/plans.js';
import { ApiError } from '../errors.js';
import { findAccount } from '../storage/repositories/accounts.js';
import { findKey } from '../storage/repositories/api-keys.js';
import { ledgerOf } from '../storage/repositories/credit-ledger.js';
import { recentRequestsOf, type UsageGrouping, usageOf } from '../storage/repositories/request-log.js';
import {
  auditOf,
  consumeToken,
  deleteSignupRequestsFor,
  findCredentials,
  findLogin,
  insertAudit,
  insertCredentials,
  insertSignupRequest,
  insertToken,
  latestSignupRequest,
  markEmailVerified,
  pruneSignupRequests,
  setPassword,
  takeSignupRequest,
  takeTrial,
} from '../storage/repositories/self-service.js';
import type { AuditLogTable } from '../storage/schema/accounts.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import {
  AccountError,
  changePlan,
  createAccount,
  createKey,
  KeyCapError,
  keysOf,
  looksLikeEmail,
  normalEmail,
  revoke,
  rotate,
  setKeyCap,
} from './admin.js';
import type { Mailer } from './mailer.js';
import { DECOY_HASH, hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import type { PaymentProvider } from './payments.js';
import { addMonths, effectivePlan, PLAN_TERMS, SIGN_UP_CREDITS } from './plans.js';
import type { RateLimitStore } from './rate-limit.js';
import { endAllSessions, randomToken, startSession, tokenDigest } from './sessions.js';

/** What the account area needs besides the database: mail, payments, throttling counters. */
export interface SelfServiceDeps {
  mailer: Mailer;
  payments: PaymentProvider;
  /** STRIPE_WEBHOOK_SECRET: verifies POST /account/payments/stripe/webhook. */
  stripeWebhookSecret?: string;
  /** Counters for sign-in, sign-up and mail throttling; default: the app's rate-limit store (Redis with DCLEDGER_REDIS_URL), else in-process. */
  throttle?: RateLimitStore;
  /** Minutes between scheduled ingest runs, for the status page's "next run" (unset: not scheduled here). */
  ingestIntervalMinutes?: number;
  /**
   * Set only while mail goes to the outbox table (no SMTP): the secret of the development mailbox
   * page `/ui/mailbox?token=…` that `serve` prints at start, so a newcomer can finish a sign-up in
   * the browser. Unset, that page does not exist.
   */
  devMailboxToken?: string;
  /** DCLEDGER_MAX_KEYS_PER_ACCOUNT: active keys an account may hold (default DEFAULT_MAX_KEYS_PER_ACCOUNT). */
  maxKeysPerAccount?: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Attempts allowed per window; past them the answer is 429 until the window ends. `key` prefixes
 * the counted subject (an address or an e-mail); `what` names the attempts in the refusal.
 */
export const THROTTLES = {
  loginPerAccount: {
    limit: 5,
    windowMs: 15 * MINUTE_MS,
    key: 'login-account',
    what: 'sign-in attempts for this account',
  },
  loginPerIp: {
    limit: 30,
    windowMs: 15 * MINUTE_MS,
    key: 'login-ip',
    what: 'sign-in attempts from this address',
  },
  signupPerIp: { limit: 10, windowMs: 60 * MINUTE_MS, key: 'signup-ip', what: 'sign-ups from this address' },
  signupPerEmail: {
    limit: 5,
    windowMs: 60 * MINUTE_MS,
    key: 'signup-email',
    what: 'sign-ups for this e-mail address',
  },
  mailPerIp: { limit: 10, windowMs: 60 * MINUTE_MS, key: 'mail-ip', what: 'mail requests from this address' },
} as const;

/** Open sign-up requests kept per address (older ones are dropped, their links stop working). */
const OPEN_SIGNUPS_PER_EMAIL = 3;

const TOKEN_TTL_MS = { verify_email: 2 * DAY_MS, reset_password: 60 * MINUTE_MS } as const;

export interface SelfServiceContext {
  db: Kysely<Database>;
  mailer: Mailer;
  throttle: RateLimitStore;
  /** Base URL for links in mails (DCLEDGER_PUBLIC_URL or the request's origin). */
  linkBase: string;
  ip: string;
  now: Date;
}

async function throttle(
  context: SelfServiceContext,
  rule: (typeof THROTTLES)[keyof typeof THROTTLES],
  subject: string,
): Promise<void> {
  const now = context.now;
  const hit = await context.throttle.hit(`self:${rule.key}:${subject}`, now.getTime(), rule.windowMs);
  if (hit.count <= rule.limit) return;
  const retry = Math.max(1, Math.ceil((hit.resetAt - now.getTime()) / 1000));
  throw new ApiError(
    'rate_limited',
    `Too many ${rule.what}; retry in ${retry} s`,
    {},
    { 'Retry-After': String(retry) },
  );
}

/** AccountError is the CLI's refusal; here it becomes a 4xx. */
async function asApiError<T>(
  work: () => Promise<T>,
  code: 'unprocessable' | 'conflict' | 'not_found' = 'unprocessable',
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof KeyCapError) throw new ApiError('conflict', error.message);
    if (error instanceof AccountError) throw new ApiError(code, error.message);
    throw error;
  }
}

export async function audit(
  db: Kysely<Database>,
  accountId: number,
  action: string,
  detail: string | null,
  now: Date,
  actor: AuditLogTable['actor'] = 'user',
): Promise<void> {
  await insertAudit(db, { accountId, actor, action, detail }, now.toISOString());
}

async function sendToken(
  context: SelfServiceContext,
  account: { id: number; email: string },
  purpose: 'verify_email' | 'reset_password',
): Promise<void> {
  const token = randomToken();
  await insertToken(
    context.db,
    {
      tokenHash: tokenDigest(token),
      accountId: account.id,
      purpose,
      expiresAt: new Date(context.now.getTime() + TOKEN_TTL_MS[purpose]).toISOString(),
    },
    context.now.toISOString(),
  );
  const link =
    purpose === 'verify_email'
      ? `${context.linkBase}/ui/verify-email?token=${token}`
      : `${context.linkBase}/ui/reset-password?token=${token}`;
  await context.mailer.send(
    purpose === 'verify_email'
      ? {
          to: account.email,
          subject: 'Confirm your dcledger e-mail address',
          body: `Open this link to confirm your address (valid for 48 hours):\n\n${link}\n\nToken: ${token}\n`,
        }
      : {
          to: account.email,
          subject: 'Reset your dcledger password',
          body: `Open this link to choose a new password (valid for 1 hour):\n\n${link}\n\nToken: ${token}\n\nIf you did not ask for this, ignore this mail.`,
        },
  );
}

/** What sign-up answers for every address, new or taken: nobody learns which addresses have accounts. */
export const SIGN_UP_PENDING =
  'Check your e-mail: we sent a link to this address. Follow it to finish signing up and see your first API key.';

/**
 * Sign-up, verify first: the same answer, the same password hashing and one mail whether or not the
 * address has an account. A new address gets a confirmation link (an open request, no account
 * yet); a taken one gets a notice to sign in or reset the password. Re-signing up before
 * confirming adds another request (at most a few are kept per address); none makes an account.
 */
export async function signUp(
  context: SelfServiceContext,
  input: { email: string; password: string },
): Promise<void> {
  await throttle(context, THROTTLES.signupPerIp, context.ip);
  const email = normalEmail(input.email);
  if (!looksLikeEmail(email))
    throw new ApiError('unprocessable', `email: not an e-mail address: ${input.email}`, { field: 'email' });
  const problem = passwordProblem(input.password);
  if (problem) throw new ApiError('unprocessable', `password: ${problem}`, { field: 'password' });
  // Limits the mails one address receives, counted alike for new and taken addresses.
  await throttle(context, THROTTLES.signupPerEmail, email);
  // Hashed in both branches, so the answer takes about as long for a taken address as for a new one.
  const passwordHash = await hashPassword(input.password);
  if (await findAccount(context.db, email)) {
    await context.mailer.send({
      to: email,
      subject: 'Someone tried to sign up to dcledger with your address',
      body: `Someone (perhaps you) tried to create a dcledger account with this address, which already has one. Nothing was changed.\n\nSign in: ${context.linkBase}/ui/login\nForgot your password? Reset it: ${context.linkBase}/ui/reset-password\n\nIf it was not you, ignore this mail.\n`,
    });
    return;
  }
  const token = randomToken();
  await inTransaction(context.db, async (trx) => {
    await pruneSignupRequests(trx, email, OPEN_SIGNUPS_PER_EMAIL - 1, context.now.toISOString());
    await insertSignupRequest(
      trx,
      {
        email,
        passwordHash,
        tokenHash: tokenDigest(token),
        expiresAt: new Date(context.now.getTime() + TOKEN_TTL_MS.verify_email).toISOString(),
      },
      context.now.toISOString(),
    );
  });
  await context.mailer.send({
    to: email,
    subject: 'Confirm your address to finish signing up to dcledger',
    body: `Open this link to confirm your address, create your account (750 free credits) and see your first API key (valid for 48 hours):\n\n${context.linkBase}/ui/signup/confirm?token=${token}\n\nToken: ${token}\n\nIf you did not sign up, ignore this mail: no account is made without this link.\n`,
  });
}

/**
 * Follows a sign-up link: makes the account (confirmed address, 750 credits, first key shown this
 * once) with the password chosen in that request, ends every other open request for the address,
 * and signs in.
 */
export async function confirmSignUp(context: SelfServiceContext, token: string) {
  const outcome = await inTransaction(context.db, async (trx) => {
    const request = await takeSignupRequest(trx, tokenDigest(token), context.now.toISOString());
    if (!request) return { kind: 'invalid' as const };
    await deleteSignupRequestsFor(trx, request.email);
    // Made meanwhile (another link, or `dcledger accounts create`): the open requests end all the same.
    if (await findAccount(trx, request.email)) return { kind: 'taken' as const };
    const account = await asApiError(
      () => createAccount(trx, { email: request.email, plan: 'none', credits: SIGN_UP_CREDITS }, context.now),
      'conflict',
    );
    await insertCredentials(
      trx,
      { accountId: account.account_id, passwordHash: request.passwordHash },
      context.now.toISOString(),
    );
    await markEmailVerified(trx, account.account_id, context.now.toISOString());
    await audit(
      trx,
      account.account_id,
      'account.created',
      'self-service sign-up, address confirmed',
      context.now,
    );
    await audit(
      trx,
      account.account_id,
      'key.created',
      `key ${account.key.key_id} (${account.key.prefix}…${account.key.last4})`,
      context.now,
    );
    return { kind: 'created' as const, account };
  });
  if (outcome.kind === 'invalid')
    throw new ApiError('bad_request', 'This sign-up link is invalid, used or expired; sign up again');
  // The link's holder reads this address's mail: telling them it has an account leaks nothing.
  if (outcome.kind === 'taken')
    throw new ApiError(
      'conflict',
      'This address already has an account: sign in, or reset the password if you forgot it',
    );
  const session = await startSession(context.db, outcome.account.account_id, context.now);
  return { account: outcome.account, session };
}

/** The same answer and about the same time whether the e-mail is unknown or the password wrong. */
export async function logIn(context: SelfServiceContext, input: { email: string; password: string }) {
  const email = normalEmail(input.email);
  await throttle(context, THROTTLES.loginPerIp, context.ip);
  await throttle(context, THROTTLES.loginPerAccount, email);
  const login = await findLogin(context.db, email);
  // No account yet: the newest open sign-up for the address is checked instead (one hash either way).
  const pending = login ? undefined : await latestSignupRequest(context.db, email, context.now.toISOString());
  const stored = login?.password_hash ?? pending?.password_hash ?? DECOY_HASH;
  const matches = await verifyPassword(input.password, stored);
  if (matches && pending)
    // Only whoever chose this password learns that the sign-up waits for its confirmation.
    throw new ApiError(
      'forbidden',
      'This address is not confirmed yet: follow the link we mailed to it, or sign up again for a new link',
    );
  if (!login || !matches) throw new ApiError('unauthorized', 'E-mail or password is wrong');
  const session = await startSession(context.db, login.account_id, context.now);
  return { accountId: login.account_id, emailVerified: login.email_verified_at !== null, session };
}

export async function requestPasswordReset(context: SelfServiceContext, emailInput: string): Promise<void> {
  await throttle(context, THROTTLES.mailPerIp, context.ip);
  // An address, never an account id: typing a number must not mail a reset link to account N.
  const email = normalEmail(emailInput);
  if (!looksLikeEmail(email))
    throw new ApiError('unprocessable', `email: not an e-mail address: ${emailInput}`, { field: 'email' });
  // Any account, also one made with `dcledger accounts create` that has no password yet.
  const account = await findAccount(context.db, email);
  // Unknown addresses get the same answer and no mail: nobody learns which addresses have accounts.
  if (account) await sendToken(context, account, 'reset_password');
}

export async function resetPassword(
  db: Kysely<Database>,
  input: { token: string; password: string },
  now: Date,
): Promise<void> {
  const problem = passwordProblem(input.password);
  if (problem) throw new ApiError('unprocessable', `password: ${problem}`, { field: 'password' });
  const passwordHash = await hashPassword(input.password);
  await inTransaction(db, async (trx) => {
    const accountId = await consumeToken(trx, tokenDigest(input.token), 'reset_password', now.toISOString());
    if (accountId === undefined)
      throw new ApiError('bad_request', 'This reset link is invalid, used or expired; ask for a new one');
    await setPassword(trx, accountId, passwordHash, now.toISOString());
    // Whoever held a session before the reset loses it.
    await endAllSessions(trx, accountId);
    await audit(trx, accountId, 'password.reset', null, now);
  });
}

export async function verifyEmail(db: Kysely<Database>, token: string, now: Date): Promise<void> {
  const accountId = await consumeToken(db, tokenDigest(token), 'verify_email', now.toISOString());
  if (accountId === undefined)
    throw new ApiError('bad_request', 'This confirmation link is invalid, used or expired');
  await markEmailVerified(db, accountId, now.toISOString());
}

export async function resendVerification(context: SelfServiceContext, accountId: number): Promise<void> {
  await throttle(context, THROTTLES.mailPerIp, context.ip);
  const account = await findAccount(context.db, String(accountId));
  if (account) await sendToken(context, account, 'verify_email');
}

// ---- the signed-in account ----

export async function accountOverview(db: Kysely<Database>, accountId: number, now: Date) {
  const account = await findAccount(db, String(accountId));
  if (!account) throw new ApiError('not_found', 'This account no longer exists');
  const credentials = await findCredentials(db, accountId);
  const plan = effectivePlan(account.plan, account.trial_ends_at, now);
  return {
    account_id: account.id,
    email: account.email,
    email_verified: Boolean(credentials?.email_verified_at),
    operator: credentials?.is_operator === 1,
    plan,
    trial_ends_at: plan === 'none' ? null : account.trial_ends_at,
    trial_available: !credentials?.trial_used_at,
    balance: plan === account.plan ? account.allowance + account.credits : account.credits,
    allowance_remaining: plan === account.plan ? account.allowance : 0,
    monthly_allowance: PLAN_TERMS[plan].monthlyCredits,
    credits: account.credits,
    period_start: account.period_start,
    period_end: addMonths(account.period_start, 1),
    created_at: account.created_at,
  };
}

async function ownKey(db: Kysely<Database>, accountId: number, keyId: number) {
  const key = await findKey(db, keyId);
  // Another account's key answers exactly like a missing one.
  if (!key || key.account_id !== accountId)
    throw new ApiError('not_found', `No key ${keyId} in this account`);
  return key;
}

export const listOwnKeys = (db: Kysely<Database>, accountId: number) => keysOf(db, String(accountId));

export async function createOwnKey(
  db: Kysely<Database>,
  accountId: number,
  input: { name?: string; dailyCap?: number },
  now: Date,
  maxActiveKeys?: number,
) {
  const created = await asApiError(() => createKey(db, String(accountId), input, now, maxActiveKeys));
  await audit(
    db,
    accountId,
    'key.created',
    `key ${created.key_id} (${created.prefix}…${created.last4})`,
    now,
  );
  return created;
}

export async function revokeOwnKey(db: Kysely<Database>, accountId: number, keyId: number, now: Date) {
  await ownKey(db, accountId, keyId);
  await asApiError(() => revoke(db, keyId, now), 'conflict');
  await audit(db, accountId, 'key.revoked', `key ${keyId}`, now);
  return { key_id: keyId, status: 'revoked' as const };
}

export async function rotateOwnKey(db: Kysely<Database>, accountId: number, keyId: number, now: Date) {
  await ownKey(db, accountId, keyId);
  const rotated = await asApiError(() => rotate(db, keyId, now), 'conflict');
  await audit(db, accountId, 'key.rotated', `key ${keyId} → key ${rotated.key_id}`, now);
  return rotated;
}

export async function capOwnKey(
  db: Kysely<Database>,
  accountId: number,
  keyId: number,
  dailyCap: number,
  now: Date,
) {
  await ownKey(db, accountId, keyId);
  await asApiError(() => setKeyCap(db, keyId, dailyCap));
  await audit(db, accountId, 'key.cap', `key ${keyId} daily cap ${dailyCap}`, now);
  return { key_id: keyId, daily_cap: dailyCap };
}

/**
 * The plans a person may choose alone: back to no plan at any time, and the Core trial once (after
 * confirming the e-mail). Paid plans start when the operator records the payment
 * (`dcledger accounts plan <email> <plan> --paid`).
 */
export async function changeOwnPlan(db: Kysely<Database>, accountId: number, plan: Plan, now: Date) {
  const overview = await accountOverview(db, accountId, now);
  if (plan === overview.plan) throw new ApiError('conflict', `This account is already on ${plan}`);
  if (plan === 'core') {
    if (!overview.email_verified)
      throw new ApiError('forbidden', 'Confirm your e-mail address before starting the Core trial');
    if (!(await takeTrial(db, accountId, now.toISOString())))
      throw new ApiError(
        'payment_required',
        'The free Core trial was already used; Core continues after payment (ask the operator)',
      );
  } else if (plan !== 'none') {
    throw new ApiError(
      'payment_required',
      `The ${plan} plan starts after payment: ask the operator, who records it with \`dcledger accounts plan\``,
      { required_payment: true },
    );
  }
  await changePlan(db, String(accountId), plan, plan === 'none', now);
  await audit(
    db,
    accountId,
    'plan.changed',
    `${overview.plan} → ${plan}${plan === 'core' ? ' (trial)' : ''}`,
    now,
  );
  return accountOverview(db, accountId, now);
}

export async function ownLedger(db: Kysely<Database>, accountId: number, limit: number, before?: number) {
  const rows = await ledgerOf(db, accountId, limit, before);
  return { entries: rows, next_before: rows.length === limit ? (rows[rows.length - 1]?.id ?? null) : null };
}

export async function ownUsage(
  db: Kysely<Database>,
  accountId: number,
  query: { from?: string; to?: string; groupBy: UsageGrouping },
  now: Date,
) {
  const to = query.to ? dayBound(query.to, 'to') : new Date(now.getTime() + 1).toISOString();
  const from = query.from
    ? dayBound(query.from, 'from')
    : new Date(now.getTime() - 30 * DAY_MS).toISOString();
  if (from >= to) throw new ApiError('unprocessable', 'from: must be before to', { field: 'from' });
  const rows = await usageOf(db, accountId, { from, to }, query.groupBy);
  return {
    from,
    to,
    group_by: query.groupBy,
    totals: rows.reduce(
      (sum, row) => ({ calls: sum.calls + row.calls, credits: sum.credits + row.credits }),
      { calls: 0, credits: 0 },
    ),
    rows,
  };
}

/** YYYY-MM-DD or a full timestamp; a bare `to` day includes that whole day. */
function dayBound(value: string, side: 'from' | 'to'): string {
  const field = side;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Date.parse(`${value}T00:00:00.000Z`);
    if (Number.isNaN(day)) throw new ApiError('unprocessable', `${field}: not a date`, { field });
    return new Date(side === 'to' ? day + DAY_MS : day).toISOString();
  }
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed))
    throw new ApiError('unprocessable', `${field}: must be YYYY-MM-DD or an ISO-8601 time`, { field });
  return new Date(parsed).toISOString();
}

export const ownRecentRequests = (db: Kysely<Database>, accountId: number, limit: number) =>
  recentRequestsOf(db, accountId, limit);

export const ownAudit = (db: Kysely<Database>, accountId: number, limit: number) =>
  auditOf(db, accountId, limit);
