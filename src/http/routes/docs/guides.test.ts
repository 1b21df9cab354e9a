// The guides of docs/ served as HTML beside the API reference, without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import { guideHref, headingSlug, renderMarkdown } from './render.js';

describe('GET /docs/guides', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('lists every guide, with a link back to the API reference, without a key', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/docs/guides' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    for (const name of [
      'api',
      'billing-and-limits',
      'webhooks',
      'ingestion',
      'parsing',
      'market-data',
      'operations',
      'accuracy',
      'benchmarks',
    ]) {
      expect(response.body).toContain(`href="/docs/guides/${name}"`);
    }
    expect(response.body).toContain('<a href="/docs">API reference</a>');
    expect(response.body).toContain('Keys, plans, credits and limits');
  });

  it('renders a guide: generated tables as HTML tables, anchors, links between guides rewritten', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/docs/guides/billing-and-limits' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(
      '<h1 id="keys-plans-credits-and-limits">Keys, plans, credits and limits</h1>',
    );
    expect(response.body).toMatch(
      /<td><code>GET \/portfolio\/\{politician_id\}\/positions<\/code><\/td>\s*<td>pro<\/td>/,
    );
    expect(response.body).not.toContain('generated:prices');
    const api = await ctx.app.inject({ method: 'GET', url: '/docs/guides/api' });
    expect(api.body).toContain('href="/docs/guides/market-data#member-statistics"');
    expect(api.body).toContain('href="/docs/guides/webhooks"');
  });

  it('answers 404 with a detail for an unknown guide or a path that leaves docs/', async () => {
    for (const url of [
      '/docs/guides/nope',
      '/docs/guides/..%2Fpackage',
      '/docs/guides/README',
      '/docs/guides/api.md',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().detail).toMatch(/guide|not found/i);
    }
  });

  it('keeps the API reference at /docs and the OpenAPI document public', async () => {
    for (const url of ['/docs', '/docs/']) {
      const reference = await ctx.app.inject({ method: 'GET', url });
      expect(reference.statusCode, url).toBe(200);
      // Rendered here from the OpenAPI document: no script, every operation a <details> element.
      expect(reference.body, url).toContain('<h1>dcledger API reference</h1>');
      expect(reference.body, url).toMatch(
        /<details id="op-[^"]+"><summary><span class="method get">GET<\/span><code>\/trades<\/code>/,
      );
      expect(reference.body, url).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(reference.headers['content-security-policy'], url).toContain("script-src 'self'");
    }
    const json = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json().info.description).toContain('/docs/guides');
    const spec = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expect(Object.keys(spec.json().paths)).not.toContain('/docs/guides/{name}');
  });
});

describe('guide rendering', () => {
  it('escapes raw HTML and drops comments', () => {
    const html = renderMarkdown(
      '<!-- generated:x -->\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> here\n',
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('generated:x');
  });

  it('keeps only safe links and points guide links at their pages', () => {
    expect(guideHref('javascript:alert(1)')).toBeUndefined();
    expect(guideHref('data:text/html,x')).toBeUndefined();
    expect(guideHref('//evil.example/x')).toBeUndefined();
    expect(guideHref('../src/app.ts')).toBeUndefined();
    expect(guideHref('https://example.org/a')).toBe('https://example.org/a');
    expect(guideHref('#states')).toBe('#states');
    expect(guideHref('webhooks.md#retries')).toBe('/docs/guides/webhooks#retries');
    expect(guideHref('docs/api.md')).toBe('/docs/guides/api');
    expect(guideHref('../BENCHMARKS.md')).toBe('/docs/guides/benchmarks');
    expect(guideHref('../README.md')).toBe('/docs/guides');
    const html = renderMarkdown('[x](javascript:alert(1)) and [y](parsing.md "t\\"q")');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="/docs/guides/parsing" title="t&quot;q">y</a>');
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(headingSlug('Tables (migration `0006-ingest`)')).toBe('tables-migration-0006-ingest');
    expect(headingSlug('`GET /trades`')).toBe('get-trades');
    expect(headingSlug('Address rules (SSRF)')).toBe('address-rules-ssrf');
  });
});
