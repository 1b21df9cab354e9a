import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filing as FilingResource } from '../../../resources/filing.js';
import { type FilingListParams, listFilings, listFilingsJson } from '../../../services/filings.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';
import { expectSamePage } from '../../../test-support/database-json.js';

describe.skipIf(!realDataAvailable())('filings on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('lists paper Senate filings with their status and reason, never as zero-trade parses', async () => {
    const { status, body } = await getJson<FilingResource[]>(
      ctx,
      '/filings?source=senate&status=paper&limit=1000',
    );
    expect(status).toBe(200);
    const direct = await sql<{
      n: number;
    }>`select count(*) as n from filings where source = 'senate_efd' and parse_status = 'paper'`.execute(
      ctx.store.db,
    );
    expect(body).toHaveLength(Number(direct.rows[0]?.n));
    expect(body.length).toBeGreaterThan(100);
    for (const filing of body) {
      expect(filing).toMatchObject({ is_paper: true, trade_count: 0, chamber: 'Senate' });
      expect(filing.parse_reason).toMatch(/paper/);
      expect(filing.url).toMatch(/^https:\/\/efdsearch\.senate\.gov\/search\/view\/paper\//);
    }
  });

  it('serves each page as the database writes it: the same filings, fields and values as the resources', async () => {
    // A constructed amendment (the fixture links none), so that the amends and amended-by links
    // are on the pages compared; undone at the end.
    const [older, newer] = (
      await sql<{
        id: number;
      }>`select id from filings order by (filed_date is null), filed_date desc, id desc limit 2`.execute(
        ctx.store.db,
      )
    ).rows.map((row) => Number(row.id));
    await sql`update filings set amends_filing_id = ${older} where id = ${newer}`.execute(ctx.store.db);
    for (const params of [
      { limit: 1000, offset: 0 },
      { limit: 1000, offset: 1000 },
      { limit: 30, offset: 0, source: 'senate', status: 'paper' },
      { limit: 50, offset: 0, politician_id: 'thomas-kean', date_from: '2026-01-01' },
      { limit: 10, offset: 1_000_000 },
    ] satisfies FilingListParams[]) {
      expectSamePage(
        await listFilingsJson(ctx.store.db, params),
        await listFilings(ctx.store.db, params),
        JSON.stringify(params),
      );
    }
    const all = JSON.parse(
      (await listFilingsJson(ctx.store.db, { limit: 1000, offset: 0 })).json.toString(),
    ) as FilingResource[];
    await sql`update filings set amends_filing_id = null where id = ${newer}`.execute(ctx.store.db);
    expect(all.some((filing) => filing.is_paper)).toBe(true);
    expect(all.find((filing) => filing.id === older)?.amended_by_filing_id).toBe(newer);
    expect(
      all.some((filing) => filing.chamber === 'Senate') && all.some((filing) => filing.chamber === 'House'),
    ).toBe(true);
  });

  it("filters by member slug and filed dates, newest first, and serves one filing's details", async () => {
    const { body } = await getJson<FilingResource[]>(
      ctx,
      '/filings?politician_id=thomas-kean&date_from=2026-01-01&date_to=2026-12-31',
    );
    expect(body.length).toBeGreaterThan(0);
    expect(
      body.every((f) => f.politician_slug === 'thomas-kean' && (f.filed_date ?? '') >= '2026-01-01'),
    ).toBe(true);
    const dates = body.map((f) => f.filed_date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    const filing = body.find((f) => f.source_doc_id === '20034616');
    const one = await getJson<FilingResource & { superseded_trade_count: number }>(
      ctx,
      `/filings/${filing?.id}`,
    );
    expect(one.body).toMatchObject({
      source: 'house_clerk',
      chamber: 'House',
      kind: 'PTR',
      filed_date: '2026-05-17',
      url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2026/20034616.pdf',
      trade_count: 2,
      superseded_trade_count: 0,
      parse_status: 'imported',
    });
  });

  it('answers 404 and 422 precisely', async () => {
    expect((await getJson(ctx, '/filings/999999999')).status).toBe(404);
    expect((await getJson(ctx, '/filings/abc')).status).toBe(422);
    expect((await getJson(ctx, '/filings?politician_id=nobody-at-all')).status).toBe(404);
    expect((await getJson(ctx, '/filings?source=parliament')).status).toBe(422);
    expect((await getJson(ctx, '/filings?status=lost')).status).toBe(422);
    expect((await getJson(ctx, '/filings?date_from=2026-02-01&date_to=2026-01-01')).status).toBe(422);
  });
});
