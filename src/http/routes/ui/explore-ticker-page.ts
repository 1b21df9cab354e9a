// GET /ui/explore/ticker: one ticker's page in the explorer, its price line with members' buys and
// sells on it.
import { html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { EXPLORE_SCRIPTS, explorer } from './explore-form.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function exploreTickerPage(app: App, deps: AppDeps): void {
  app.get('/ui/explore/ticker', { schema: pageSchema('GET /ui/explore/ticker') }, async (request, reply) => {
    const symbol = (request.query.symbol ?? '').trim().toUpperCase();
    const fields = html`<div><label for="f-limit">Trades to read (1-1000)</label><input id="f-limit" name="limit" type="number" min="1" max="1000" value="100"></div>`;
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      symbol ? `Ticker ${symbol}` : 'Ticker',
      '/ui/explore',
      symbol && /^[A-Z0-9.^-]{1,12}$/.test(symbol)
        ? explorer({
            page: 'ticker',
            fields,
            auto: true,
            data: { ticker: symbol },
            chart: {
              title: `${symbol} daily close with members’ trades`,
              caption:
                'Buys are upward triangles, sells downward ones; a larger marker is a larger disclosed amount bracket. Each trade sits on the close of its transaction date (or the next trading day).',
            },
          })
        : html`<div class="error" role="alert"><p>${symbol ? html`<code>${symbol}</code> is not a ticker.` : 'Name a ticker.'}</p></div><p>For example <a href="/ui/explore/ticker?symbol=NVDA">NVDA</a>. Trades without a public ticker (shown as N/A) have no ticker page.</p>`,
      symbol && /^[A-Z0-9.^-]{1,12}$/.test(symbol) ? 200 : 400,
      EXPLORE_SCRIPTS,
    );
  });
}
