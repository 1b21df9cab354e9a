// The full ingest of the recorded real documents, served by the replay server on 127.0.0.1, into a
// copy of the real-data fixture (legislators and the Stock Watcher sets), run twice.

import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Filing } from '../../resources/filing.js';
import type { Trade } from '../../resources/trade.js';
import type { Database } from '../../storage/schema.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../test-support/app.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { FIXTURE_NOW } from '../../test-support/real-data.js';
import { databaseDigest, type ReplayRun, replayRunner, startReplay } from '../../test-support/replay.js';
import { importLegislators } from '../legislators/import.js';
import type { ReplayServer } from '../replay/server.js';
import type { HouseReplay } from '../sources/house/replay.js';
import { contentUuid, type SenateReplay } from '../sources/senate/replay.js';
import type { IngestReport, SourceReport } from './report.js';

// Captured before anything in this process could load pdf.js (each test file runs in its own process).
const originalJsonParse = JSON.parse;

const dataDir = inject('dataDir');

describe.skipIf(!realDataAvailable() || !dataDir)('full ingest against the replay server', () => {
  let ctx: FixtureApp;
  let server: ReplayServer;
  let runner: ReplayRun;
  let first: IngestReport;
  let second: IngestReport;
  let before: {
    senateFilingsKnown: number;
    senateDataSetTrades: number;
    houseFilingsKnown: number;
    dataSetTradesOfThoseFilings: number;
    dataSetRows: Map<
      number,
      { filing_id: number | null; asset_description: string | null; comment: string | null }
    >;
  };
  let afterFirst: Record<string, string>;
  let afterSecond: Record<string, string>;
  const source = (report: IngestReport, name: SourceReport['connector']) => {
    const found = report.sources.find((entry) => entry.connector === name);
    if (!found) throw new Error(`no ${name} report`);
    return found;
  };

  beforeAll(async () => {
    ctx = await openFixtureApp();
    server = await startReplay(dataDir ?? '');
    runner = replayRunner(server.url);
    const houseDocs = [...server.routesOf<HouseReplay>('house').years.values()].flatMap((year) => [
      ...year.docIds,
    ]);
    const house = await recordedBefore(ctx.store.db, 'house_clerk', houseDocs);
    // eFD reports the Senate Stock Watcher files recorded: the replay serves their pages under the
    // real report UUID when it can tell which report a page is.
    const senateUuids = server.routesOf<SenateReplay>('senate').reports.map((report) => report.uuid);
    const senate = await recordedBefore(ctx.store.db, 'senate_efd', senateUuids);
    before = {
      senateFilingsKnown: senate.filings,
      senateDataSetTrades: senate.trades.length,
      houseFilingsKnown: house.filings,
      dataSetTradesOfThoseFilings: house.trades.length,
      dataSetRows: new Map(house.trades.map((row) => [row.id, row])),
    };
    first = await runner.run(ctx.store.db);
    afterFirst = await databaseDigest(ctx.store.db);
    // A later clock: any row the second run rewrote would carry a new timestamp.
    second = await runner.run(ctx.store.db, { now: new Date(FIXTURE_NOW.getTime() + 3_600_000) });
    afterSecond = await databaseDigest(ctx.store.db);
  });
  afterAll(async () => {
    await server?.close();
    runner?.dispose();
    await ctx?.close();
  });

  it('stores every recorded document with the status its parse gave', () => {
    for (const report of first.sources) expect(report).toMatchObject({ status: 'completed', error: null });
    expect(source(first, 'house')).toMatchObject({
      documents: { stored: 59, failed: 0, remaining: 0 },
      statuses: { parsed: 52, needs_ocr: 7 },
    });
    // 249 distinct eFD pages (the recordings hold 20 pages twice) and 32 paper PTRs of the AR index.
    expect(source(first, 'senate')).toMatchObject({
      documents: { stored: 281, failed: 0, remaining: 0 },
      statuses: { parsed: 249, paper: 32 },
    });
    expect(source(first, 'oge')).toMatchObject({
      documents: { stored: 104, failed: 0, remaining: 0 },
      statuses: { parsed: 100, unsupported: 2, needs_ocr: 1, failed: 1 },
    });
  });

  it('the second run fetches no document and changes nothing', () => {
    for (const report of second.sources) {
      expect(report.status).toBe('completed');
      expect(report.newFilings).toBe(0);
      expect(report.documents.stored).toBe(0);
      expect(report.trades).toEqual({
        created: 0,
        twins: 0,
        updated: 0,
        unchanged: 0,
        unconfirmed: 0,
        waitingReview: 0,
      });
      expect(report.events).toEqual({ disclosureDetected: 0, tradeCreated: 0 });
      expect(report.amendments.superseded).toBe(0);
      expect(report.index.alreadyKnown).toBe(report.index.listed);
    }
    expect(afterSecond).toEqual(afterFirst);
  });

  it('never duplicates a trade a data set already had for the same House report', async () => {
    const house = source(first, 'house');
    expect(house.newFilings).toBe(59 - before.houseFilingsKnown);
    expect(before.dataSetTradesOfThoseFilings).toBeGreaterThan(100);
    const db = ctx.store.db;
    const aliased = async (origin: string) => {
      const row = await db
        .selectFrom('trade_aliases as a')
        .innerJoin('trades as t', 't.id', 'a.trade_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('a.origin', '=', 'connector:house_clerk')
        .where('t.origin', '=', origin)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    // Every data-set trade of those reports is confirmed by an official row or counted as unconfirmed.
    const sameReport = await aliased('house-stock-watcher');
    expect(sameReport + house.trades.unconfirmed).toBe(before.dataSetTradesOfThoseFilings);
    expect(sameReport).toBeGreaterThan(0.95 * before.dataSetTradesOfThoseFilings);
    // The HSW export has no report ids: its rows match on member, filing date and all five fields.
    const withoutReportIds = await aliased('house-stock-watcher-export');
    expect(withoutReportIds).toBeGreaterThan(0);
    expect(sameReport + withoutReportIds).toBe(house.trades.twins);
    // Per ingested report: one live trade per official row, whoever brought it first.
    const perFiling = await liveTradesAndOfficialKeys(db, 'house_clerk');
    expect(perFiling).toHaveLength(52);
    for (const row of perFiling)
      expect({ doc: row.doc, live: row.live }).toEqual({ doc: row.doc, live: row.keys });
  });

  it('never duplicates a trade a data set already had for the same eFD report', async () => {
    const senate = source(first, 'senate');
    const pages = server.routesOf<SenateReplay>('senate').reports.filter((report) => report.kind === 'ptr');
    const realIds = pages.filter((report) => report.html && report.uuid !== contentUuid(report.html));
    expect([pages.length, realIds.length]).toEqual([249, 138]);
    expect(before.senateFilingsKnown).toBe(138 + 32);
    expect(senate.newFilings).toBe(281 - before.senateFilingsKnown);
    expect(senate.trades.twins).toBeGreaterThan(0.9 * before.senateDataSetTrades);
    const db = ctx.store.db;
    const perFiling = await liveTradesAndOfficialKeys(db, 'senate_efd');
    expect(perFiling).toHaveLength(249);
    // One trade per official row, whoever brought it first; data-set rows no official row confirmed
    // stay as they were and are counted.
    let extra = 0;
    for (const row of perFiling) {
      expect(row.live).toBeGreaterThanOrEqual(row.keys);
      extra += row.live - row.keys;
    }
    expect(extra).toBe(senate.trades.unconfirmed);
  });

  it('takes the official values for a twin and keeps its id and origin', async () => {
    const twins = await ctx.store.db
      .selectFrom('trade_aliases as a')
      .innerJoin('trades as t', 't.id', 'a.trade_id')
      .select(['t.id', 't.origin', 't.filing_id', 't.asset_description', 't.comment', 'a.source_key'])
      .where('a.origin', '=', 'connector:house_clerk')
      .where('t.origin', '=', 'house-stock-watcher')
      .execute();
    expect(twins.length).toBeGreaterThan(100);
    let rewritten = 0;
    for (const twin of twins) {
      const recorded = before.dataSetRows.get(twin.id);
      // The same trade (same id) of the same report, as the data set brought it...
      expect(recorded?.filing_id).toBe(twin.filing_id);
      // ...now described as the official document does (the set has no comments, for one).
      if (recorded?.asset_description !== twin.asset_description || recorded?.comment !== twin.comment)
        rewritten += 1;
    }
    expect(rewritten).toBeGreaterThan(0);
  });

  it('emits one disclosure.detected per new filing and one trade.created per new trade', async () => {
    const db = ctx.store.db;
    const counts = await db
      .selectFrom('events')
      .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('type')
      .execute();
    const byType = Object.fromEntries(counts.map((row) => [row.type, Number(row.n)]));
    const sum = (pick: (report: SourceReport) => number) =>
      first.sources.reduce((total, r) => total + pick(r), 0);
    expect(byType['disclosure.detected']).toBe(sum((r) => r.newFilings));
    expect(byType['trade.created']).toBe(sum((r) => r.trades.created));
    const created = await db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('origin', 'like', 'connector:%')
      .executeTakeFirst();
    expect(byType['trade.created']).toBe(Number(created?.n));
    // Twins (trades a data set brought) have no trade.created.
    const twinEvents = await sql<{ n: number }>`
      select count(*) as n from events e join trades t on e.subject_key = 'trade:' || t.id
      where e.type = 'trade.created' and t.origin not like 'connector:%'`.execute(db);
    expect(Number(twinEvents.rows[0]?.n)).toBe(0);
  });

  it('shapes trade.created data as the Trade of GET /trades', async () => {
    const event = await ctx.store.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'trade.created')
      .where('ticker', '=', 'NVDA')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const data = JSON.parse(event.data) as Trade;
    expect(event.subject_key).toBe(`trade:${data.id}`);
    const { body } = await getJson<Trade[]>(
      ctx,
      `/trades?politician_id=${data.politician_id}&ticker=NVDA&date_from=${data.disclosure_date}&date_to=${data.disclosure_date}&limit=1000`,
    );
    const served = body.find((trade) => trade.id === data.id);
    expect(served).toEqual(data);
    expect(event.politician_slug).toBe(served?.politician_slug);
  });

  it('shapes disclosure.detected data as the Filing resource before its parse, with the tickers and largest amount a quick read found', async () => {
    const event = await ctx.store.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'disclosure.detected')
      .where('subject_key', '=', 'house_clerk:20026590')
      .executeTakeFirstOrThrow();
    const data = JSON.parse(event.data) as Filing & Record<string, unknown>;
    const { body: filing } = await getJson<Filing & { superseded_trade_count: number; review: unknown }>(
      ctx,
      `/filings/${data.id}`,
    );
    // The detail's own additions (amended-away trades, the review queue) are not in the event.
    const { superseded_trade_count: _count, review: _review, ...resource } = filing;
    expect(Object.keys(data)).toEqual(expect.arrayContaining(Object.keys(resource)));
    expect(data).toMatchObject({
      source: 'house_clerk',
      source_doc_id: '20026590',
      politician_slug: 'nancy-pelosi',
      parse_status: 'pending',
      trade_count: 0,
      member: 'Nancy Pelosi',
      party: 'D',
      chamber: 'House',
    });
    // The quick read agrees with the full parse that followed: every ticker, the largest bracket.
    const trades = await ctx.store.db
      .selectFrom('trades')
      .select(['ticker', 'amount_low', 'amount_high'])
      .where('filing_id', '=', data.id)
      .execute();
    const tickers = [...new Set(trades.map((trade) => trade.ticker).filter((ticker) => ticker !== 'N/A'))];
    expect(tickers.length).toBeGreaterThan(0);
    expect([...(data.tickers as string[])].sort()).toEqual(expect.arrayContaining(tickers.sort()));
    const largest = Math.max(...trades.map((trade) => trade.amount_high ?? trade.amount_low ?? 0));
    expect(data.est_amount_high).toBe(largest);
    expect(data.is_high_signal).toBe(largest >= 1_000_000);
    expect(filing).toMatchObject({
      parse_status: 'parsed',
      trade_count: 9,
      raw_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('gives every trade.created event the Trade GET /trades serves, and a ticker filter only when the trade has a ticker', async () => {
    const events = await ctx.store.db
      .selectFrom('events')
      .select(['subject_key', 'ticker', 'politician_slug', 'data'])
      .where('type', '=', 'trade.created')
      .execute();
    expect(events.length).toBeGreaterThan(100);
    const pushed = events.map((event) => ({ event, data: JSON.parse(event.data) as Trade }));
    const dates = pushed.map(({ data }) => data.disclosure_date ?? '').sort();
    const served = new Map<number, Trade>();
    for (let offset = 0; ; offset += 1000) {
      const { body } = await getJson<Trade[]>(
        ctx,
        `/trades?date_from=${dates[0]}&date_to=${dates.at(-1)}&include_superseded=true&sort_by=transaction_date&limit=1000&offset=${offset}`,
      );
      for (const trade of body) served.set(trade.id, trade);
      if (body.length < 1000) break;
    }
    for (const { event, data } of pushed) {
      expect(event.subject_key).toBe(`trade:${data.id}`);
      // An amendment stored later replaces the trade: then, and only then, superseded_by differs,
      // and updated_at with it (being replaced is a change a syncing client must see).
      const { superseded_by: replacedBy, ...now } = served.get(data.id) ?? { superseded_by: null };
      const { superseded_by: atCreation, ...pushedData } = data;
      if (replacedBy === null) expect(now).toEqual(pushedData);
      else expect({ ...now, updated_at: pushedData.updated_at }).toEqual(pushedData);
      expect(atCreation).toBeNull();
      if (replacedBy !== null) expect(replacedBy).not.toBe(data.id);
      expect(event.politician_slug).toBe(data.politician_slug);
      // "N/A" (no public ticker) is not something a subscription filters on.
      expect(event.ticker).toBe(data.ticker === 'N/A' ? null : data.ticker);
    }
    expect(pushed.some(({ data }) => data.ticker === 'N/A')).toBe(true);
  });

  it('gives every disclosure.detected event the Filing of GET /filings/{id} plus the pre-parse context', async () => {
    const events = await ctx.store.db
      .selectFrom('events')
      .select(['subject_key', 'ticker', 'politician_slug', 'data'])
      .where('type', '=', 'disclosure.detected')
      .execute();
    expect(events.length).toBeGreaterThan(10);
    const contextKeys = ['member', 'party', 'chamber', 'tickers', 'est_amount_high', 'is_high_signal'];
    // Reading the document later sets its status, counts and hash, and may name the filer (OGE's
    // listing does not); what identifies the filing stays as it was listed.
    const identity = ['id', 'source', 'source_doc_id', 'kind', 'url', 'created_at'] as const;
    const member = ['politician_id', 'politician_name', 'politician_slug'] as const;
    for (const event of events) {
      const data = JSON.parse(event.data) as Filing & Record<string, unknown>;
      const { body } = await getJson<Filing & { superseded_trade_count: number; review: unknown }>(
        ctx,
        `/filings/${data.id}`,
      );
      const { superseded_trade_count: _count, review: _review, ...resource } = body;
      expect(Object.keys(data).sort()).toEqual(
        [...new Set([...Object.keys(resource), ...contextKeys])].sort(),
      );
      for (const key of identity) expect(data[key]).toEqual(resource[key]);
      // A member matched at listing time stays the filing's member.
      if (data.politician_id !== null) for (const key of member) expect(data[key]).toEqual(resource[key]);
      expect(event.subject_key).toBe(`${data.source}:${data.source_doc_id}`);
      expect(event.politician_slug).toBe(data.politician_slug);
      // A filing naming exactly one ticker is filterable by it; the filter also reads data.tickers.
      const tickers = data.tickers as string[];
      expect(event.ticker).toBe(tickers.length === 1 ? tickers[0] : null);
    }
    // The quick read found tickers in most House PTRs (paper and OCR-only ones have none).
    const withTickers = events.filter((event) => (JSON.parse(event.data).tickers as string[]).length > 0);
    expect(withTickers.length).toBeGreaterThan(10);
  });

  it('lists scanned, paper, unsupported and failed documents in GET /filings with their reasons', async () => {
    const house = await getJson<Filing[]>(ctx, '/filings?source=house&status=needs_ocr&limit=1000');
    expect(house.status).toBe(200);
    expect(house.body.map((filing) => filing.source_doc_id).sort()).toEqual([
      '8220747',
      '8220750',
      '8220796',
      '8220809',
      '8220828',
      '8220834',
      '8220845',
    ]);
    for (const filing of house.body) {
      expect(filing).toMatchObject({ is_paper: true, trade_count: 0, parse_status: 'needs_ocr' });
      expect(filing.parse_reason).toMatch(/without a text layer.*OCR/);
      expect(filing.raw_sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    const paper = await getJson<Filing[]>(ctx, '/filings?source=senate&status=paper&limit=1000');
    const boozman = paper.body.filter((filing) => filing.politician_slug === 'john-boozman');
    for (const filing of boozman) expect(filing.parse_reason).toMatch(/paper/);
    // The recorded paper rows have no page (the replay answers 404): paper, saying why.
    const unfetched = boozman.filter((f) =>
      /page answered 404, so its page images/.test(f.parse_reason ?? ''),
    );
    expect(unfetched).toHaveLength(32);
    const oge = await getJson<Filing[]>(
      ctx,
      '/filings?source=executive&status=unsupported,needs_ocr,failed&limit=1000',
    );
    const byDoc = Object.fromEntries(oge.body.map((filing) => [filing.source_doc_id, filing]));
    expect(byDoc['Mnuchin_Steven_T.pdf']?.parse_reason).toMatch(/transactions are not required/);
    expect(byDoc['Cohn_Gary.pdf']?.parse_status).toBe('unsupported');
    expect(byDoc['Donald J. Trump 11.14.2025 278-T.pdf']?.parse_reason).toMatch(/OCR/);
    expect(byDoc['Bryan-Bedford-11.03.2025-278T.pdf']).toMatchObject({
      parse_status: 'failed',
      trade_count: 0,
    });
    // No electronic report is stored as "zero trades" without saying why.
    const silent = await sql<{ doc: string }>`
      select f.source_doc_id as doc from filings f join ingest_documents d on d.filing_id = f.id
      where f.parse_status = 'parsed' and f.parse_reason is null
        and not exists (select 1 from trades t where t.filing_id = f.id)`.execute(ctx.store.db);
    expect(silent.rows).toEqual([]);
  });

  it('creates executive filers with title and agency, and reports who it could not match', async () => {
    const oge = source(first, 'oge');
    expect(oge.filers.created).toContain(
      'Deanne Criswell (Administrator, Department of Homeland Security), oge:Deanne-Chriswell-08.05.2021-278T.pdf',
    );
    expect(oge.filers.unidentified).toEqual(['oge:Donald J. Trump 11.14.2025 278-T.pdf (needs_ocr)']);
    const criswell = await ctx.store.db
      .selectFrom('politicians')
      .selectAll()
      .where('name', '=', 'Deanne Criswell')
      .execute();
    expect(criswell).toHaveLength(1);
    expect(criswell[0]).toMatchObject({
      chamber: 'Executive',
      title: 'Administrator',
      agency: 'Department of Homeland Security',
    });
    const { body } = await getJson<Filing[]>(ctx, `/filings?politician_id=${criswell[0]?.slug}&limit=100`);
    expect(body.length).toBeGreaterThan(5);
    expect(body.every((filing) => filing.chamber === 'Executive')).toBe(true);
  });

  it("keeps the dates of service the 278e termination reports state on their filers' records", async () => {
    const served = await ctx.store.db
      .selectFrom('politicians')
      .select(['name', 'service_start', 'service_end'])
      .where('chamber', '=', 'Executive')
      .where((eb) => eb.or([eb('service_start', 'is not', null), eb('service_end', 'is not', null)]))
      .orderBy('name')
      .execute();
    expect(served).toEqual(
      expect.arrayContaining([
        { name: 'Marcus Molinaro', service_start: '2025-08', service_end: '2026-02-20' },
        { name: 'Miguel Cardona', service_start: '2021-03', service_end: '2025-01-20' },
      ]),
    );
    // Served where executive filers are shown.
    const { body } = await getJson<{ service_start: string | null; service_end: string | null }>(
      ctx,
      `/politicians/${encodeURIComponent((await slugOf('Marcus Molinaro')) ?? '')}`,
    );
    expect(body).toMatchObject({ chamber: 'Executive', service_start: '2025-08', service_end: '2026-02-20' });
  });

  async function slugOf(name: string) {
    const row = await ctx.store.db
      .selectFrom('politicians')
      .select('slug')
      .where('name', '=', name)
      .where('chamber', '=', 'Executive')
      .executeTakeFirst();
    return row?.slug;
  }

  it("stores an eFD exchange's two symbols from the page (reports no data set had)", async () => {
    const exchanges = await ctx.store.db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select([
        'p.name',
        't.transaction_date',
        't.ticker',
        't.exchange_from_ticker',
        't.exchange_to_ticker',
        't.origin',
      ])
      .where('t.trade_action', '=', 'exchange')
      .where('t.transaction_date', 'in', ['2021-11-01', '2021-06-02', '2020-04-01'])
      .where('t.ticker', 'in', ['VZ', 'MRK', 'DELL'])
      .where('t.superseded_by', 'is', null)
      .orderBy('t.transaction_date')
      .execute();
    expect(
      exchanges.map((trade) => [
        trade.transaction_date,
        trade.ticker,
        trade.exchange_from_ticker,
        trade.exchange_to_ticker,
      ]),
    ).toEqual([
      ['2020-04-01', 'VZ', 'VZ', 'TMUS'],
      ['2021-06-02', 'MRK', 'MRK', 'OGN'],
      ['2021-11-01', 'DELL', 'DELL', 'VMW'],
    ]);
    expect(exchanges.every((trade) => trade.origin === 'connector:senate_efd')).toBe(true);
  });

  async function tradeOfKey(key: string) {
    const db = ctx.store.db;
    const own = await db
      .selectFrom('trades')
      .select(['id', 'superseded_by', 'filing_id', 'ticker', 'transaction_date'])
      .where('source_key', '=', key)
      .executeTakeFirst();
    if (own) return own;
    return db
      .selectFrom('trade_aliases as a')
      .innerJoin('trades as t', 't.id', 'a.trade_id')
      .select(['t.id', 't.superseded_by', 't.filing_id', 't.ticker', 't.transaction_date'])
      .where('a.source_key', '=', key)
      .executeTakeFirstOrThrow();
  }

  async function filingOf(source: string, docId: string) {
    const { body } = await getJson<Filing[]>(ctx, `/filings?source=${source}&limit=1000`);
    const found = body.find((filing) => filing.source_doc_id === docId);
    if (!found) throw new Error(`no filing ${docId}`);
    return (
      await getJson<Filing & { superseded_trade_count: number; review: unknown }>(ctx, `/filings/${found.id}`)
    ).body;
  }

  it('supersedes the House rows an amendment restates and keeps them in the history', async () => {
    // Pelosi's 20018539 restates, as "Amended" rows, AB purchases first filed in 20018011 and 20018355.
    const pairs = [
      ['20018011#1', '20018539#1'],
      ['20018355#1', '20018539#2'],
      ['20018355#2', '20018539#3'],
    ] as const;
    for (const [oldKey, newKey] of pairs) {
      const replaced = await tradeOfKey(oldKey);
      const replacement = await tradeOfKey(newKey);
      expect(replaced.superseded_by).toBe(replacement.id);
      expect(replacement.superseded_by).toBeNull();
    }
    const amendment = await filingOf('house_clerk', '20018539');
    const original = await filingOf('house_clerk', '20018355');
    expect(amendment).toMatchObject({ is_amendment: true, amends_filing_id: original.id, trade_count: 6 });
    expect(original).toMatchObject({
      amended_by_filing_id: amendment.id,
      trade_count: 0,
      superseded_trade_count: 2,
    });
    const live = await getJson<Trade[]>(
      ctx,
      `/trades?politician_id=${amendment.politician_id}&ticker=AB&days=3650&limit=100`,
    );
    expect(live.body.filter((trade) => trade.transaction_date === '2021-02-18')).toHaveLength(1);
    const history = await getJson<Trade[]>(
      ctx,
      `/trades?politician_id=${amendment.politician_id}&ticker=AB&days=3650&limit=100&include_superseded=true`,
    );
    const both = history.body.filter((trade) => trade.transaction_date === '2021-02-18');
    expect(both).toHaveLength(2);
    const kept = live.body.find((trade) => trade.transaction_date === '2021-02-18');
    expect(both.find((trade) => trade.id === kept?.id)?.superseded_by).toBeNull();
    expect(both.find((trade) => trade.id !== kept?.id)?.superseded_by).toBe(kept?.id);
  });

  it("finds a House original that a data set recorded with another date (Bresnahan's NFLX sale)", async () => {
    const amended = await tradeOfKey('20030336#1');
    expect(amended).toMatchObject({ ticker: 'NFLX', transaction_date: '2025-04-17', superseded_by: null });
    const replaced = await ctx.store.db
      .selectFrom('trades as t')
      .innerJoin('filings as f', 'f.id', 't.filing_id')
      .select(['t.origin', 't.transaction_date', 'f.source_doc_id', 'f.id as filing_id'])
      .where('t.superseded_by', '=', amended.id)
      .execute();
    expect(replaced).toEqual([
      expect.objectContaining({
        origin: 'house-stock-watcher',
        source_doc_id: '20030312',
        transaction_date: '2025-05-17',
      }),
    ]);
    expect((await filingOf('house_clerk', '20030336')).amends_filing_id).toBe(replaced[0]?.filing_id);
  });

  it('keeps an amendment whose original is not on record live and pending', async () => {
    for (const docId of ['20030875', '20031022']) {
      const filing = await filingOf('house_clerk', docId);
      expect(filing).toMatchObject({ is_amendment: true, amends_filing_id: null, parse_status: 'parsed' });
      const document = await ctx.store.db
        .selectFrom('ingest_documents')
        .select('pending_amendment')
        .where('source_doc_id', '=', docId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(document.pending_amendment ?? 'null')).toMatchObject({ kind: 'rows' });
    }
    expect((await tradeOfKey('20031022#45')).superseded_by).toBeNull();
    expect(source(first, 'house').amendments.pending).toBe(2);
  });

  it('leaves JSON.parse of the API thread untouched (PDFs are read in a worker)', () => {
    expect(JSON.parse).toBe(originalJsonParse);
  });
});

// The replay gives eFD pages UUIDs of its own, so the Senate Stock Watcher sets (real UUIDs) would
// hold the same reports under other ids; these run on a database with the legislators only.
describe.skipIf(!dataDir)('eFD amendments against the replay server', () => {
  let store: TestStore;
  let server: ReplayServer;
  let runner: ReplayRun;
  let report: IngestReport;

  beforeAll(async () => {
    store = await openTestStore();
    await importLegislators(store.db, join(dataDir ?? '', 'congress', 'legislators'), FIXTURE_NOW);
    server = await startReplay(dataDir ?? '');
    runner = replayRunner(server.url);
    report = await runner.run(store.db, { sources: ['senate'] });
  });
  afterAll(async () => {
    await server?.close();
    runner?.dispose();
    await store?.dispose();
  });

  it('links the amendments whose originals are recorded and keeps the others pending', () => {
    const senate = report.sources[0];
    expect(senate).toMatchObject({ connector: 'senate', status: 'completed', filers: { created: [] } });
    // 24 amendment pages; the six whose reports were filed in 2019 (not recorded) stay pending.
    expect(senate?.amendments).toMatchObject({ linked: 18, pending: 6 });
  });

  async function senateFilings(lastName: string, reportDate: string) {
    return store.db
      .selectFrom('filings as f')
      .innerJoin('politicians as p', 'p.id', 'f.politician_id')
      .innerJoin('ingest_documents as d', 'd.filing_id', 'f.id')
      .select([
        'f.id',
        'f.filed_date',
        'f.is_amendment',
        'f.amendment_number',
        'f.amends_filing_id',
        'f.trade_count',
      ])
      .where('f.source', '=', 'senate_efd')
      .where('p.last_name', '=', lastName)
      .where((eb) => eb.or([eb('f.filed_date', '=', reportDate), eb('f.report_date', '=', reportDate)]))
      .orderBy('f.filed_date')
      .orderBy('f.amendment_number')
      .execute();
  }

  it('lets an eFD "(Amendment N)" page replace the report filed on its title date, row by row', async () => {
    const [original, amendment] = await senateFilings('Wyden', '2020-06-01');
    expect(original).toMatchObject({ is_amendment: 0, filed_date: '2020-06-01', trade_count: 0 });
    expect(amendment).toMatchObject({
      is_amendment: 1,
      amendment_number: 1,
      amends_filing_id: original?.id,
      trade_count: 20,
    });
    const corrected = await store.db
      .selectFrom('trades as old')
      .innerJoin('trades as new', 'new.id', 'old.superseded_by')
      .select(['old.ticker as old_ticker', 'new.ticker as new_ticker'])
      .where('old.filing_id', '=', original?.id ?? 0)
      .whereRef('old.ticker', '<>', 'new.ticker')
      .execute();
    expect(corrected).toEqual([{ old_ticker: 'BRY', new_ticker: 'BERY' }]);
  });

  it('follows a chain of eFD amendments and keeps rows an amendment no longer lists', async () => {
    const [original, first, second] = await senateFilings('Loeffler', '2020-02-07');
    expect(first?.amends_filing_id).toBe(original?.id);
    expect(second).toMatchObject({ amendment_number: 2, amends_filing_id: first?.id });
    const [toomeyOriginal, toomeyAmendment] = await senateFilings('Toomey', '2021-01-08');
    expect(toomeyAmendment?.amends_filing_id).toBe(toomeyOriginal?.id);
    // Four rows filed, three restated: the fourth stays as the filer last stated it.
    expect(toomeyOriginal?.trade_count).toBe(1);
    expect(toomeyAmendment?.trade_count).toBe(3);
  });
});

/** The filings a data set recorded among these source documents, and their trades. */
async function recordedBefore(db: Kysely<Database>, source: 'house_clerk' | 'senate_efd', docIds: string[]) {
  const filings = await db
    .selectFrom('filings')
    .select('id')
    .where('source', '=', source)
    .where('source_doc_id', 'in', docIds)
    .execute();
  const trades = filings.length
    ? await db
        .selectFrom('trades')
        .select(['id', 'filing_id', 'asset_description', 'comment'])
        .where(
          'filing_id',
          'in',
          filings.map((row) => row.id),
        )
        .execute()
    : [];
  return { filings: filings.length, trades };
}

/**
 * Per parsed filing an ingest stored: how many trades it has, and how many official row keys point
 * at trades (a trade's own key, or an alias when the row paired with a data-set trade).
 */
async function liveTradesAndOfficialKeys(db: Kysely<Database>, source: 'house_clerk' | 'senate_efd') {
  const origin = `connector:${source}`;
  const result = await sql<{ doc: string; live: number; keys: number }>`
    select f.source_doc_id as doc,
      (select count(*) from trades t where t.filing_id = f.id) as live,
      (select count(*) from trades t where t.source = ${source} and t.source_key like f.source_doc_id || '#%'
        and t.source_key not like f.source_doc_id || '#%#%')
        + (select count(*) from trade_aliases a where a.source = ${source} and a.origin = ${origin}
        and a.source_key like f.source_doc_id || '#%') as keys
    from filings f join ingest_documents d on d.filing_id = f.id
    where f.source = ${source} and f.parse_status = 'parsed'`.execute(db);
  return result.rows.map((row) => ({ doc: row.doc, live: Number(row.live), keys: Number(row.keys) }));
}
