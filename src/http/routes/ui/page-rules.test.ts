// What every page answer promises, through app.inject: the Content-Security-Policy, no inline
// script or style, assets served from this service, HTML 404s and refusals under /ui for browsers
// (JSON for API clients), the favicon, the terms of use and where they are linked, the member page
// headed by the member's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FixtureApp,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { PAGE_CSP } from '../../plugins/content-security.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('page rules', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = realDataAvailable() ? await openFixtureApp() : await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  const pages = [
    '/',
    '/status',
    '/ui/signup',
    '/ui/login',
    '/ui/terms',
    '/ui/explore',
    '/ui/explore/leaderboard',
    '/docs',
    '/docs/guides',
    '/docs/guides/api',
  ];

  it('sends the strict policy with every page, and no page holds an inline script, style or style attribute', async () => {
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).toContain("style-src 'self'");
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    for (const url of pages) {
      const response = await ctx.app.inject({ url, headers: BROWSER });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy'], url).toBe(PAGE_CSP);
      expect(response.body, url).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(response.body, url).not.toMatch(/<style|\sstyle=/);
      expect(response.body, url).toMatch(
        /<link rel="icon" href="\/ui\/assets\/favicon\.svg\?v=[0-9a-f]{12}"/,
      );
    }
  });

  it('serves its stylesheet, scripts, icon and Chart.js itself, cacheable by content hash', async () => {
    const landing = await ctx.app.inject({ url: '/' });
    const explore = await ctx.app.inject({ url: '/ui/explore' });
    const assets = [
      ...`${landing.body}${explore.body}`.matchAll(/(?:href|src)="(\/ui\/assets\/[^"]+)"/g),
    ].map((match) => match[1] ?? '');
    expect(new Set(assets.map((url) => url.split('?')[0]))).toEqual(
      new Set([
        '/ui/assets/favicon.svg',
        '/ui/assets/dcledger.css',
        '/ui/assets/copy.js',
        '/ui/assets/chart.umd.min.js',
        '/ui/assets/explore.js',
      ]),
    );
    for (const url of assets) {
      const response = await ctx.app.inject({ url: url.replace(/&amp;/g, '&') });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toContain('immutable');
    }
    const chart = await ctx.app.inject({ url: '/ui/assets/chart.umd.min.js' });
    expect(chart.body).toContain('Chart.js v4');
    expect(chart.body).toContain('Released under the MIT License');
    const icon = await ctx.app.inject({ url: '/favicon.ico' });
    expect(icon.statusCode).toBe(301);
    expect(icon.headers.location).toMatch(/^\/ui\/assets\/favicon\.svg\?v=/);
    expect((await ctx.app.inject({ url: '/ui/assets/nothing.js' })).statusCode).toBe(404);
  });

  it('answers an unknown /ui address with an HTML 404 page for a browser and JSON for an API client', async () => {
    const page = await ctx.app.inject({ url: '/ui/no-such-page', headers: BROWSER });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<h1>Page not found</h1>');
    expect(page.body).toContain('role="alert"');
    const json = await ctx.app.inject({ url: '/ui/no-such-page' });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ code: 'not_found' });
  });

  it('refuses a repeated or over-long page parameter with a 4xx page naming it, never a 500', async () => {
    for (const url of [
      '/ui/explore/ticker?symbol=a&symbol=b',
      '/ui/explore/member?id=1&id=2',
      '/ui/reset-password?token=a&token=b',
      `/ui/signup/confirm?token=${'x'.repeat(201)}`,
      '/ui/explore/leaderboard?min_trades=-1',
    ]) {
      const page = await ctx.app.inject({ url, headers: BROWSER });
      expect(page.statusCode, url).toBe(422);
      expect(page.body, url).toContain('role="alert"');
      expect(page.body, url).toMatch(/address parameter &#39;(symbol|id|token|min_trades)&#39;/);
      const json = await ctx.app.inject({ url });
      expect(json.statusCode, url).toBe(422);
      expect(json.json().detail, url).toMatch(/symbol|id|token|min_trades/);
    }
  });

  it('links the terms of use from the landing page, the sign-up form, every footer and the OpenAPI document', async () => {
    const terms = await ctx.app.inject({ url: '/ui/terms' });
    expect(terms.body).toContain('<h1>Terms of use</h1>');
    expect(terms.body).toContain('Personal use');
    expect(terms.body).toContain('News and media use');
    expect(terms.body).toMatch(/Any other use<\/strong>[^<]*needs written permission/);
    for (const url of ['/', '/ui/signup', '/status']) {
      const body = (await ctx.app.inject({ url })).body;
      expect(body.match(/href="\/ui\/terms"/g)?.length ?? 0, url).toBeGreaterThanOrEqual(
        url === '/status' ? 1 : 2,
      );
    }
    const spec = (await ctx.app.inject({ url: '/openapi.json' })).json();
    // Absolute, as OpenAPI asks: the listening address without DCLEDGER_PUBLIC_URL (none under inject).
    expect(spec.info.termsOfService).toBe('http://localhost/ui/terms');
  });

  it.skipIf(!realDataAvailable())(
    'heads the member page with the name, by id or by slug, and 404s an unknown member',
    async () => {
      const bySlug = await ctx.app.inject({ url: '/ui/explore/member?id=nancy-pelosi' });
      expect(bySlug.statusCode).toBe(200);
      expect(bySlug.body).toContain('<h1>Nancy Pelosi</h1>');
      const id = /data-member="(\d+)"/.exec(bySlug.body)?.[1];
      expect(id).toBeDefined();
      const byId = await ctx.app.inject({ url: `/ui/explore/member?id=${id}` });
      expect(byId.body).toContain('<h1>Nancy Pelosi</h1>');
      const unknown = await ctx.app.inject({ url: '/ui/explore/member?id=no-such-member', headers: BROWSER });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('No member has the id or slug <code>no-such-member</code>');
    },
  );

  it('gives N/A and other non-tickers no ticker page', async () => {
    const page = await ctx.app.inject({ url: '/ui/explore/ticker?symbol=N/A', headers: BROWSER });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('is not a ticker');
    expect(page.body).not.toContain('data-page="ticker"');
  });
});
