import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { Bm25Index, expandQuery, stem, tokenize } from './bm25.js';

describe('BM25 with concept expansion', () => {
  const index = new Bm25Index([
    { id: 'lmt', fields: [{ text: 'LMT Lockheed Martin Corporation aerospace defense', weight: 1 }] },
    { id: 'aapl', fields: [{ text: 'AAPL Apple Inc. information technology', weight: 1 }] },
    {
      id: 'bond',
      fields: [{ text: 'Maine State Housing Authority Bond Rate/Coupon 2.60% Matures', weight: 1 }],
    },
  ]);

  it('stems and drops stop words', () => {
    expect(tokenize('The Options traded by Senators')).toEqual(['option', 'trad', 'senator']);
    expect(stem('companies')).toBe('company');
  });

  it('finds what a question means, not only what it says', () => {
    expect(index.search(expandQuery('military contractors'), 3).map((hit) => hit.id)).toEqual(['lmt']);
    expect(index.search(expandQuery('municipal debt'), 3)[0]?.id).toBe('bond');
    expect(index.search(expandQuery('apple'), 3).map((hit) => hit.id)).toEqual(['aapl']);
    expect(index.search(expandQuery('zebra'), 3)).toEqual([]);
  });

  it('weighs the question’s own words above related ones', () => {
    const terms = expandQuery('defense');
    expect(terms.get('defense')).toBe(1);
    expect(terms.get(stem('lockheed'))).toBe(0.4);
  });
});

describe.skipIf(!realDataAvailable())('GET /v1/semantic-search on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('answers questions with members, stocks and trades, best first', async () => {
    type Answer = {
      results: {
        type: string;
        title: string;
        score: number;
        slug?: string;
        ticker?: string;
        trade_id?: number;
      }[];
      total: number;
    };
    const member = await getJson<Answer>(ctx, '/v1/semantic-search?q=nancy%20pelosi&types=politicians');
    expect(member.status).toBe(200);
    expect(member.body.results[0]).toMatchObject({ slug: 'nancy-pelosi', score: 1 });
    const options = await getJson<Answer>(
      ctx,
      '/v1/semantic-search?q=pelosi%20nvidia%20call%20options&types=trades&limit=5',
    );
    expect(options.body.results.length).toBeGreaterThan(0);
    expect(options.body.results[0]?.title).toMatch(/Pelosi.*NVDA/);
    const scores = options.body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const stocks = await getJson<Answer>(ctx, '/v1/semantic-search?q=microsoft&types=tickers');
    expect(stocks.body.results[0]?.ticker).toBe('MSFT');
    expect(Number(stocks.headers['x-credits-charged'])).toBe(20 + stocks.body.results.length);
  });

  it('validates its parameters', async () => {
    expect((await getJson(ctx, '/v1/semantic-search')).status).toBe(400);
    expect((await getJson(ctx, '/v1/semantic-search?q=a')).status).toBe(422);
    expect((await getJson(ctx, '/v1/semantic-search?q=apple&types=planets')).status).toBe(422);
  });
});
