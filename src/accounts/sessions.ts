// Browser sessions of the account area: a random cookie value (stored only as its SHA-256) with a
// CSRF token bound to it. A login always makes a new session, so an id planted before sign-in
// (session fixation) is never the one that becomes authenticated.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  findSession,
  insertSession,
} from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';

export const SESSION_COOKIE = 'dc_session';
/** The pre-session CSRF cookie (double submit) for the sign-up, sign-in and reset forms. */
export const CSRF_COOKIE = 'dc_csrf';
export const SESSION_TTL_MS = 7 * 86_400_000;

export interface Session {
  accountId: number;
  email: string;
  csrfToken: string;
  isOperator: boolean;
  emailVerified: boolean;
  tokenHash: string;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two strings in constant time (lengths may differ). */
export function sameSecret(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length && a.length > 0;
}

export async function startSession(db: Kysely<Database>, accountId: number, now: Date) {
  await deleteExpiredSessions(db, accountId, now.toISOString());
  const token = randomToken();
  const csrfToken = randomToken();
  await insertSession(
    db,
    {
      tokenHash: tokenDigest(token),
      accountId,
      csrfToken,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    },
    now.toISOString(),
  );
  return { token, csrfToken };
}

export async function readSession(
  db: Kysely<Database>,
  token: string | undefined,
  now: Date,
): Promise<Session | null> {
  if (!token || token.length > 100) return null;
  const row = await findSession(db, tokenDigest(token), now.toISOString());
  if (!row) return null;
  return {
    accountId: row.account_id,
    email: row.email,
    csrfToken: row.csrf_token,
    isOperator: row.is_operator === 1,
    emailVerified: row.email_verified_at !== null,
    tokenHash: row.token_hash,
  };
}

export async function endSession(db: Kysely<Database>, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, tokenDigest(token));
}

export const endAllSessions = deleteSessionsOf;
