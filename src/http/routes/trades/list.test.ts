import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';
import { etagOfPayload } from '../../plugins/conditional.js';

// Independent counts, written as plain SQL rather than through the code under test.
async function sqlCount(ctx: FixtureApp, where: string, params: unknown[] = []): Promise<number> {
  const parts = where.split('?');
  const fragments = parts.map((part, index) =>
    index < params.length ? sql`${sql.raw(part)}${params[index]}` : sql.raw(part),
  );
  const query = sql<{
    n: number;
  }>`select count(*) as n from trades t join politicians p on p.id = t.politician_id
    where t.superseded_by is null and ${sql.join(fragments, sql``)}`;
  const result = await query.execute(ctx.store.db);
  return Number(result.rows[0]?.n ?? 0);
}

async function fetchAll(ctx: FixtureApp, query: string): Promise<Trade[]> {
  const rows: Trade[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await getJson<Trade[]>(ctx, `/trades?${query}&limit=1000&offset=${offset}`);
    expect(page.status).toBe(200);
    rows.push(...page.body);
    if (page.body.length < 1000) return rows;
  }
}

describe.skipIf(!realDataAvailable())('GET /trades on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('defaults to trades disclosed in the last 30 days, newest disclosure first', async () => {
    // The fixture clock is 2026-06-01, so the window starts 2026-05-02.
    const { status, body } = await getJson<Trade[]>(ctx, '/trades?limit=1000');
    expect(status).toBe(200);
    const expected = await sqlCount(
      ctx,
      "t.disclosure_date >= '2026-05-02' and t.disclosure_date <= '2026-06-01'",
    );
    expect(expected).toBeGreaterThan(0);
    expect(body).toHaveLength(expected);
    for (const trade of body) expect((trade.disclosure_date ?? '') >= '2026-05-02').toBe(true);
    const dates = body.map((trade) => trade.disclosure_date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('serves a known House trade with every field normalized', async () => {
    const { body } = await getJson<Trade[]>(
      ctx,
      '/trades?ticker=fcnca&date_from=2026-05-17&date_to=2026-05-17',
    );
    const trade = body.find((row) => row.transaction_date === '2026-04-14');
    expect(trade).toMatchObject({
      politician_name: 'Thomas H. Kean, Jr.',
      politician_slug: 'thomas-kean',
      party: 'R',
      state: 'NJ',
      chamber: 'House',
      ticker: 'FCNCA',
      trade_type: 'Sell',
      asset_type: 'Stock',
      asset_description: 'First Citizens BancShares, Inc. - Class A Common Stock',
      amount_range: '$1,001 - $15,000',
      amount_low: 1001,
      amount_high: 15000,
      disclosure_date: '2026-05-17',
      days_to_disclose: 33,
      source: 'house_clerk',
      owner: 'Self',
      filing_url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2026/20034616.pdf',
      days_held: 48,
      gain_30d: null,
      superseded_by: null,
    });
  });

  it('serves a known Senate option trade with its option details lifted out of the HTML', async () => {
    const { body } = await getJson<Trade[]>(
      ctx,
      '/trades?ticker=VMC&date_from=2020-01-01&date_to=2020-12-31',
    );
    const option = body.find((row) => row.option_type === 'Put' && row.transaction_date === '2020-04-07');
    expect(option).toMatchObject({
      chamber: 'Senate',
      source: 'senate_efd',
      asset_type: 'Option',
      asset_description: 'Vulcan Materials Company',
      strike_price: 120,
      option_expiry: '2020-05-15',
      owner: 'Spouse',
      trade_type: 'Buy',
      amount_range: '$15,001 - $50,000',
    });
    expect(option?.politician_name).toMatch(/Loeffler/);
  });

  it('pages through ten years without losing or repeating a row', async () => {
    const rows = await fetchAll(ctx, 'days=3650');
    const ids = rows.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(
      await sqlCount(ctx, "t.disclosure_date >= '2016-06-03' and t.disclosure_date <= '2026-06-01'"),
    );
  });

  const filterCases: [string, string, unknown[]][] = [
    ['ticker=NVDA,msft', "t.ticker in ('NVDA', 'MSFT')", []],
    ['party=D', "p.party = 'D'", []],
    ['party=r,i', "p.party in ('R', 'I')", []],
    ['chamber=senate', "t.source = 'senate_efd'", []],
    ['chamber=house,senate', "t.source in ('house_clerk', 'senate_efd')", []],
    ['state=CA', "p.state = 'CA'", []],
    ['trade_type=sell', "t.trade_action = 'sell' and t.ticker <> 'N/A'", []],
    ['trade_type=buy,sell', "t.trade_action in ('buy', 'sell') and t.ticker <> 'N/A'", []],
    ['asset_type=Stock', "t.asset_type = 'Stock' and t.ticker <> 'N/A'", []],
    ['asset_type=option', "t.asset_type = 'Option' and t.ticker <> 'N/A'", []],
  ];

  it.each(filterCases)('filter %s matches a direct SQL count', async (query, where) => {
    // Two years of disclosures (both chambers, both House sets) keep each case quick.
    const window = "t.disclosure_date >= '2020-01-01' and t.disclosure_date <= '2021-12-31'";
    const rows = await fetchAll(ctx, `date_from=2020-01-01&date_to=2021-12-31&${query}`);
    const expected = await sqlCount(ctx, `${window} and ${where}`);
    expect(expected).toBeGreaterThan(0);
    expect(rows).toHaveLength(expected);
  });

  it('filters by member ids, including a comma list', async () => {
    const kean = await getJson<{ politician_id: number }>(ctx, '/politicians/thomas-kean');
    const pelosi = await getJson<{ politician_id: number }>(ctx, '/politicians/nancy-pelosi');
    const rows = await fetchAll(
      ctx,
      `days=3650&politician_id=${kean.body.politician_id},${pelosi.body.politician_id}`,
    );
    expect(new Set(rows.map((row) => row.politician_slug))).toEqual(new Set(['thomas-kean', 'nancy-pelosi']));
    const expected = await sqlCount(
      ctx,
      "t.disclosure_date >= '2016-06-03' and t.disclosure_date <= '2026-06-01' and p.slug in ('thomas-kean', 'nancy-pelosi')",
    );
    expect(rows).toHaveLength(expected);
  });

  it('excludes N/A tickers when filtering by trade type, and includes them otherwise', async () => {
    const all = await fetchAll(ctx, 'days=3650&chamber=senate');
    const buys = await fetchAll(ctx, 'days=3650&chamber=senate&trade_type=buy');
    expect(all.some((row) => row.ticker === 'N/A')).toBe(true);
    expect(buys.some((row) => row.ticker === 'N/A')).toBe(false);
    expect(buys.every((row) => row.trade_type === 'Buy')).toBe(true);
  });

  it('sell matches full and partial sales', async () => {
    const sells = await fetchAll(ctx, 'days=3650&trade_type=sell&chamber=senate');
    const labels = new Set(sells.map((row) => row.trade_type));
    expect(labels).toEqual(new Set(['Sell', 'Sell (Partial)']));
  });

  it('a date range replaces days and is inclusive', async () => {
    const rows = await fetchAll(ctx, 'days=1&date_from=2020-03-01&date_to=2020-03-31');
    expect(rows.length).toBe(await sqlCount(ctx, "t.disclosure_date between '2020-03-01' and '2020-03-31'"));
    expect(
      rows.every(
        (row) => (row.disclosure_date ?? '') >= '2020-03-01' && (row.disclosure_date ?? '') <= '2020-03-31',
      ),
    ).toBe(true);
  });

  it('sorts by transaction date ascending with the id breaking ties', async () => {
    const { body } = await getJson<Trade[]>(
      ctx,
      '/trades?days=3650&sort_by=transaction_date&sort_dir=asc&limit=500',
    );
    for (let i = 1; i < body.length; i++) {
      const [a, b] = [body[i - 1] as Trade, body[i] as Trade];
      expect(
        a.transaction_date < b.transaction_date || (a.transaction_date === b.transaction_date && a.id < b.id),
      ).toBe(true);
    }
  });

  it('sorts by amount, largest first', async () => {
    const { body } = await getJson<Trade[]>(ctx, '/trades?days=3650&sort_by=amount&limit=50');
    expect(body[0]?.amount_low).toBe(50000001);
    const lows = body.map((row) => row.amount_low ?? 0);
    expect([...lows].sort((a, b) => b - a)).toEqual(lows);
  });

  it.each([
    ['limit=1001', 422, 'limit'],
    ['limit=0', 422, 'limit'],
    ['days=3651', 422, 'days'],
    ['days=0', 422, 'days'],
    ['days=abc', 422, 'days'],
    ['offset=-1', 422, 'offset'],
    ['offset=9223372036859791000', 422, 'offset'],
    ['date_from=2020-02-30&date_to=2020-03-01', 422, 'date_from'],
    ['date_from=2020-03-02&date_to=2020-03-01', 422, 'date_from'],
    ['date_from=2020-03-01', 400, 'date_to'],
    ['date_to=2020-03-01', 400, 'date_from'],
    ['sort_by=price', 422, 'sort_by'],
    ['sort_dir=up', 422, 'sort_dir'],
    ['party=X', 422, 'party'],
    ['chamber=congress', 422, 'chamber'],
    ['state=California', 422, 'state'],
    ['trade_type=gift', 422, 'trade_type'],
    ['politician_id=abc', 422, 'politician_id'],
    ['ticker=%3Cscript%3E', 422, 'ticker'],
    ['include_superseded=perhaps', 422, 'include_superseded'],
  ])('%s -> %d naming %s', async (query, status, field) => {
    const response = await getJson<{ detail: string; request_id: string }>(ctx, `/trades?${query}`);
    expect(response.status).toBe(status);
    expect(response.body.detail).toContain(field);
    expect(response.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([25, 1000])(
    'sends a %i-row page with text beyond ASCII whole: length, ETag and compression agree',
    async (limit) => {
      // On SQLite a long page reaches the socket as the database's bytes, a short one as a string
      // (TradePageJson): a description with accents, a dash and an emoji (constructed, put back
      // afterwards) must arrive whole, counted in bytes, tagged and compressed either way.
      const url = `/trades?ticker=fcnca&date_from=2026-05-17&date_to=2026-05-17&limit=${limit}`;
      const before = await getJson<Trade[]>(ctx, url);
      const trade = before.body[0];
      if (!trade) throw new Error('the FCNCA trade of 2026-05-17 is missing');
      const description = 'Société Générale — “préférée” 📈 ADR';
      await sql`update trades set asset_description = ${description} where id = ${trade.id}`.execute(
        ctx.store.db,
      );
      try {
        const headers = { 'dc-api-key': ctx.key ?? '' };
        const plain = await ctx.app.inject({ method: 'GET', url, headers });
        expect(plain.statusCode).toBe(200);
        expect(plain.headers['content-length']).toBe(String(plain.rawPayload.length));
        expect(plain.rawPayload.length).toBeGreaterThan(plain.body.length);
        const body = JSON.parse(plain.rawPayload.toString('utf8')) as Trade[];
        expect(body.find((row) => row.id === trade.id)?.asset_description).toBe(description);
        expect(plain.headers.etag).toBe(etagOfPayload(plain.body));
        const zipped = await ctx.app.inject({
          method: 'GET',
          url,
          headers: { ...headers, 'accept-encoding': 'gzip' },
        });
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
      } finally {
        await sql`update trades set asset_description = ${trade.asset_description} where id = ${trade.id}`.execute(
          ctx.store.db,
        );
      }
    },
  );

  it('never answers 500, whatever the query string', async () => {
    const names = [
      'ticker',
      'politician_id',
      'party',
      'chamber',
      'state',
      'trade_type',
      'asset_type',
      'sector',
      'days',
      'date_from',
      'date_to',
      'limit',
      'offset',
      'sort_by',
      'sort_dir',
      'include_superseded',
      'x',
    ];
    const value = fc.oneof(
      fc.string(),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom(
        '',
        ',',
        ',,',
        '2020-01-01',
        '9999-99-99',
        'NaN',
        '-1',
        '1e9',
        'null',
        '%00',
        '[]',
        '{}',
      ),
      fc.string({ unit: 'binary' }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 }),
        async (pairs) => {
          const query = pairs.map(([name, v]) => `${name}=${encodeURIComponent(v)}`).join('&');
          const response = await ctx.app.inject({
            method: 'GET',
            url: `/trades?${query}`,
            headers: { 'dc-api-key': ctx.key },
          });
          expect(response.statusCode, query).toBeLessThan(500);
          if (response.statusCode >= 400) expect(typeof response.json().detail, query).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
