// The tables of the docs that restate code are generated from it (scripts/docs-tables.ts); a region
// that no longer matches the code fails here, with the command that refreshes it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_TABLES, documentStates, refreshDocument, regionsOf } from '../scripts/docs-tables.js';
import { PRICE_TABLE } from '../src/accounts/price-table.js';
import { repoRoot } from '../src/test-support/data-dir.js';
import { EVENT_TYPES } from '../src/webhooks/event-catalog.js';

describe('generated documentation', () => {
  it('every generated region of README.md and docs/*.md matches the code', () => {
    const stale = documentStates(repoRoot)
      .filter((state) => state.current !== state.refreshed)
      .map((state) => state.file);
    expect(stale, `stale generated tables in ${stale.join(', ')}: run \`npm run docs:generate\``).toEqual([]);
  });

  it('every table the generator knows is used by some document', () => {
    const used = new Set(documentStates(repoRoot).flatMap((state) => regionsOf(state.current)));
    expect([...Object.keys(DOC_TABLES)].filter((name) => !used.has(name))).toEqual([]);
  });

  it('a region that disagrees with the code is rewritten, and the rest of the document is kept', () => {
    const text =
      'before\n<!-- generated:prices -->\n| `GET /trades` | free | 99 |\n<!-- /generated:prices -->\nafter\n';
    const refreshed = refreshDocument(text);
    expect(refreshed).not.toBe(text);
    expect(refreshed.startsWith('before\n<!-- generated:prices -->\n')).toBe(true);
    expect(refreshed.endsWith('<!-- /generated:prices -->\nafter\n')).toBe(true);
    expect(refreshDocument(refreshed)).toBe(refreshed);
  });

  it('the price table lists every metered route and the event table every event type', () => {
    const billing = readFileSync(join(repoRoot, 'docs/billing-and-limits.md'), 'utf8');
    for (const key of Object.keys(PRICE_TABLE)) {
      const [method, path] = key.split(' ');
      expect(billing).toContain(`| \`${method} ${path?.replace(/:([a-z_]+)/g, '{$1}')}\` |`);
    }
    const webhooks = readFileSync(join(repoRoot, 'docs/webhooks.md'), 'utf8');
    for (const type of EVENT_TYPES) expect(webhooks).toContain(`| \`${type}\` |`);
  });

  it('refuses an unknown or unclosed region rather than leaving it unchecked', () => {
    expect(() => refreshDocument('<!-- generated:nope -->\nx\n<!-- /generated:nope -->\n')).toThrow(
      /unknown generated region "nope"/,
    );
    expect(() => refreshDocument('<!-- generated:prices -->\nno end\n')).toThrow(/not closed/);
  });
});
