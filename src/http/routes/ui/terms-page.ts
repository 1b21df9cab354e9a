// The terms of use (/ui/terms), which the OpenAPI document names as its terms of service.
import { html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function termsPage(app: App, deps: AppDeps): void {
  app.get('/ui/terms', { schema: pageSchema('GET /ui/terms') }, async (request, reply) =>
    renderPage(
      reply,
      pageContext(request, reply, deps),
      'Terms of use',
      '/ui/terms',
      html`<p>These terms cover the data this service serves: trades, filings, members and everything derived from them, through the API, the bulk files, the webhooks and these pages.</p>
<h2>What you may do</h2>
<ul>
<li><strong>Personal use</strong> of the data is permitted.</li>
<li><strong>News and media use</strong> is permitted: reporting, analysis and publication by journalists and news organisations.</li>
<li><strong>Any other use</strong> (commercial products, resale, redistribution of the data set, trading services) needs written permission from the operator of this service.</li>
</ul>
<h2>Where the data comes from</h2>
<p>The trades are read from the official disclosure sites (House Clerk, Senate eFD, OGE) and other public records; prices and derived figures (returns, alpha, rankings) are computed by this service. A value the service is unsure of is flagged, never served as certain. Check the original filing, linked from each trade, before relying on a figure.</p>
<h2>The software</h2>
<p>The dcledger software itself is open source under the MIT licence; these terms are about the data and the service, not the code.</p>
<p>The API's machine-readable description names this page as its terms of service (<code>info.termsOfService</code> in <a href="/openapi.json">/openapi.json</a>).</p>`,
    ),
  );
}
