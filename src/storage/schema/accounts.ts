// The tables of API accounts: accounts, keys, the credit ledger and top-ups, the request log,
// self-service sign-up, sessions, tokens, mail and payments, the audit log and idempotency keys.
import type { ColumnType, Generated } from 'kysely';
import type { LedgerKind } from '../ledger-kinds.js';

export interface AccountsTable {
  id: Generated<number>;
  email: string;
  /** none | core | pro | max */
  plan: string;
  /** Set while a plan runs on its free trial; the plan lapses to none after it. */
  trial_ends_at: string | null;
  /** Start of the current billing period (the monthly allowance renews each month from it). */
  period_start: string;
  /** Plan credits left in this period; spent first, not carried over. */
  allowance: number;
  /** Sign-up, granted and bought credits; spent after the allowance, never expire. */
  credits: number;
  created_at: string;
  updated_at: string;
  /**
   * The operator's custom requests-per-minute limit (`dcledger accounts limit`, migration
   * 0017-performance); null: the plan's limit, raised by recent top-ups.
   */
  requests_per_minute: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  prefix: string;
  last4: string;
  name: string | null;
  daily_cap: number;
  /** UTC day (YYYY-MM-DD) that spent_today counts. */
  spent_day: string | null;
  spent_today: number;
  revoked_at: string | null;
  replaced_by: number | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: number;
  key_id: number | null;
  kind: LedgerKind;
  amount: number;
  request_id: string | null;
  route: string | null;
  note: string | null;
  created_at: string;
}

export interface TopupsTable {
  id: Generated<number>;
  account_id: number;
  amount_cents: number;
  credits: number;
  paid_at: string;
  created_at: string;
}

export interface RequestLogTable {
  id: Generated<number>;
  account_id: number;
  key_id: number;
  request_id: string;
  method: string;
  route: string;
  status: number;
  charge: number;
  created_at: string;
}

// Self-service accounts (migration 0011-self-service).
export interface AccountCredentialsTable {
  account_id: number;
  password_hash: string;
  email_verified_at: string | null;
  is_operator: number;
  trial_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccountSessionsTable {
  token_hash: string;
  account_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface AccountTokensTable {
  token_hash: string;
  account_id: number;
  purpose: 'verify_email' | 'reset_password';
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

export interface PaymentIntentsTable {
  id: Generated<number>;
  account_id: number;
  provider: string;
  external_id: string | null;
  amount_cents: number;
  status: 'pending' | 'paid' | 'cancelled';
  created_at: string;
  settled_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: number;
  actor: 'user' | 'operator' | 'provider';
  action: string;
  detail: string | null;
  created_at: string;
}

/** A POST's Idempotency-Key: its claim and, once done, the answer to replay (migration 0015). */
export interface IdempotencyKeysTable {
  scope: string;
  /** SHA-256 of the Idempotency-Key: the key itself, which decrypts the stored answer, is never stored. */
  key_hash: string;
  route: string;
  request_hash: string;
  /** pending | done */
  state: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
  expires_at: string;
}

/** A sign-up waiting for its address to be confirmed (migration 0020); no account exists yet. */
export interface SignupRequestsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface AccountsTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  topups: TopupsTable;
  request_log: RequestLogTable;
  account_credentials: AccountCredentialsTable;
  account_sessions: AccountSessionsTable;
  account_tokens: AccountTokensTable;
  mail_outbox: MailOutboxTable;
  payment_intents: PaymentIntentsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  signup_requests: SignupRequestsTable;
}
