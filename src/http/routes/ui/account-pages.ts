// The signed-in pages: API keys, credits and plan, usage.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTopup } from '../../../accounts/payments.js';
import { isPlan, PLAN_TERMS } from '../../../accounts/plans.js';
import {
  accountOverview,
  changeOwnPlan,
  createOwnKey,
  listOwnKeys,
  ownLedger,
  ownRecentRequests,
  ownUsage,
  revokeOwnKey,
  rotateOwnKey,
} from '../../../accounts/self-service.js';
import { PLANS } from '../../../domain/plans.js';
import { ApiError } from '../../../errors.js';
import { barChart, csrfField, type Html, html, message, scrollTable } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import { attempt, field, keyShownOnce, pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

/** The signed-in account, or a redirect to the sign-in page. */
function signedIn(request: FastifyRequest, reply: FastifyReply) {
  if (request.session) return request.session;
  void reply.redirect('/ui/login', 303);
  return null;
}

export function accountPages(app: App, deps: AppDeps, self: SelfServiceDeps): void {
  const keysPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    note?: Html | string,
    status = 200,
  ) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const context = pageContext(request, reply, deps);
    const keys = await listOwnKeys(deps.db, session.accountId);
    const rows = keys.map(
      (
        key,
      ) => html`<tr><td>${key.key_id}</td><td><code>${key.key}</code></td><td>${key.name ?? ''}</td><td class="num">${key.daily_cap}</td><td class="num">${key.spent_today}</td><td>${key.status}</td><td>${key.last_used_at ?? 'never'}</td>
<td>${
        key.status === 'active'
          ? html`<form class="inline" method="post" action="/ui/keys/${key.key_id}/rotate">${csrfField(context.csrf)}<button class="secondary" type="submit" aria-label="Rotate key ${key.key}">Rotate</button></form>
<form class="inline" method="post" action="/ui/keys/${key.key_id}/revoke">${csrfField(context.csrf)}<button class="danger" type="submit" aria-label="Revoke key ${key.key}">Revoke</button></form>`
          : ''
      }</td></tr>`,
    );
    return renderPage(
      reply,
      context,
      'API keys',
      '/ui/keys',
      html`${note ?? ''}<p>Keys are shown once, when they are made; here you see their first characters and last four.</p>
${scrollTable(
  'Your API keys',
  html`<table><caption class="skip">Your API keys</caption><thead><tr><th scope="col">Id</th><th scope="col">Key</th><th scope="col">Name</th><th scope="col" class="num">Daily cap</th><th scope="col" class="num">Spent today</th><th scope="col">Status</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`,
)}
<h2>Create a key</h2>
<form method="post" action="/ui/keys">${csrfField(context.csrf)}
<label for="key-name">Name (optional)</label><input id="key-name" name="name" maxlength="80" size="30">
<label for="key-cap">Daily spend cap in credits</label><input id="key-cap" name="daily_cap" type="number" min="0" value="25000">
<div><button type="submit">Create key</button></div></form>`,
      status,
    );
  };
  app.get('/ui/keys', { schema: pageSchema('GET /ui/keys') }, async (request, reply) =>
    keysPage(request, reply),
  );
  app.post('/ui/keys', { schema: pageSchema('POST /ui/keys') }, async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    return attempt(
      reply,
      async () => {
        const cap = field(request, 'daily_cap').trim();
        if (cap !== '' && !/^\d{1,10}$/.test(cap))
          throw new ApiError('unprocessable', 'daily cap: a whole number of credits');
        const created = await createOwnKey(
          deps.db,
          session.accountId,
          {
            name: field(request, 'name').trim() || undefined,
            dailyCap: cap === '' ? undefined : Number(cap),
          },
          deps.clock(),
          self.maxKeysPerAccount,
        );
        return renderPage(
          reply,
          pageContext(request, reply, deps),
          'New API key',
          '/ui/keys',
          keyShownOnce(created, 'Your key is ready.', linkBase(request, deps)),
          201,
        );
      },
      (detail, status) => keysPage(request, reply, message('error', detail), status),
    );
  });
  app.post(
    '/ui/keys/:id/revoke',
    { schema: pageSchema('POST /ui/keys/:id/revoke') },
    async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return attempt(
        reply,
        async () => {
          await revokeOwnKey(deps.db, session.accountId, request.params.id, deps.clock());
          return keysPage(
            request,
            reply,
            message('notice', `Key ${request.params.id} is revoked; calls with it are refused.`),
          );
        },
        (detail, status) => keysPage(request, reply, message('error', detail), status),
      );
    },
  );
  app.post(
    '/ui/keys/:id/rotate',
    { schema: pageSchema('POST /ui/keys/:id/rotate') },
    async (request, reply) => {
      const session = signedIn(request, reply);
      if (!session) return reply;
      return attempt(
        reply,
        async () => {
          const rotated = await rotateOwnKey(deps.db, session.accountId, request.params.id, deps.clock());
          return renderPage(
            reply,
            pageContext(request, reply, deps),
            'Rotated API key',
            '/ui/keys',
            keyShownOnce(
              rotated,
              `Key ${rotated.replaced_key_id} is revoked and replaced.`,
              linkBase(request, deps),
            ),
          );
        },
        (detail, status) => keysPage(request, reply, message('error', detail), status),
      );
    },
  );

  const creditsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    note?: Html | string,
    status = 200,
  ) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const context = pageContext(request, reply, deps);
    const now = deps.clock();
    const [account, ledger] = await Promise.all([
      accountOverview(deps.db, session.accountId, now),
      ownLedger(deps.db, session.accountId, 50),
    ]);
    const planOptions = PLANS.map(
      (plan) =>
        html`<option value="${plan}"${plan === account.plan ? html` selected` : ''}>${plan} (${PLAN_TERMS[plan].monthlyCredits} credits a month)</option>`,
    );
    return renderPage(
      reply,
      context,
      'Credits and plan',
      '/ui/credits',
      html`${note ?? ''}
<div class="grid">
<div class="card"><h2>Balance</h2><p><strong>${account.balance}</strong> credits</p><p>${account.allowance_remaining} of ${account.monthly_allowance} plan credits left this period (until ${account.period_end.slice(0, 10)}), ${account.credits} bought or granted.</p></div>
<div class="card"><h2>Plan</h2><p>You are on <strong>${account.plan}</strong>${account.trial_ends_at ? ` (trial until ${account.trial_ends_at.slice(0, 10)})` : ''}.</p>
${account.email_verified ? '' : html`<p>Confirm your e-mail address to start the Core trial.</p>`}
<form method="post" action="/ui/plan">${csrfField(context.csrf)}<label for="plan">Change plan</label><select id="plan" name="plan">${planOptions}</select>
<div><button type="submit">Change plan</button></div></form>
<p>${account.trial_available ? 'The 7-day Core trial is available once.' : 'The Core trial has been used.'} Pro and Max start once the operator records your payment.</p></div>
<div class="card"><h2>Top up</h2><form method="post" action="/ui/topups">${csrfField(context.csrf)}<label for="amount">Amount in US dollars (1,000 credits per dollar)</label><input id="amount" name="amount_usd" type="number" min="5" max="10000" step="1" value="25"><div><button type="submit">Top up</button></div></form></div>
</div>
<h2>Ledger</h2>
${scrollTable(
  'Ledger',
  html`<table><thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col" class="num">Credits</th><th scope="col">Route</th><th scope="col">Note</th></tr></thead>
<tbody>${ledger.entries.map((entry) => html`<tr><td>${entry.created_at.replace('T', ' ').slice(0, 19)}</td><td>${entry.kind}</td><td class="num">${entry.amount}</td><td>${entry.route ?? ''}</td><td>${entry.note ?? ''}</td></tr>`)}</tbody></table>`,
)}`,
      status,
    );
  };
  app.get('/ui/credits', { schema: pageSchema('GET /ui/credits') }, async (request, reply) =>
    creditsPage(request, reply),
  );
  app.post('/ui/plan', { schema: pageSchema('POST /ui/plan') }, async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    return attempt(
      reply,
      async () => {
        const plan = field(request, 'plan');
        if (!isPlan(plan)) throw new ApiError('unprocessable', `plan: one of ${PLANS.join(', ')}`);
        await changeOwnPlan(deps.db, session.accountId, plan, deps.clock());
        return creditsPage(request, reply, message('notice', `You are now on ${plan}.`));
      },
      (detail, status) => creditsPage(request, reply, message('error', detail), status),
    );
  });
  app.post('/ui/topups', { schema: pageSchema('POST /ui/topups') }, async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    return attempt(
      reply,
      async () => {
        const intent = await requestTopup(
          deps.db,
          self.payments,
          {
            accountId: session.accountId,
            email: session.email,
            dollars: Number(field(request, 'amount_usd')),
            returnUrl: `${linkBase(request, deps)}/ui/credits`,
          },
          deps.clock(),
        );
        // A link, not a redirect: the pages' form-action 'self' stops a form's redirect to the payment site.
        if (intent.pay_url)
          return creditsPage(
            request,
            reply,
            html`<div class="notice" role="status"><p>${intent.instructions}</p><p><a href="${intent.pay_url}">Continue to the payment page</a></p></div>`,
            201,
          );
        return creditsPage(request, reply, message('notice', intent.instructions), 201);
      },
      (detail, status) => creditsPage(request, reply, message('error', detail), status),
    );
  });

  app.get('/ui/usage', { schema: pageSchema('GET /ui/usage') }, async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const now = deps.clock();
    const [byDay, byEndpoint, recent] = await Promise.all([
      ownUsage(deps.db, session.accountId, { groupBy: 'day' }, now),
      ownUsage(deps.db, session.accountId, { groupBy: 'endpoint' }, now),
      ownRecentRequests(deps.db, session.accountId, 100),
    ]);
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Usage',
      '/ui/usage',
      html`<p>The last 30 days: <strong>${byDay.totals.calls}</strong> calls, <strong>${byDay.totals.credits}</strong> credits.</p>
<div class="charts">
<div>${barChart(
        'Calls per day',
        byDay.rows.map((row) => ({ label: row.bucket, value: row.calls })),
      )}</div>
<div>${barChart(
        'Credits per day',
        byDay.rows.map((row) => ({ label: row.bucket, value: row.credits })),
      )}</div>
<div>${barChart(
        'Calls per endpoint',
        byEndpoint.rows.map((row) => ({ label: row.bucket, value: row.calls })),
      )}</div>
<div>${barChart(
        'Credits per endpoint',
        byEndpoint.rows.map((row) => ({ label: row.bucket, value: row.credits })),
      )}</div>
</div>
<h2>Latest requests</h2>
${scrollTable(
  'Latest requests',
  html`<table id="recent-requests"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Request</th><th scope="col" class="num">Status</th><th scope="col" class="num">Credits</th><th scope="col">Key id</th></tr></thead>
<tbody>${recent.map((row) => html`<tr><td>${row.created_at.replace('T', ' ').slice(0, 19)}</td><td>${row.route}</td><td class="num">${row.status}</td><td class="num">${row.charge}</td><td>${row.key_id}</td></tr>`)}</tbody></table>`,
)}`,
    );
  });
}
