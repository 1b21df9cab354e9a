// Sign-up, sign-in, sign-out, the CSRF token, e-mail confirmation and password reset.

import { Type } from 'typebox';
import {
  confirmSignUp,
  logIn,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  SIGN_UP_PENDING,
  signUp,
  verifyEmail,
} from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { MessageSchema } from '../../../resources/account.js';
import {
  CSRF_TOKEN_EXAMPLE,
  CsrfTokenSchema,
  SIGN_UP_CONFIRMED_EXAMPLE,
  SIGNED_IN_EXAMPLE,
  SignedInSchema,
  SignUpConfirmedSchema,
} from '../../../resources/session.js';
import {
  type ContextOf,
  clearSessionCookie,
  csrfTokenFor,
  requireSession,
  setSessionCookie,
} from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';

const Credentials = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, description: 'Your e-mail address' }),
  password: Type.String({ minLength: 1, maxLength: 200, description: 'At least 10 characters' }),
});

const message = (status: string, detail: string) => documented(MessageSchema, { status, detail });

const Token = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }), _csrf: CsrfField });

export function authRoutes(app: App, deps: AppDeps, contextOf: ContextOf): void {
  app.get(
    '/account/csrf',
    {
      schema: {
        operationId: 'accountCsrf',
        tags: ['account'],
        summary: 'The CSRF token to send (X-CSRF-Token header or _csrf field) with the next POST',
        response: {
          200: documented(CsrfTokenSchema, CSRF_TOKEN_EXAMPLE),
        },
      },
    },
    async (request, reply) => ({
      csrf_token: csrfTokenFor(request, reply, deps),
      signed_in: request.session !== null,
    }),
  );

  app.post(
    '/account/signup',
    {
      schema: {
        operationId: 'accountSignup',
        tags: ['account'],
        summary:
          'Start a sign-up: mails a link that creates the account (750 free credits, first key shown once). The same answer for every address',
        description:
          'Verify first: no account exists until the mailed link is followed (POST /account/signup/confirm). An address that already has an account gets the same 202 and a mail telling its owner to sign in or reset the password, so the answer never tells whether an address is registered.',
        body: Type.Object({ ...Credentials.properties, _csrf: CsrfField }),
        response: {
          202: message('pending', SIGN_UP_PENDING),
          ...errorResponses(403, 422, 429),
        },
      },
    },
    async (request, reply) => {
      await signUp(contextOf(request), request.body);
      reply.code(202);
      return { status: 'pending', detail: SIGN_UP_PENDING };
    },
  );

  app.post(
    '/account/signup/confirm',
    {
      schema: {
        operationId: 'accountSignupConfirm',
        tags: ['account'],
        summary:
          'Finish a sign-up with the token from its mail: creates the account with 750 credits and its first API key (shown this once); signs you in',
        body: Token,
        response: {
          201: documented(SignUpConfirmedSchema, SIGN_UP_CONFIRMED_EXAMPLE),
          ...errorResponses(400, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const previous = request.cookies[SESSION_COOKIE];
      const { account, session } = await confirmSignUp(contextOf(request), request.body.token);
      await endSession(deps.db, previous);
      setSessionCookie(reply, deps, session.token);
      reply.code(201);
      return {
        account_id: account.account_id,
        email: account.email,
        plan: account.plan,
        credits: account.credits,
        key: account.key,
        csrf_token: session.csrfToken,
        email_verification: 'confirmed',
      };
    },
  );

  app.post(
    '/account/login',
    {
      schema: {
        operationId: 'accountLogin',
        tags: ['account'],
        summary: 'Sign in: sets a new session cookie (any earlier one is dropped)',
        description:
          'A wrong password and an unknown address get the same 401. A sign-up whose link was not followed yet answers 403 (confirm first) only when the password is the one chosen at sign-up.',
        body: Type.Object({ ...Credentials.properties, _csrf: CsrfField }),
        response: {
          200: documented(SignedInSchema, SIGNED_IN_EXAMPLE),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const previous = request.cookies[SESSION_COOKIE];
      const { accountId, emailVerified, session } = await logIn(contextOf(request), request.body);
      // A fresh id at every sign-in: whatever id the browser carried before is ended, never promoted.
      await endSession(deps.db, previous);
      setSessionCookie(reply, deps, session.token);
      return { account_id: accountId, csrf_token: session.csrfToken, email_verified: emailVerified };
    },
  );

  app.post(
    '/account/logout',
    {
      schema: {
        operationId: 'accountLogout',
        tags: ['account'],
        summary: 'Sign out: ends this session',
        body: Type.Optional(Type.Object({ _csrf: CsrfField })),
        response: { 200: message('signed_out', 'The session has ended'), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await endSession(deps.db, request.cookies[SESSION_COOKIE]);
      clearSessionCookie(reply, deps);
      return { status: 'signed_out', detail: 'The session has ended' };
    },
  );

  app.post(
    '/account/verify-email',
    {
      schema: {
        operationId: 'accountVerifyEmail',
        tags: ['account'],
        summary: 'Confirm the e-mail address with the token from the mail',
        body: Token,
        response: {
          200: message('verified', 'Your e-mail address is confirmed'),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request) => {
      await verifyEmail(deps.db, request.body.token, deps.clock());
      return { status: 'verified', detail: 'Your e-mail address is confirmed' };
    },
  );

  app.post(
    '/account/verify-email/resend',
    {
      schema: {
        operationId: 'accountResendVerification',
        tags: ['account'],
        summary: 'Send the confirmation mail again (signed in)',
        body: Type.Optional(Type.Object({ _csrf: CsrfField })),
        response: {
          202: message('sent', 'A confirmation mail is on its way'),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      await resendVerification(contextOf(request), session.accountId);
      reply.code(202);
      return { status: 'sent', detail: 'A confirmation mail is on its way' };
    },
  );

  app.post(
    '/account/password-reset',
    {
      schema: {
        operationId: 'accountPasswordReset',
        tags: ['account'],
        summary: 'Mail a password-reset link (the same answer whether or not the address has an account)',
        body: Type.Object({ email: Credentials.properties.email, _csrf: CsrfField }),
        response: {
          202: message('sent', 'If an account uses this address, a reset link is on its way'),
          ...errorResponses(403, 429),
        },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(contextOf(request), request.body.email);
      reply.code(202);
      return { status: 'sent', detail: 'If an account uses this address, a reset link is on its way' };
    },
  );

  app.post(
    '/account/password-reset/confirm',
    {
      schema: {
        operationId: 'accountPasswordResetConfirm',
        tags: ['account'],
        summary: 'Set a new password with the token from the reset mail; ends every session of the account',
        body: Type.Object({ ...Token.properties, password: Credentials.properties.password }),
        response: {
          200: message('reset', 'Your password is changed; sign in with it'),
          ...errorResponses(400, 403, 422),
        },
      },
    },
    async (request) => {
      await resetPassword(deps.db, request.body, deps.clock());
      return { status: 'reset', detail: 'Your password is changed; sign in with it' };
    },
  );
}
