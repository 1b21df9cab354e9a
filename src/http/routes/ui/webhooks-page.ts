// /ui/webhooks: subscriptions of the account's keys and the delivery log with response codes, and
// the form that creates a subscription with the event catalog (its signing secret shown once).
// The per-subscription actions (send a test, rotate the secret, delete) are webhooks-action.ts.
import { ApiError } from '../../../errors.js';
import { isEventType } from '../../../webhooks/event-catalog.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { createSubscription } from '../../../webhooks/subscriptions.js';
import { message } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field } from './forms.js';
import { pageSchema } from './schemas.js';
import { keyOf, ownActiveKeys, secretShownOnce, webhooksView } from './webhooks-common.js';

export function webhooksPage(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  const render = webhooksView(deps);
  app.get('/ui/webhooks', { schema: pageSchema('GET /ui/webhooks') }, async (request, reply) =>
    render(request, reply),
  );
  app.post('/ui/webhooks', { schema: pageSchema('POST /ui/webhooks') }, async (request, reply) => {
    const owned = await ownActiveKeys(deps, request);
    if (!owned) return reply.redirect('/ui/login', 303);
    return attempt(
      reply,
      async () => {
        if (!owned.included) throw new ApiError('forbidden', 'Webhooks come with the Pro and Max plans');
        const keyId = keyOf(owned.keys, field(request, 'key_id'));
        const type = field(request, 'alert_type');
        if (!isEventType(type))
          throw new ApiError('unprocessable', 'alert_type: pick an event from the list');
        const created = await createSubscription(
          deps.db,
          runtime,
          { accountId: owned.session.accountId, keyId },
          {
            alert_type: type,
            webhook_url: field(request, 'webhook_url').trim(),
            filter_value: field(request, 'filter_value') || null,
          },
          deps.clock(),
        );
        return render(
          request,
          reply,
          secretShownOnce(created.webhook_secret ?? '', `Subscription ${created.id} is created.`),
          201,
        );
      },
      (detail, status) => render(request, reply, message('error', detail), status),
    );
  });
}
