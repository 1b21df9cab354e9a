// The signed-in page of API keys: GET /ui/keys, and the forms that create, revoke and rotate a key.
import { createOwnKey, listOwnKeys, revokeOwnKey, rotateOwnKey } from '../../../accounts/self-service.js';
import { ApiError } from '../../../errors.js';
import { csrfField, html, message, scrollTable } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import { MAX_KEY_DAILY_CAP } from '../../schemas/common.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import {
  field,
  keyShownOnce,
  type NotedPage,
  pageContext,
  renderPage,
  signedIn,
  signedInAction,
} from './forms.js';
import { pageSchema } from './schemas.js';

export function keysPage(app: App, deps: AppDeps, self: SelfServiceDeps): void {
  const renderKeys: NotedPage = async (request, reply, note, status = 200) => {
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
    renderKeys(request, reply),
  );
  app.post('/ui/keys', { schema: pageSchema('POST /ui/keys') }, async (request, reply) =>
    signedInAction(request, reply, renderKeys, async (session) => {
      const cap = field(request, 'daily_cap').trim();
      if (cap !== '' && (!/^\d{1,10}$/.test(cap) || Number(cap) > MAX_KEY_DAILY_CAP))
        throw new ApiError(
          'unprocessable',
          `daily cap: a whole number of credits, at most ${MAX_KEY_DAILY_CAP.toLocaleString('en-US')}`,
        );
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
    }),
  );
  app.post(
    '/ui/keys/:id/revoke',
    { schema: pageSchema('POST /ui/keys/:id/revoke') },
    async (request, reply) =>
      signedInAction(request, reply, renderKeys, async (session) => {
        await revokeOwnKey(deps.db, session.accountId, request.params.id, deps.clock());
        return renderKeys(
          request,
          reply,
          message('notice', `Key ${request.params.id} is revoked; calls with it are refused.`),
        );
      }),
  );
  app.post(
    '/ui/keys/:id/rotate',
    { schema: pageSchema('POST /ui/keys/:id/rotate') },
    async (request, reply) =>
      signedInAction(request, reply, renderKeys, async (session) => {
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
      }),
  );
}
