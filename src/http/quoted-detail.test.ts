// An error detail quotes at most a short prefix of the caller's value: a 2,000-character query
// parameter (the longest some routes accept) is refused with a detail that names the field and
// quotes the value's first characters, never the whole of it. Short values read in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTED_PREFIX, quoted } from '../errors.js';
import { type FixtureApp, getJson, openEmptyApp } from '../test-support/app.js';

// A constructed value: a recognisable head, then filler up to 2,000 characters.
const LONG = `zz${'q'.repeat(1998)}`;

// Each parameter with the longest value its schema lets through to the service.
const LONG_PARAMETERS: Array<[path: string, field: string, length?: number]> = [
  ['/trades', 'ticker'],
  ['/trades', 'party'],
  ['/trades', 'chamber'],
  ['/trades', 'state'],
  ['/trades', 'trade_type'],
  ['/trades', 'sector'],
  ['/politicians', 'chamber', 100],
  ['/filings', 'status', 200],
];

describe('quoted()', () => {
  it('quotes a short value in full and exactly', () => {
    expect(quoted('XYZ')).toBe('"XYZ"');
  });
  it('cuts a long value to its first characters, JSON-escaped', () => {
    expect(quoted(LONG)).toBe(`"${LONG.slice(0, QUOTED_PREFIX)}…"`);
    expect(quoted('a"b\n')).toBe('"a\\"b\\n"');
    // A surrogate pair is never split at the cut.
    expect(quoted(`${'x'.repeat(QUOTED_PREFIX - 1)}😀tail`)).toBe(`"${'x'.repeat(QUOTED_PREFIX - 1)}😀…"`);
  });
});

describe('details of refused long values', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  for (const [path, field, length = LONG.length] of LONG_PARAMETERS) {
    it(`${path}?${field}=<${length} characters> quotes only a prefix`, async () => {
      const { status, body } = await getJson<{ detail: string }>(
        ctx,
        `${path}?${field}=${LONG.slice(0, length)}`,
      );
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      // The detail may list the allowed values after the quote; the quote itself is short.
      const quote = body.detail.match(/"[^"]*"/)?.[0] ?? '';
      expect(quote.length).toBeLessThan(QUOTED_PREFIX + 4);
      expect(body.detail.replace(/(one of|; one of) .*$/, '').length).toBeLessThan(200);
      expect(body.detail).toContain(`"${LONG.slice(0, QUOTED_PREFIX)}…"`);
      expect(body.detail).not.toContain(LONG.slice(0, QUOTED_PREFIX + 1));
    });
  }

  it('a long path value is cut too', async () => {
    const { status, body } = await getJson<{ detail: string }>(ctx, `/politicians/${LONG.slice(0, 100)}`);
    expect(status).toBe(404);
    expect(body.detail).toContain(`"${LONG.slice(0, QUOTED_PREFIX)}…"`);
    expect(body.detail.length).toBeLessThan(200);
  });
});
