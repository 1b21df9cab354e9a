// /ui/admin: the operator's view — accounts, plans, grants, revoked keys, pending top-ups.
// An account becomes an operator with `dcledger accounts operator <email>`.

import { adminOverview } from '../../../services/account-admin.js';
import { html, scrollTable } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function adminPage(app: App, deps: AppDeps): void {
  app.get('/ui/admin', { schema: pageSchema('GET /ui/admin') }, async (request, reply) => {
    if (!request.session) return reply.redirect('/ui/login', 303);
    const context = pageContext(request, reply, deps);
    if (!request.session.isOperator) {
      return renderPage(
        reply,
        context,
        'Admin',
        '/ui/admin',
        html`<div class="error" role="alert"><p>Only operators see this page.</p></div><p>An operator is made on the server with <code>dcledger accounts operator &lt;email&gt;</code>.</p>`,
        403,
      );
    }
    const overview = await adminOverview(deps.db);
    return renderPage(
      reply,
      context,
      'Admin',
      '/ui/admin',
      html`<h2>Accounts</h2>
${scrollTable(
  'Accounts',
  html`<table><thead><tr><th scope="col">Id</th><th scope="col">E-mail</th><th scope="col">Plan</th><th scope="col">Trial ends</th><th scope="col" class="num">Allowance</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Granted</th><th scope="col" class="num">Active keys</th><th scope="col">Verified</th><th scope="col">Operator</th></tr></thead>
<tbody>${overview.accounts.map((account) => html`<tr><td>${account.id}</td><td>${account.email}</td><td>${account.plan}</td><td>${account.trial_ends_at?.slice(0, 10) ?? ''}</td><td class="num">${account.allowance}</td><td class="num">${account.credits}</td><td class="num">${account.granted}</td><td class="num">${account.active_keys}</td><td>${account.email_verified ? 'yes' : 'no'}</td><td>${account.operator ? 'yes' : ''}</td></tr>`)}</tbody></table>`,
)}
<h2>Pending top-ups</h2>
<p>Confirm one when its money arrived: <code>dcledger payments confirm &lt;intent id&gt;</code>.</p>
${scrollTable(
  'Pending top-ups',
  html`<table><thead><tr><th scope="col">Intent</th><th scope="col">Account</th><th scope="col">Provider</th><th scope="col" class="num">Dollars</th><th scope="col">Requested</th></tr></thead>
<tbody>${overview.pending_topups.map((intent) => html`<tr><td>${intent.id}</td><td>${intent.account_id}</td><td>${intent.provider}</td><td class="num">${(intent.amount_cents / 100).toFixed(2)}</td><td>${intent.created_at.slice(0, 19)}</td></tr>`)}</tbody></table>`,
)}
<h2>Revoked keys</h2>
${scrollTable(
  'Revoked keys',
  html`<table><thead><tr><th scope="col">Key id</th><th scope="col">Key</th><th scope="col">Account</th><th scope="col">Revoked</th><th scope="col">Replaced by</th></tr></thead>
<tbody>${overview.revoked_keys.map((key) => html`<tr><td>${key.id}</td><td><code>${key.prefix}…${key.last4}</code></td><td>${key.email}</td><td>${key.revoked_at?.slice(0, 19) ?? ''}</td><td>${key.replaced_by ?? ''}</td></tr>`)}</tbody></table>`,
)}`,
    );
  });
}
