// What the webhooks pages share (/ui/webhooks and its per-subscription actions): the account's
// active keys and whether its plan includes webhooks, the page itself with a note, and the
// once-shown signing secret. Webhooks come with Pro and Max, as through the API.
import type { FastifyRequest } from 'fastify';
import { effectivePlan, PLAN_TERMS } from '../../../accounts/plans.js';
import { listOwnKeys } from '../../../accounts/self-service.js';
import { ApiError, quoted } from '../../../errors.js';
import { findAccount } from '../../../storage/repositories/accounts.js';
import { catalogEvents } from '../../../webhooks/event-catalog.js';
import { listSubscriptions, readDeliveryLog } from '../../../webhooks/subscriptions.js';
import { csrfField, type Html, html, scrollTable } from '../../pages/html.js';
import type { AppDeps } from '../../types.js';
import { type NotedPage, pageContext, renderPage, secretField } from './forms.js';

/** The signed-in account's active keys, its plan, and whether that plan includes webhooks. */
export async function ownActiveKeys(deps: AppDeps, request: FastifyRequest) {
  const session = request.session;
  if (!session) return null;
  const keys = (await listOwnKeys(deps.db, session.accountId)).filter((key) => key.status === 'active');
  const account = await findAccount(deps.db, String(session.accountId));
  const plan = effectivePlan(account?.plan ?? 'none', account?.trial_ends_at ?? null, deps.clock());
  return { session, keys, included: PLAN_TERMS[plan].rank >= PLAN_TERMS.pro.rank, plan };
}

export function keyOf(keys: ReadonlyArray<{ key_id: number }>, raw: string): number {
  const id = Number(raw);
  if (!keys.some((key) => key.key_id === id))
    throw new ApiError('not_found', `No active key ${quoted(raw)} in this account`);
  return id;
}

/** The webhooks page of the signed-in account, with a note (a notice, or a refusal's reason). */
export function webhooksView(deps: AppDeps): NotedPage {
  return async (request, reply, note, status = 200) => {
    const owned = await ownActiveKeys(deps, request);
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
}

export const secretShownOnce = (secret: string, intro: string): Html =>
  html`<div class="notice" role="status"><p>${intro} Copy its signing secret now: it is shown this once.</p>
${secretField('webhook-secret', 'Signing secret', secret)}</div>`;
