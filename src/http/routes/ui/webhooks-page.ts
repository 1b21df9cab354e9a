// /ui/webhooks: subscriptions of the account's keys — create with the event catalog, send a test,
// rotate the secret (shown once), delete — and the delivery log with response codes. Webhooks come
// with Pro and Max, as through the API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { effectivePlan, PLAN_TERMS } from '../../../accounts/plans.js';
import { listOwnKeys } from '../../../accounts/self-service.js';
import { ApiError, quoted } from '../../../errors.js';
import { findAccount } from '../../../storage/repositories/accounts.js';
import { catalogEvents, isEventType, sampleData } from '../../../webhooks/event-catalog.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  readDeliveryLog,
  rotateSecret,
  sendTestDelivery,
} from '../../../webhooks/subscriptions.js';
import { csrfField, type Html, html, message, scrollTable } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, pageContext, renderPage, secretField } from './forms.js';
import { pageSchema } from './schemas.js';

export function webhooksPage(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  /** The signed-in account's active key with this id, and whether its plan includes webhooks. */
  async function ownActiveKeys(request: FastifyRequest) {
    const session = request.session;
    if (!session) return null;
    const keys = (await listOwnKeys(deps.db, session.accountId)).filter((key) => key.status === 'active');
    const account = await findAccount(deps.db, String(session.accountId));
    const plan = effectivePlan(account?.plan ?? 'none', account?.trial_ends_at ?? null, deps.clock());
    return { session, keys, included: PLAN_TERMS[plan].rank >= PLAN_TERMS.pro.rank, plan };
  }

  function keyOf(keys: ReadonlyArray<{ key_id: number }>, raw: string): number {
    const id = Number(raw);
    if (!keys.some((key) => key.key_id === id))
      throw new ApiError('not_found', `No active key ${quoted(raw)} in this account`);
    return id;
  }

  const render = async (request: FastifyRequest, reply: FastifyReply, note?: Html | string, status = 200) => {
    const owned = await ownActiveKeys(request);
    if (!owned) return reply.redirect('/ui/login', 303);
    const context = pageContext(request, reply, deps);
    if (!owned.included) {
      return renderPage(
        reply,
        context,
        'Webhooks',
        '/ui/webhooks',
        html`${note ?? ''}<p>Webhooks come with the Pro and Max plans; this account is on ${owned.plan}. See <a href="/ui/credits">Credits and plan</a>.</p>`,
        status,
      );
    }
    const sections: Html[] = [];
    for (const key of owned.keys) {
      const [subscriptions, log] = await Promise.all([
        listSubscriptions(deps.db, key.key_id),
        readDeliveryLog(deps.db, key.key_id, { limit: 20, offset: 0 }),
      ]);
      const rows = subscriptions.subscriptions.map(
        (
          subscription,
        ) => html`<tr><td>${subscription.id}</td><td>${subscription.alert_type}</td><td>${subscription.webhook_url}</td><td>${subscription.filter_value ?? ''}</td><td>${subscription.status}</td>
<td><form class="inline" method="post" action="/ui/webhooks/${key.key_id}/${subscription.id}/test">${csrfField(context.csrf)}<button class="secondary" type="submit" aria-label="Send a test delivery to subscription ${subscription.id}">Send test</button></form>
<form class="inline" method="post" action="/ui/webhooks/${key.key_id}/${subscription.id}/rotate">${csrfField(context.csrf)}<button class="secondary" type="submit" aria-label="Rotate the secret of subscription ${subscription.id}">Rotate secret</button></form>
<form class="inline" method="post" action="/ui/webhooks/${key.key_id}/${subscription.id}/delete">${csrfField(context.csrf)}<button class="danger" type="submit" aria-label="Delete subscription ${subscription.id}">Delete</button></form></td></tr>`,
      );
      const deliveries = log.deliveries.map(
        (delivery) =>
          html`<tr><td>${delivery.created_at.replace('T', ' ').slice(0, 19)}</td><td>${delivery.subscription_id}</td><td>${delivery.event}${delivery.test ? ' (test)' : ''}</td><td>${delivery.status}</td><td class="num">${delivery.response_code ?? ''}</td><td class="num">${delivery.latency_ms ?? ''}</td><td>${delivery.error ?? ''}</td></tr>`,
      );
      sections.push(html`<h2>Key ${key.key}</h2>
${scrollTable(
  `Subscriptions of key ${key.key}`,
  html`<table><caption class="skip">Subscriptions of key ${key.key}</caption><thead><tr><th scope="col">Id</th><th scope="col">Event</th><th scope="col">URL</th><th scope="col">Filter</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="6">No subscriptions.</td></tr>`}</tbody></table>`,
)}
<h3>Delivery log</h3>
${scrollTable(
  `Deliveries of key ${key.key}`,
  html`<table class="deliveries"><caption class="skip">Deliveries of key ${key.key}</caption><thead><tr><th scope="col">When (UTC)</th><th scope="col">Subscription</th><th scope="col">Event</th><th scope="col">Outcome</th><th scope="col" class="num">Response</th><th scope="col" class="num">ms</th><th scope="col">Error</th></tr></thead><tbody>${deliveries.length ? deliveries : html`<tr><td colspan="7">No deliveries yet.</td></tr>`}</tbody></table>`,
)}`);
    }
    const events = catalogEvents().map(
      (event) => html`<option value="${event.event}">${event.event}: ${event.fires_when}</option>`,
    );
    const keyOptions = owned.keys.map(
      (key) => html`<option value="${key.key_id}">${key.key}${key.name ? ` (${key.name})` : ''}</option>`,
    );
    return renderPage(
      reply,
      context,
      'Webhooks',
      '/ui/webhooks',
      html`${note ?? ''}<p>Signed deliveries of new events to your HTTPS endpoint. See the <a href="/alerts/webhooks/guide">verification guide</a>.</p>
<h2>New subscription</h2>
<form method="post" action="/ui/webhooks">${csrfField(context.csrf)}
<label for="wh-key">Key it belongs to</label><select id="wh-key" name="key_id">${keyOptions}</select>
<label for="wh-event">Event</label><select id="wh-event" name="alert_type">${events}</select>
<label for="wh-url">Endpoint URL</label><input id="wh-url" name="webhook_url" type="url" required size="50" placeholder="https://example.org/hooks/dcledger">
<label for="wh-filter">Filter (optional: a ticker or member id, per event)</label><input id="wh-filter" name="filter_value" size="20">
<div><button type="submit">Create subscription</button></div></form>
${sections}`,
      status,
    );
  };

  const secretShownOnce = (secret: string, intro: string) =>
    html`<div class="notice" role="status"><p>${intro} Copy its signing secret now: it is shown this once.</p>
${secretField('webhook-secret', 'Signing secret', secret)}</div>`;

  app.get('/ui/webhooks', { schema: pageSchema('GET /ui/webhooks') }, async (request, reply) =>
    render(request, reply),
  );
  app.post('/ui/webhooks', { schema: pageSchema('POST /ui/webhooks') }, async (request, reply) => {
    const owned = await ownActiveKeys(request);
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

  app.post(
    '/ui/webhooks/:key/:id/:action',
    { schema: pageSchema('POST /ui/webhooks/:key/:id/:action') },
    async (request, reply) => {
      const owned = await ownActiveKeys(request);
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
