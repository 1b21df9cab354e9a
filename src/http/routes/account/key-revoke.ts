// POST /account/keys/:id/revoke: revokes one of the account's keys at once.
import { revokeOwnKey } from '../../../accounts/self-service.js';
import { REVOKED_KEY_EXAMPLE, RevokedKeySchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { KeyId, NoBody } from './key-params.js';
import { posted } from './refusals.js';

export function accountKeyRevokeRoute(app: App, deps: AppDeps): void {
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
}
