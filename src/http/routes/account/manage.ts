// The signed-in account: overview, keys, plan, top-ups, ledger, usage, recent calls, audit log.
import { Type } from 'typebox';
import type { PaymentProvider } from '../../../accounts/payments.js';
import { requestTopup } from '../../../accounts/payments.js';
import {
  accountOverview,
  capOwnKey,
  changeOwnPlan,
  createOwnKey,
  listOwnKeys,
  ownAudit,
  ownLedger,
  ownRecentRequests,
  ownUsage,
  revokeOwnKey,
  rotateOwnKey,
} from '../../../accounts/self-service.js';
import { PLANS } from '../../../domain/plans.js';
import {
  ACCOUNT_EXAMPLE,
  AccountSchema,
  CREATED_KEY_EXAMPLE,
  CreatedKeySchema,
  KEY_CAP_EXAMPLE,
  KEY_LIST_EXAMPLE,
  KeyCapSchema,
  KeyListSchema,
  REVOKED_KEY_EXAMPLE,
  RevokedKeySchema,
  ROTATED_KEY_EXAMPLE,
  RotatedKeySchema,
} from '../../../resources/account.js';
import { AUDIT_LOG_EXAMPLE, AuditLogSchema } from '../../../resources/audit.js';
import { LEDGER_PAGE_EXAMPLE, LedgerPageSchema } from '../../../resources/ledger.js';
import { TOPUP_INTENT_EXAMPLE, TopupIntentSchema } from '../../../resources/topup.js';
import {
  RECENT_REQUESTS_EXAMPLE,
  RecentRequestsSchema,
  USAGE_REPORT_EXAMPLE,
  UsageReportSchema,
} from '../../../resources/usage.js';
import { linkBase, requireSession } from '../../plugins/session.js';
import { documented, errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';

const KeyId = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The key id' }) });

const NoBody = Type.Optional(Type.Object({ _csrf: CsrfField }));
const signedIn = errorResponses(401);
const posted = errorResponses(401, 403);

export function manageRoutes(app: App, deps: AppDeps, payments: PaymentProvider): void {
  app.get(
    '/account',
    {
      schema: {
        operationId: 'accountShow',
        tags: ['account'],
        summary: 'The signed-in account: plan, balance, allowance, e-mail status',
        response: { 200: documented(AccountSchema, ACCOUNT_EXAMPLE), ...signedIn },
      },
    },
    async (request) => accountOverview(deps.db, requireSession(request).accountId, deps.clock()),
  );

  app.get(
    '/account/keys',
    {
      schema: {
        operationId: 'accountKeys',
        tags: ['account'],
        summary: 'Your API keys by prefix and last four characters',
        response: {
          200: documented(KeyListSchema, KEY_LIST_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) => ({ keys: await listOwnKeys(deps.db, requireSession(request).accountId) }),
  );

  app.post(
    '/account/keys',
    {
      schema: {
        operationId: 'accountKeyCreate',
        tags: ['account'],
        summary: 'Create an API key; the answer is the only time it is shown',
        body: Type.Optional(
          Type.Object({
            name: Type.Optional(Type.String({ maxLength: 80 })),
            daily_cap: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
            _csrf: CsrfField,
          }),
        ),
        response: {
          201: documented(CreatedKeySchema, CREATED_KEY_EXAMPLE),
          ...posted,
          ...errorResponses(409, 422),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      const body = request.body ?? {};
      const created = await createOwnKey(
        deps.db,
        session.accountId,
        { name: body.name?.trim() || undefined, dailyCap: body.daily_cap },
        deps.clock(),
        deps.selfService?.maxKeysPerAccount,
      );
      reply.code(201);
      return created;
    },
  );

  app.post(
    '/account/keys/:id/revoke',
    {
      schema: {
        operationId: 'accountKeyRevoke',
        tags: ['account'],
        summary: 'Revoke a key at once (calls with it answer 403)',
        params: KeyId,
        body: NoBody,
        response: {
          200: documented(RevokedKeySchema, REVOKED_KEY_EXAMPLE),
          ...posted,
          ...errorResponses(404, 409),
        },
      },
    },
    async (request) =>
      revokeOwnKey(deps.db, requireSession(request).accountId, request.params.id, deps.clock()),
  );

  app.post(
    '/account/keys/:id/rotate',
    {
      schema: {
        operationId: 'accountKeyRotate',
        tags: ['account'],
        summary:
          'Replace a key with a new one (shown once); the old key is revoked and its webhooks move over',
        params: KeyId,
        body: NoBody,
        response: {
          200: documented(RotatedKeySchema, ROTATED_KEY_EXAMPLE),
          ...posted,
          ...errorResponses(404, 409),
        },
      },
    },
    async (request) =>
      rotateOwnKey(deps.db, requireSession(request).accountId, request.params.id, deps.clock()),
  );

  app.post(
    '/account/keys/:id/cap',
    {
      schema: {
        operationId: 'accountKeyCap',
        tags: ['account'],
        summary: "Set a key's daily spend cap in credits (resets at midnight UTC)",
        params: KeyId,
        body: Type.Object({
          daily_cap: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
          _csrf: CsrfField,
        }),
        response: {
          200: documented(KeyCapSchema, KEY_CAP_EXAMPLE),
          ...posted,
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) =>
      capOwnKey(
        deps.db,
        requireSession(request).accountId,
        request.params.id,
        request.body.daily_cap,
        deps.clock(),
      ),
  );

  app.post(
    '/account/plan',
    {
      schema: {
        operationId: 'accountPlan',
        tags: ['account'],
        summary:
          'Change plan: back to none at any time, or start the 7-day Core trial once; paid plans start after payment',
        body: Type.Object({ plan: StringEnum(PLANS), _csrf: CsrfField }),
        response: {
          200: documented(AccountSchema, ACCOUNT_EXAMPLE),
          ...posted,
          ...errorResponses(402, 409, 422),
        },
      },
    },
    async (request) =>
      changeOwnPlan(deps.db, requireSession(request).accountId, request.body.plan, deps.clock()),
  );

  app.post(
    '/account/topups',
    {
      schema: {
        operationId: 'accountTopup',
        tags: ['account'],
        summary: 'Buy credits (1,000 per dollar) through the configured payment provider',
        body: Type.Object({ amount_usd: Type.Number({ minimum: 0 }), _csrf: CsrfField }),
        response: {
          201: documented(TopupIntentSchema, TOPUP_INTENT_EXAMPLE),
          ...posted,
          ...errorResponses(422, 502),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      const intent = await requestTopup(
        deps.db,
        payments,
        {
          accountId: session.accountId,
          email: session.email,
          dollars: request.body.amount_usd,
          returnUrl: `${linkBase(request, deps)}/ui/credits`,
        },
        deps.clock(),
      );
      reply.code(201);
      return intent;
    },
  );

  app.get(
    '/account/ledger',
    {
      schema: {
        operationId: 'accountLedger',
        tags: ['account'],
        summary: 'Credit ledger: grants, top-ups, allowances and charges, newest first',
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
          before: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Entries with a smaller id (paging)' }),
          ),
        }),
        response: {
          200: documented(LedgerPageSchema, LEDGER_PAGE_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) =>
      ownLedger(deps.db, requireSession(request).accountId, request.query.limit, request.query.before),
  );

  app.get(
    '/account/usage',
    {
      schema: {
        operationId: 'accountUsage',
        tags: ['account'],
        summary: 'Calls and credits charged, by UTC day, endpoint or key',
        querystring: Type.Object({
          from: Type.Optional(
            Type.String({ maxLength: 40, description: 'YYYY-MM-DD or ISO time (default: 30 days ago)' }),
          ),
          to: Type.Optional(
            Type.String({ maxLength: 40, description: 'YYYY-MM-DD (inclusive) or ISO time (default: now)' }),
          ),
          group_by: StringEnum(['day', 'endpoint', 'key'] as const, { default: 'day' }),
        }),
        response: {
          200: documented(UsageReportSchema, USAGE_REPORT_EXAMPLE),
          ...signedIn,
          ...errorResponses(422),
        },
      },
    },
    async (request) =>
      ownUsage(
        deps.db,
        requireSession(request).accountId,
        { from: request.query.from, to: request.query.to, groupBy: request.query.group_by },
        deps.clock(),
      ),
  );

  app.get(
    '/account/requests',
    {
      schema: {
        operationId: 'accountRequests',
        tags: ['account'],
        summary: 'The latest keyed calls with status and cost',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 100 }) }),
        response: {
          200: documented(RecentRequestsSchema, RECENT_REQUESTS_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) => ({
      requests: await ownRecentRequests(deps.db, requireSession(request).accountId, request.query.limit),
    }),
  );

  app.get(
    '/account/audit',
    {
      schema: {
        operationId: 'accountAudit',
        tags: ['account'],
        summary: 'Audit log of key, plan and payment events',
        response: {
          200: documented(AuditLogSchema, AUDIT_LOG_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) => ({ events: await ownAudit(deps.db, requireSession(request).accountId, 200) }),
  );
}
