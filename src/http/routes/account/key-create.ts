// POST /account/keys: creates an API key, shown this once.
import { Type } from 'typebox';
import { createOwnKey } from '../../../accounts/self-service.js';
import { CREATED_KEY_EXAMPLE, CreatedKeySchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses, MAX_KEY_DAILY_CAP } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { posted } from './refusals.js';

export function accountKeyCreateRoute(app: App, deps: AppDeps): void {
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
            daily_cap: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_KEY_DAILY_CAP })),
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
}
