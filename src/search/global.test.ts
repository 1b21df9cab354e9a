// GET /search on the real data: a renamed company answers under the symbol it trades under now,
// counting the trades filed under its former symbol, and a reused symbol is read by each trade's
// date (the table in src/domain/symbol-changes.ts). SQLite and, with DCLEDGER_TEST_DATABASE_URL,
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';

type Tickers = {
  tickers: { ticker: string; company_name: string | null; trade_count: number; score: number }[];
};

describe.skipIf(!realDataAvailable())('GET /search across symbol changes', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  const tickersFor = async (q: string) =>
    (await getJson<Tickers>(ctx, `/search?q=${encodeURIComponent(q)}&types=tickers`)).body.tickers;

  /** Current trades filed under `ticker`, on transaction dates in [from, until). */
  const filed = async (ticker: string, from = '0000-00-00', until = '9999-12-31') => {
    const row = await ctx.store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ticker', '=', ticker)
      .where('superseded_by', 'is', null)
      .where('transaction_date', '>=', from)
      .where('transaction_date', '<', until)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('answers FB, Facebook and META with Meta Platforms, counting the trades filed under both symbols', async () => {
    const both = (await filed('FB')) + (await filed('META'));
    expect(await filed('FB')).toBeGreaterThan(100);
    for (const q of ['FB', 'Facebook', 'META']) {
      const tickers = await tickersFor(q);
      expect(tickers[0]).toMatchObject({ ticker: 'META', company_name: 'Meta Platforms', trade_count: both });
      expect(tickers.map((entry) => entry.ticker)).not.toContain('FB');
    }
    expect((await tickersFor('FB'))[0]?.score).toBe(100);
  });

  it('reads a reused symbol by the trade date: BBT of 2015 is Truist (TFC), BBT of 2025 Beacon Financial', async () => {
    const tickers = await tickersFor('BBT');
    const truist = tickers.find((entry) => entry.ticker === 'TFC');
    const beacon = tickers.find((entry) => entry.ticker === 'BBT');
    expect(truist).toMatchObject({
      company_name: 'Truist Financial',
      trade_count: (await filed('TFC')) + (await filed('BBT', '0000-00-00', '2025-09-02')),
      score: 100,
    });
    expect(beacon).toMatchObject({
      company_name: 'Beacon Financial Corporation',
      trade_count: 1,
      score: 100,
    });
    // Asked as TFC, Beacon Financial's BBT is not Truist's.
    expect((await tickersFor('TFC')).map((entry) => entry.ticker)).not.toContain('BBT');
  });

  it('answers CBS, VIAC and PARA with Paramount Skydance (the successor), none counted for the company now listed as PARA', async () => {
    const lineage =
      (await filed('CBS')) +
      (await filed('VIAC')) +
      (await filed('PARA', '0000-00-00', '2025-08-07')) +
      (await filed('PSKY'));
    expect(await filed('CBS')).toBeGreaterThan(0);
    expect(await filed('VIAC')).toBeGreaterThan(0);
    expect(await filed('PARA')).toBeGreaterThan(0);
    // What makes the case: the directory names another company for PARA today.
    const listed = await ctx.store.db
      .selectFrom('companies')
      .select('name')
      .where('ticker', '=', 'PARA')
      .executeTakeFirst();
    expect(listed?.name).toMatch(/Banzai/);
    for (const q of ['CBS', 'VIAC', 'PARA', 'Paramount']) {
      const tickers = await tickersFor(q);
      expect(tickers[0]).toMatchObject({ ticker: 'PSKY', trade_count: lineage });
      expect(tickers[0]?.company_name).toMatch(/^Paramount Skydance/);
      // PARA may answer as the company listed under it today, but with none of Paramount's trades.
      const listedToday = tickers.filter((entry) => entry.ticker === 'PARA');
      expect(listedToday.reduce((sum, entry) => sum + entry.trade_count, 0)).toBe(0);
    }
  });

  it("words a PARA trade of 2023 with Paramount's name, not the directory's later PARA (Banzai)", async () => {
    const trades = await ctx.store.db
      .selectFrom('trades')
      .select('id')
      .where('ticker', '=', 'PARA')
      .where('transaction_date', '<', '2025-08-07')
      .where('superseded_by', 'is', null)
      .execute();
    expect(trades.length).toBeGreaterThan(0);
    const documents = await ctx.store.db
      .selectFrom('search_documents')
      .select('body')
      .where('kind', '=', 'trades')
      .where(
        'ref_id',
        'in',
        trades.map((trade) => String(trade.id)),
      )
      .execute();
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) {
      expect(document.body).not.toMatch(/Banzai/);
      expect(document.body).toMatch(/Paramount Skydance/);
    }
  });

  it('answers UTX with RTX, and leaves a symbol the table does not name as it was', async () => {
    const [rtx] = await tickersFor('UTX');
    expect(rtx).toMatchObject({ ticker: 'RTX', trade_count: (await filed('RTX')) + (await filed('UTX')) });
    const [apple] = await tickersFor('AAPL');
    expect(apple).toMatchObject({ ticker: 'AAPL', score: 100, trade_count: await filed('AAPL') });
  });
});
