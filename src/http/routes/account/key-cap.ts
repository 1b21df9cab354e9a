// POST /account/keys/:id/cap: sets one key's daily spend cap.
import { Type } from 'typebox';
import { capOwnKey } from '../../../accounts/self-service.js';
import { KEY_CAP_EXAMPLE, KeyCapSchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses, MAX_KEY_DAILY_CAP } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { KeyId } from './key-params.js';
import { posted } from './refusals.js';

export function accountKeyCapRoute(app: App, deps: AppDeps): void {
  app.post(
    '/account/keys/:id/cap',
    {
      schema: {
        operationId: 'accountKeyCap',
        tags: ['account'],
        summary: "Set a key's daily spend cap in credits (resets at midnight UTC)",
        params: KeyId,
        body: Type.Object({
          daily_cap: Type.Integer({ minimum: 0, maximum: MAX_KEY_DAILY_CAP }),
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
