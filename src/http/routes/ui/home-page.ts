// The landing page (/): nobody meets a bare 404 or 401 first.
import { backfillProgress } from '../../../storage/repositories/backfill-progress.js';
import { ingestStatus } from '../../../storage/repositories/self-service.js';
import { html } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { backfillNotice } from './backfill-section.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function homePage(app: App, deps: AppDeps): void {
  app.get('/', { schema: pageSchema('GET /') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const status = await ingestStatus(deps.db, deps.clock());
    const filling = backfillNotice(await backfillProgress(deps.db, deps.clock()));
    return renderPage(
      reply,
      context,
      'Stock trades disclosed by US officials, as an API',
      '/',
      html`<p>dcledger reads the official disclosure sites (House Clerk, Senate eFD, OGE), stores every reported trade and serves them as a metered JSON API. It holds <strong>${status.totalTrades}</strong> trades now.</p>
${filling}
<div class="grid">
<div class="card"><h2>Get a key</h2><p>${context.signedIn ? html`<a href="/ui/keys">Manage your API keys</a>` : html`<a href="/ui/signup">Create a free account</a>: 750 credits and a key once you follow the link we mail you. Already registered? <a href="/ui/login">Sign in</a>.`}</p></div>
<div class="card"><h2>Read the reference</h2><p>The <a href="/docs">API reference</a> lists every endpoint, its plan and its credit cost; the machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p></div>
<div class="card"><h2>See what is ingested</h2><p>The <a href="/status">status page</a> shows each source's last run, its documents and trades.</p></div>
<div class="card"><h2>Explore the data</h2><p>Search trades, members and tickers in the <a href="/ui/explore">data explorer</a>, with price charts and a <a href="/ui/explore/leaderboard">leaderboard</a> (calls are metered with your key).</p></div>
</div>
<p>Personal and news/media use of the data is permitted; any other use needs written permission: see the <a href="/ui/terms">terms of use</a>.</p>
<h2>First call</h2>
<pre><code>curl -H "DC-API-Key: YOUR_KEY" "${linkBase(request, deps)}/trades?limit=5"</code></pre>`,
    );
  });
}
