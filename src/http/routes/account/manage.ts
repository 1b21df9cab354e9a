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
  ApiKeySchema,
  CREATED_KEY_EXAMPLE,
  CreatedKeySchema,
} from '../../../resources/account.js';
import { LEDGER_KIND_MEANINGS, LEDGER_KINDS } from '../../../storage/ledger-kinds.js';
import { linkBase, requireSession } from '../../plugins/session.js';
import { documented, errorResponses, Nullable, StringEnum } from '../../schemas/common.js';
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
          200: documented(Type.Object({ keys: Type.Array(ApiKeySchema) }), {
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
          }),
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
          200: documented(Type.Object({ key_id: Type.Integer(), status: Type.String() }), {
            key_id: 12,
            status: 'revoked',
          }),
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
          200: documented(Type.Object({ ...CreatedKeySchema.properties, replaced_key_id: Type.Integer() }), {
            ...CREATED_KEY_EXAMPLE,
            key_id: 13,
            replaced_key_id: 12,
          }),
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
          200: documented(Type.Object({ key_id: Type.Integer(), daily_cap: Type.Integer() }), {
            key_id: 12,
            daily_cap: 5000,
          }),
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
          201: documented(
            Type.Object({
              intent_id: Type.Integer(),
              provider: Type.String(),
              status: Type.String(),
              amount_usd: Type.Number(),
              credits: Type.Integer(),
              pay_url: Nullable(
                Type.String({ description: 'Where to pay (Stripe Checkout); null for manual' }),
              ),
              instructions: Type.String(),
            }),
            {
              intent_id: 3,
              provider: 'manual',
              status: 'pending',
              amount_usd: 25,
              credits: 25_000,
              pay_url: null,
              instructions:
                'Pay the operator $25.00 quoting intent 3; the credits arrive when the operator confirms it.',
            },
          ),
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
          200: documented(
            Type.Object({
              entries: Type.Array(
                Type.Object({
                  id: Type.Integer(),
                  kind: StringEnum(LEDGER_KINDS, {
                    description: `What the line records: ${LEDGER_KINDS.map((kind) => `${kind}, ${LEDGER_KIND_MEANINGS[kind]}`).join('; ')}`,
                  }),
                  amount: Type.Integer(),
                  key_id: Nullable(Type.Integer()),
                  route: Nullable(Type.String()),
                  request_id: Nullable(Type.String()),
                  note: Nullable(Type.String()),
                  created_at: Type.String(),
                }),
              ),
              next_before: Nullable(Type.Integer()),
            }),
            {
              entries: [
                {
                  id: 41,
                  kind: 'charge',
                  amount: -40,
                  key_id: 12,
                  route: 'GET /trades',
                  request_id: '0d9f6c1e-7b1a-4c55-9d1e-5b8f3e0a2c11',
                  note: null,
                  created_at: '2026-11-23T10:02:11.000Z',
                },
                {
                  id: 2,
                  kind: 'grant',
                  amount: 750,
                  key_id: null,
                  route: null,
                  request_id: null,
                  note: 'sign-up',
                  created_at: '2026-11-23T08:55:00.000Z',
                },
              ],
              next_before: null,
            },
          ),
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
          200: documented(
            Type.Object({
              from: Type.String(),
              to: Type.String(),
              group_by: Type.String(),
              totals: Type.Object({ calls: Type.Integer(), credits: Type.Integer() }),
              rows: Type.Array(
                Type.Object({
                  bucket: Type.String({ description: 'The day, the route ("GET /trades") or the key id' }),
                  calls: Type.Integer(),
                  credits: Type.Integer(),
                  errors: Type.Integer(),
                }),
              ),
            }),
            {
              from: '2026-10-24T10:00:00.000Z',
              to: '2026-11-23T10:00:00.001Z',
              group_by: 'endpoint',
              totals: { calls: 3, credits: 45 },
              rows: [
                { bucket: 'GET /stats/summary', calls: 1, credits: 5, errors: 0 },
                { bucket: 'GET /trades', calls: 2, credits: 40, errors: 0 },
              ],
            },
          ),
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
          200: documented(
            Type.Object({
              requests: Type.Array(
                Type.Object({
                  created_at: Type.String(),
                  method: Type.String(),
                  route: Type.String(),
                  status: Type.Integer(),
                  charge: Type.Integer(),
                  request_id: Type.String(),
                  key_id: Type.Integer(),
                }),
              ),
            }),
            {
              requests: [
                {
                  created_at: '2026-11-23T10:02:11.000Z',
                  method: 'GET',
                  route: 'GET /trades',
                  status: 200,
                  charge: 20,
                  request_id: '0d9f6c1e-7b1a-4c55-9d1e-5b8f3e0a2c11',
                  key_id: 12,
                },
              ],
            },
          ),
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
          200: documented(
            Type.Object({
              events: Type.Array(
                Type.Object({
                  id: Type.Integer(),
                  actor: Type.String(),
                  action: Type.String(),
                  detail: Nullable(Type.String()),
                  created_at: Type.String(),
                }),
              ),
            }),
            {
              events: [
                {
                  id: 5,
                  actor: 'user',
                  action: 'key.revoked',
                  detail: 'key 12',
                  created_at: '2026-11-23T10:05:00.000Z',
                },
              ],
            },
          ),
          ...signedIn,
        },
      },
    },
    async (request) => ({ events: await ownAudit(deps.db, requireSession(request).accountId, 200) }),
  );
}
