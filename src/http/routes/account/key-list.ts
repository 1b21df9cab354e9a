// GET /account/keys: the signed-in account's API keys.
import { listOwnKeys } from '../../../accounts/self-service.js';
import { KEY_LIST_EXAMPLE, KeyListSchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountKeyListRoute(app: App, deps: AppDeps): void {
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
}
