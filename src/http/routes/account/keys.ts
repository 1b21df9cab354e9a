// The signed-in account's API keys: list, create, revoke, rotate and cap (/account/keys).
import { Type } from 'typebox';
import {
  capOwnKey,
  createOwnKey,
  listOwnKeys,
  revokeOwnKey,
  rotateOwnKey,
} from '../../../accounts/self-service.js';
import {
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
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { posted, signedIn } from './refusals.js';

const KeyId = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The key id' }) });

const NoBody = Type.Optional(Type.Object({ _csrf: CsrfField }));

export function accountKeyRoutes(app: App, deps: AppDeps): void {
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
}
