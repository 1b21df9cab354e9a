// GET /account/csrf: the CSRF token the next POST sends.
import { CSRF_TOKEN_EXAMPLE, CsrfTokenSchema } from '../../../resources/session.js';
import { csrfTokenFor } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function accountCsrfRoute(app: App, deps: AppDeps): void {
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
}
