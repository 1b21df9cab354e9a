// POST /ui/webhooks/:key/:id/:action: a subscription's actions on the webhooks page: send a test
// delivery, rotate the signing secret (shown once), delete. Each answers with the page again.
import { ApiError, quoted } from '../../../errors.js';
import { sampleData } from '../../../webhooks/event-catalog.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { deleteSubscription, rotateSecret, sendTestDelivery } from '../../../webhooks/subscriptions.js';
import { message } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt } from './forms.js';
import { pageSchema } from './schemas.js';
import { keyOf, ownActiveKeys, secretShownOnce, webhooksView } from './webhooks-common.js';

export function webhooksActionRoute(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  const render = webhooksView(deps);
  app.post(
    '/ui/webhooks/:key/:id/:action',
    { schema: pageSchema('POST /ui/webhooks/:key/:id/:action') },
    async (request, reply) => {
      const owned = await ownActiveKeys(deps, request);
      if (!owned) return reply.redirect('/ui/login', 303);
      return attempt(
        reply,
        async () => {
          const keyId = keyOf(owned.keys, String(request.params.key));
          const id = request.params.id;
          const now = deps.clock();
          if (request.params.action === 'test') {
            const sent = await sendTestDelivery(
              deps.db,
              runtime,
              keyId,
              id,
              sampleData,
              now,
              request.log,
              request.id,
            );
            return render(
              request,
              reply,
              message(
                sent.delivered ? 'notice' : 'error',
                sent.delivered
                  ? `Test delivered: the endpoint answered ${sent.status_code}.`
                  : `Test failed: ${sent.error ?? `status ${sent.status_code}`}`,
              ),
            );
          }
          if (request.params.action === 'rotate') {
            const rotated = await rotateSecret(deps.db, runtime, keyId, id, undefined, now);
            return render(
              request,
              reply,
              secretShownOnce(rotated.webhook_secret, `Subscription ${id} has a new secret.`),
            );
          }
          if (request.params.action === 'delete') {
            await deleteSubscription(deps.db, keyId, id, now);
            return render(request, reply, message('notice', `Subscription ${id} is deleted.`));
          }
          throw new ApiError('not_found', `No action ${quoted(request.params.action)}`);
        },
        (detail, status) => render(request, reply, message('error', detail), status),
      );
    },
  );
}
