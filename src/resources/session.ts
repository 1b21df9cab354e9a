// What signing in answers (OpenAPI tag `account`): the CSRF token for the next POST, the new
// account a confirmed sign-up opens (with its first key, shown this once), and a sign-in. Schemas,
// types and examples written once here; the credentials and tokens sent stay with the routes.
import { type Static, Type } from 'typebox';
import { CREATED_KEY_EXAMPLE, CreatedKeySchema } from './account.js';

const EXAMPLE_TOKEN = 'kP3v9sQeXw1tYb7LmN0oRa2cUd4fGh6iJk8lZx5yAq0';

export const CsrfTokenSchema = Type.Object({ csrf_token: Type.String(), signed_in: Type.Boolean() });
export type CsrfToken = Static<typeof CsrfTokenSchema>;
export const CSRF_TOKEN_EXAMPLE: CsrfToken = { csrf_token: EXAMPLE_TOKEN, signed_in: false };

export const SignUpConfirmedSchema = Type.Object({
  account_id: Type.Integer(),
  email: Type.String(),
  plan: Type.String(),
  credits: Type.Integer(),
  key: CreatedKeySchema,
  csrf_token: Type.String({ description: "The session's CSRF token for the next POSTs" }),
  email_verification: Type.String({ description: 'confirmed: the link proved the address' }),
});

export type SignUpConfirmed = Static<typeof SignUpConfirmedSchema>;

export const SIGN_UP_CONFIRMED_EXAMPLE: SignUpConfirmed = {
  account_id: 7,
  email: 'ada@example.org',
  plan: 'none',
  credits: 750,
  key: CREATED_KEY_EXAMPLE,
  csrf_token: EXAMPLE_TOKEN,
  email_verification: 'confirmed',
};

export const SignedInSchema = Type.Object({
  account_id: Type.Integer(),
  csrf_token: Type.String(),
  email_verified: Type.Boolean({
    description:
      'false for an older account whose address was never confirmed (POST /account/verify-email/resend mails a link)',
  }),
});

export type SignedIn = Static<typeof SignedInSchema>;

export const SIGNED_IN_EXAMPLE: SignedIn = { account_id: 7, csrf_token: EXAMPLE_TOKEN, email_verified: true };
