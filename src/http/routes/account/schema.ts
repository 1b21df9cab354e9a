// Shapes of the account area's JSON (OpenAPI tag `account`).
import { type Static, type TSchema, Type } from 'typebox';
import { PLANS } from '../../../accounts/plans.js';
import { Nullable, StringEnum } from '../../schemas/common.js';

export const TAG = ['account'];

export const Credentials = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, description: 'Your e-mail address' }),
  password: Type.String({ minLength: 1, maxLength: 200, description: 'At least 10 characters' }),
});

export const CreatedKey = Type.Object({
  key_id: Type.Integer(),
  api_key: Type.String({ description: 'Shown this once: store it now; only its hash is kept' }),
  prefix: Type.String(),
  last4: Type.String(),
  daily_cap: Type.Integer(),
});

export const Account = Type.Object({
  account_id: Type.Integer(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  operator: Type.Boolean(),
  plan: StringEnum(PLANS),
  trial_ends_at: Nullable(Type.String()),
  trial_available: Type.Boolean({ description: 'Whether the one free Core trial can still be started' }),
  balance: Type.Integer(),
  allowance_remaining: Type.Integer(),
  monthly_allowance: Type.Integer(),
  credits: Type.Integer(),
  period_start: Type.String(),
  period_end: Type.String(),
  created_at: Type.String(),
});

export const KeyId = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The key id' }) });

export const KeyView = Type.Object({
  key_id: Type.Integer(),
  key: Type.String({ description: 'Prefix and last four characters, never the whole key' }),
  name: Nullable(Type.String()),
  daily_cap: Type.Integer(),
  spent_today: Type.Integer(),
  status: Type.String({ description: 'active or revoked' }),
  revoked_at: Nullable(Type.String()),
  replaced_by: Nullable(Type.Integer()),
  last_used_at: Nullable(Type.String()),
  created_at: Type.String(),
});

export const CsrfField = Type.Optional(
  Type.String({ description: 'The CSRF token (or send the X-CSRF-Token header)' }),
);

export const Message = Type.Object({ status: Type.String(), detail: Type.String() });
export const message = (status: string, detail: string) => documented(Message, { status, detail });

/** A response schema with its example, as /openapi.json shows every answer. */
export function documented<T extends TSchema>(schema: T, example: Static<T>): T {
  return { ...schema, examples: [example] };
}

export const KEY_EXAMPLE = {
  key_id: 12,
  api_key: 'dc_3q2-7RkXbq1Jm0v8YwXyZpLr4T5uVn6sOaBcDeFgHiJ',
  prefix: 'dc_3q2-7',
  last4: 'gHiJ',
  daily_cap: 25_000,
};

export const ACCOUNT_EXAMPLE = {
  account_id: 7,
  email: 'ada@example.org',
  email_verified: true,
  operator: false,
  plan: 'core' as const,
  trial_ends_at: '2026-11-30T09:00:00.000Z',
  trial_available: false,
  balance: 25_750,
  allowance_remaining: 25_000,
  monthly_allowance: 25_000,
  credits: 750,
  period_start: '2026-11-23T09:00:00.000Z',
  period_end: '2026-12-23T09:00:00.000Z',
  created_at: '2026-11-23T08:55:00.000Z',
};
