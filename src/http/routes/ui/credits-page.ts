// The signed-in page of credits and plan: GET /ui/credits, and the forms that change the plan and top up.
import { requestTopup } from '../../../accounts/payments.js';
import { isPlan, PLAN_TERMS } from '../../../accounts/plans.js';
import { accountOverview, changeOwnPlan, ownLedger } from '../../../accounts/self-service.js';
import { PLANS } from '../../../domain/plans.js';
import { ApiError } from '../../../errors.js';
import { csrfField, html, message, scrollTable } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import { field, type NotedPage, pageContext, renderPage, signedIn, signedInAction } from './forms.js';
import { pageSchema } from './schemas.js';

export function creditsPage(app: App, deps: AppDeps, self: SelfServiceDeps): void {
  const renderCredits: NotedPage = async (request, reply, note, status = 200) => {
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
    renderCredits(request, reply),
  );
  app.post('/ui/plan', { schema: pageSchema('POST /ui/plan') }, async (request, reply) =>
    signedInAction(request, reply, renderCredits, async (session) => {
      const plan = field(request, 'plan');
      if (!isPlan(plan)) throw new ApiError('unprocessable', `plan: one of ${PLANS.join(', ')}`);
      await changeOwnPlan(deps.db, session.accountId, plan, deps.clock());
      return renderCredits(request, reply, message('notice', `You are now on ${plan}.`));
    }),
  );
  app.post('/ui/topups', { schema: pageSchema('POST /ui/topups') }, async (request, reply) =>
    signedInAction(request, reply, renderCredits, async (session) => {
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
        return renderCredits(
          request,
          reply,
          html`<div class="notice" role="status"><p>${intent.instructions}</p><p><a href="${intent.pay_url}">Continue to the payment page</a></p></div>`,
          201,
        );
      return renderCredits(request, reply, message('notice', intent.instructions), 201);
    }),
  );
}
