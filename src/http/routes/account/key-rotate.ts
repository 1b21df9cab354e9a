// POST /account/keys/:id/rotate: replaces one of the account's keys with a new one.
import { rotateOwnKey } from '../../../accounts/self-service.js';
import { ROTATED_KEY_EXAMPLE, RotatedKeySchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { KeyId, NoBody } from './key-params.js';
import { posted } from './refusals.js';

export function accountKeyRotateRoute(app: App, deps: AppDeps): void {
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
}
