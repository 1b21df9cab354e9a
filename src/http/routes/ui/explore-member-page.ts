// GET /ui/explore/member: one member's page in the explorer, the cumulative return of their
// disclosed buys against the S&P 500.
import { findProfile } from '../../../storage/repositories/politicians-read.js';
import { html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { EXPLORE_SCRIPTS, explorer } from './explore-form.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function exploreMemberPage(app: App, deps: AppDeps): void {
  app.get('/ui/explore/member', { schema: pageSchema('GET /ui/explore/member') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const wanted = (request.query.id ?? '').trim();
    const profile = wanted ? await findProfile(deps.db, wanted) : undefined;
    if (!profile) {
      return renderPage(
        reply,
        context,
        'Member not found',
        '/ui/explore',
        html`<div class="error" role="alert"><p>${wanted ? html`No member has the id or slug <code>${wanted}</code>.` : 'Name a member by id or slug.'}</p></div><p>Search for one in the <a href="/ui/explore">explorer</a> or the <a href="/ui/explore/leaderboard">leaderboard</a>.</p>`,
        wanted ? 404 : 400,
      );
    }
    const who = [profile.party, profile.state].filter(Boolean).join('-');
    const fields = html`<div><label for="f-limit">Trades to read (1-1000; one credit each)</label><input id="f-limit" name="limit" type="number" min="1" max="1000" value="200"></div>`;
    return renderPage(
      reply,
      context,
      profile.name,
      '/ui/explore',
      html`<p>${profile.chamber}${who ? ` · ${who}` : ''} · ${profile.trade_count} trades on record · slug <code>${profile.slug}</code> · id ${profile.politician_id}</p>
${explorer({
  page: 'member',
  fields,
  auto: true,
  data: { member: String(profile.politician_id), name: profile.name },
  chart: {
    title: `Cumulative return of ${profile.name}'s disclosed buys against the S&P 500`,
    caption:
      'Each disclosed purchase with a known 90-day return counts once, in trade-date order: the line adds up its 90-day return (percent) from the transaction date; the S&P 500 line adds up the index’s return over the same 90 days. Sales, and buys less than 90 days old, are left out.',
  },
})}`,
      200,
      EXPLORE_SCRIPTS,
    );
  });
}
