// The account and its keys as the API serves them (OpenAPI tag `account`): the account, an API key
// as created (the only time the whole key is shown), as the key list shows it and as revoking,
// rotating and capping one answer, and the status message an action answers. Schemas, types and
// examples written once here; the requests stay with the routes. The account's ledger, usage,
// audit log, top-ups and sign-in answers each have their own file.
import { type Static, Type } from 'typebox';
import { PLANS } from '../domain/plans.js';
import { Nullable, StringEnum } from './schema.js';

export const AccountSchema = Type.Object({
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

export type Account = Static<typeof AccountSchema>;

export const ACCOUNT_EXAMPLE: Account = {
  account_id: 7,
  email: 'ada@example.org',
  email_verified: true,
  operator: false,
  plan: 'core',
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

export const CreatedKeySchema = Type.Object({
  key_id: Type.Integer(),
  api_key: Type.String({ description: 'Shown this once: store it now; only its hash is kept' }),
  prefix: Type.String(),
  last4: Type.String(),
  daily_cap: Type.Integer(),
});

export type CreatedKey = Static<typeof CreatedKeySchema>;

export const CREATED_KEY_EXAMPLE: CreatedKey = {
  key_id: 12,
  api_key: 'dc_3q2-7RkXbq1Jm0v8YwXyZpLr4T5uVn6sOaBcDeFgHiJ',
  prefix: 'dc_3q2-7',
  last4: 'gHiJ',
  daily_cap: 25_000,
};

export const ApiKeySchema = Type.Object({
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

export type ApiKey = Static<typeof ApiKeySchema>;

export const KeyListSchema = Type.Object({ keys: Type.Array(ApiKeySchema) });
export type KeyList = Static<typeof KeyListSchema>;

export const KEY_LIST_EXAMPLE: KeyList = {
  keys: [
    {
      key_id: 12,
      key: 'dc_3q2-7…gHiJ',
      name: 'production',
      daily_cap: 25_000,
      spent_today: 690,
      status: 'active',
      revoked_at: null,
      replaced_by: null,
      last_used_at: '2026-11-23T10:02:11.000Z',
      created_at: '2026-11-23T08:55:00.000Z',
    },
  ],
};

export const RevokedKeySchema = Type.Object({ key_id: Type.Integer(), status: Type.String() });
export type RevokedKey = Static<typeof RevokedKeySchema>;
export const REVOKED_KEY_EXAMPLE: RevokedKey = { key_id: 12, status: 'revoked' };

/** The new key (shown this once) that replaced `replaced_key_id`. */
export const RotatedKeySchema = Type.Object({
  ...CreatedKeySchema.properties,
  replaced_key_id: Type.Integer(),
});
export type RotatedKey = Static<typeof RotatedKeySchema>;
export const ROTATED_KEY_EXAMPLE: RotatedKey = { ...CREATED_KEY_EXAMPLE, key_id: 13, replaced_key_id: 12 };

export const KeyCapSchema = Type.Object({ key_id: Type.Integer(), daily_cap: Type.Integer() });
export type KeyCap = Static<typeof KeyCapSchema>;
export const KEY_CAP_EXAMPLE: KeyCap = { key_id: 12, daily_cap: 5000 };

export const MessageSchema = Type.Object({ status: Type.String(), detail: Type.String() });
export type Message = Static<typeof MessageSchema>;
