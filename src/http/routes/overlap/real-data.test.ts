// GET /overlap, GET /companies/{ticker} on the real data: concrete records (LDA filing UUIDs, FEC
// record ids, USAspending award ids) linked to concrete trades, every evidence id checked against
// its table, and widening the window never losing a hit.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTickerSymbol } from '../../../domain/ticker.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Hit {
  trade: {
    id: number;
    politician_id: number;
    politician_slug: string;
    ticker: string;
    transaction_date: string;
  };
  committees_at_trade: {
    committee_id: string;
    seat_committee_id: string;
    start_date: string;
    end_date: string | null;
  }[];
  lobbying: {
    lobbying_filing_id: number;
    filing_uuid: string;
    url: string;
    committees: { committee_id: string; issue_codes: string[] }[];
  }[];
  contracts: { contract_id: number; award_id: string }[];
  campaign: { fec_record_id: string; fec_committee_id: string }[];
}
type Overlap = { total: number; hits: Hit[] };

describe.skipIf(!realDataAvailable())('GET /overlap and GET /companies/{ticker} on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it("links Lloyd Smucker's April 2026 WFC sale to Wells Fargo's 2016 tax lobbying through Ways and Means", async () => {
    const { status, body } = await getJson<Overlap>(
      ctx,
      '/overlap?date_from=2026-04-23&date_to=2026-04-23&ticker=WFC&window_days=3650',
    );
    expect(status).toBe(200);
    const hit = body.hits.find((item) => item.trade.politician_slug === 'lloyd-smucker');
    expect(hit?.trade).toMatchObject({ ticker: 'WFC', transaction_date: '2026-04-23' });
    const filing = hit?.lobbying.find((item) => item.filing_uuid === '3398c048-152d-47e1-8465-9ce064aec6ad');
    expect(filing?.url).toBe(
      'https://lda.senate.gov/filings/public/filing/3398c048-152d-47e1-8465-9ce064aec6ad/print/',
    );
    expect(filing?.committees).toEqual([
      expect.objectContaining({ committee_id: 'HSWM', issue_codes: ['TAX'] }),
    ]);
    // At the default one-year window the 2016 filing is too far from the trade.
    const narrow = await getJson<Overlap>(ctx, '/overlap?date_from=2026-04-23&date_to=2026-04-23&ticker=WFC');
    expect(narrow.body.hits.flatMap((item) => item.lobbying.map((entry) => entry.filing_uuid))).not.toContain(
      '3398c048-152d-47e1-8465-9ce064aec6ad',
    );
  });

  it("links Shelley Moore Capito's 2018 GD purchase to the General Dynamics PAC's 2019 contribution", async () => {
    const { body } = await getJson<Overlap>(
      ctx,
      '/overlap?date_from=2018-01-01&date_to=2019-12-31&link_kind=campaign',
    );
    const hit = body.hits.find(
      (item) =>
        item.trade.politician_slug === 'shelley-capito' && item.trade.transaction_date === '2018-04-24',
    );
    expect(hit?.trade.ticker).toBe('GD');
    expect(hit?.campaign).toEqual([
      expect.objectContaining({ fec_record_id: '4031520191645090288', fec_committee_id: 'C00078451' }),
    ]);
    expect(hit?.lobbying).toEqual([]);
  });

  it('names only records that exist, with the seat held on the trade date', async () => {
    const { body } = await getJson<Overlap>(
      ctx,
      '/overlap?date_from=2025-01-01&date_to=2026-06-01&window_days=3650&limit=500',
    );
    expect(body.hits.length).toBeGreaterThan(50);
    const db = ctx.store.db;
    for (const hit of body.hits) {
      const trade = await db
        .selectFrom('trades as t')
        .innerJoin('politicians as p', 'p.id', 't.politician_id')
        .select(['t.ticker', 't.transaction_date', 'p.bioguide_id'])
        .where('t.id', '=', hit.trade.id)
        .executeTakeFirstOrThrow();
      expect(trade.ticker).toBe(hit.trade.ticker);
      for (const seat of hit.committees_at_trade) {
        const stored = await db
          .selectFrom('committee_seats')
          .select(['start_date', 'end_date'])
          .where('committee_id', '=', seat.seat_committee_id)
          .where('bioguide_id', '=', trade.bioguide_id ?? '')
          .where('start_date', '=', seat.start_date)
          .executeTakeFirstOrThrow();
        expect(stored.start_date <= trade.transaction_date).toBe(true);
        expect(stored.end_date === null || stored.end_date > trade.transaction_date).toBe(true);
      }
      for (const filing of hit.lobbying) {
        const stored = await db
          .selectFrom('lobbying_filings')
          .select(['ticker', 'filing_uuid'])
          .where('id', '=', filing.lobbying_filing_id)
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({ ticker: hit.trade.ticker, filing_uuid: filing.filing_uuid });
      }
      for (const award of hit.contracts) {
        const stored = await db
          .selectFrom('contract_awards')
          .select(['ticker', 'award_id'])
          .where('id', '=', award.contract_id)
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({ ticker: hit.trade.ticker, award_id: award.award_id });
      }
      for (const gift of hit.campaign) {
        const stored = await db
          .selectFrom('fec_committee_contributions')
          .select('committee_id')
          .where('id', '=', gift.fec_record_id)
          .executeTakeFirstOrThrow();
        expect(stored.committee_id).toBe(gift.fec_committee_id);
      }
    }
  });

  it('never loses a hit or a linking record when the window widens', async () => {
    const evidence = (hits: Hit[]) =>
      new Set(
        hits.flatMap((hit) => [
          `trade:${hit.trade.id}`,
          ...hit.lobbying.map((filing) => `${hit.trade.id}:lobbying:${filing.lobbying_filing_id}`),
          ...hit.contracts.map((award) => `${hit.trade.id}:contract:${award.contract_id}`),
          ...hit.campaign.map((gift) => `${hit.trade.id}:campaign:${gift.fec_record_id}`),
        ]),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 650 }),
        async (narrow, extra) => {
          const query = '/overlap?date_from=2018-01-01&date_to=2026-06-01&limit=500';
          const small = await getJson<Overlap>(ctx, `${query}&window_days=${narrow}`);
          const wide = await getJson<Overlap>(ctx, `${query}&window_days=${narrow + extra}`);
          expect(wide.body.total).toBeGreaterThanOrEqual(small.body.total);
          const widened = evidence(wide.body.hits);
          for (const item of evidence(small.body.hits)) expect(widened.has(item), item).toBe(true);
        },
      ),
      { numRuns: 4 },
    );
  });

  it("builds Lockheed Martin's dossier from its lobbying, NASA contracts and members' trades", async () => {
    const { status, body } = await getJson<{
      company: { name: string; sector: string };
      member_trades: { trade_count: number; members: { slug: string; trade_count: number }[] };
      lobbying: { filings: { filing_uuid: string }[]; issues: { code: string }[] };
      contracts: { awards: { award_id: string }[] };
      overseeing_committees: { committee_id: string }[];
    }>(ctx, '/companies/LMT');
    expect(status).toBe(200);
    expect(body.company).toMatchObject({ name: 'Lockheed Martin', sector: 'Industrials' });
    expect(body.member_trades.members).toContainEqual(
      expect.objectContaining({ slug: 'kevin-hern', trade_count: 10 }),
    );
    expect(body.lobbying.filings.map((filing) => filing.filing_uuid)).toContain(
      'b4088fda-f565-46e6-8052-8c2cbe9c2141',
    );
    expect(body.lobbying.issues[0]?.code).toBe('DEF');
    expect(body.contracts.awards.map((award) => award.award_id).sort()).toEqual([
      '80JSC019C0012',
      'NNJ06TA25C',
    ]);
    expect(body.overseeing_committees.map((committee) => committee.committee_id)).toEqual(
      expect.arrayContaining(['HSAS', 'SSAS', 'SSCM']),
    );
  });

  it('answers for any traded ticker symbol, charging one flat price', async () => {
    const rows = await ctx.store.db
      .selectFrom('trades')
      .select('ticker')
      .distinct()
      .where('ticker', '!=', 'N/A')
      .orderBy('ticker')
      .execute();
    // Malformed tickers from the source files ("--   AM") are refused by every ticker route with a 422.
    const tickers = rows.map((row) => row.ticker).filter(isTickerSymbol);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tickers), async (ticker) => {
        const { status, body, headers } = await getJson<{ ticker: string }>(
          ctx,
          `/companies/${encodeURIComponent(ticker)}`,
        );
        expect(status, ticker).toBe(200);
        expect(body.ticker).toBe(ticker);
        expect(headers['x-credits-charged']).toBe('50');
      }),
      { numRuns: 8 },
    );
  });
});
