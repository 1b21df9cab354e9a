// Storing real SEC documents in a real database (SQLite, or PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): idempotent upserts on accession number + line, company links,
// events whose data equals the API's resource, and the members'-trade overlap on a built scenario.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadInsiderTrades } from '../../resources/insider.js';
import { getInsiderTrade } from '../../services/insiders.js';
import { getWhale } from '../../services/whales.js';
import { findCompanyLink } from '../../storage/repositories/company-links.js';
import { saveSeriesMeta, writeBars } from '../../storage/repositories/prices.js';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { linkCompanyDirectory, storeSecDocument } from '../sources/sec/store.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-01-05T12:00:00Z');
const read = (...parts: string[]) => readFileSync(join(dataDir ?? '', 'related', ...parts), 'utf8');

function input(accession: string, text: string, form = '4') {
  return { accession_number: accession, form, filed_date: '2025-12-23', url: null, content_hash: null, text };
}

describe.skipIf(!dataDir)('storing SEC documents', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('stores a Form 4 once: three lines, a filing CIK→ticker link, three insider.filed events equal to the resource', async () => {
    const db = store.db;
    const text = read('form4', 'go-edgar', 'arrowhead_footnotes.input.xml');
    const first = await storeSecDocument(db, input('0001242615-25-000006', text), NOW);
    expect(first).toEqual({ status: 'parsed', reason: null, created: 3, events: 3 });
    const link = await findCompanyLink(db, 'cik', '879407');
    expect(link).toMatchObject({
      ticker: 'ARWR',
      method: 'filing',
      confidence: 1,
      source: 'form4:0001242615-25-000006',
    });

    const before = await db.selectFrom('insider_trades').selectAll().orderBy('id').execute();
    const again = await storeSecDocument(
      db,
      input('0001242615-25-000006', text),
      new Date('2026-01-06T00:00:00Z'),
    );
    expect(again).toEqual({ status: 'parsed', reason: null, created: 0, events: 0 });
    const after = await db.selectFrom('insider_trades').selectAll().orderBy('id').execute();
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));

    const events = await db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'insider.filed')
      .orderBy('id')
      .execute();
    expect(events).toHaveLength(3);
    expect(events.every((event) => event.ticker === 'ARWR')).toBe(true);
    const data = JSON.parse(events[0]?.data ?? '{}');
    expect(data).toMatchObject({
      insider_name: 'OLUKOTUN ADEOYE Y',
      ticker: 'ARWR',
      transaction_type: 'Sale',
      shares: 3090,
      price_per_share: 66.7,
      total_value: 206103,
      has_politician_overlap: false,
    });
    expect(data).toEqual(await getInsiderTrade(db, data.id));
  });

  it('stores a 13D with the ticker from the directory CIK link, records CUSIP→ticker, and one whale.filed', async () => {
    const db = store.db;
    await db
      .insertInto('companies')
      .values({
        ticker: 'AADI',
        name: 'Aadi Bioscience, Inc.',
        cik: '0001422142',
        exchange: 'NASDAQ',
        sector: null,
        industry: null,
        updated_at: NOW.toISOString(),
        share_class: null,
        gics_sector: null,
        gics_sub_industry: null,
        nasdaq_sector: null,
        nasdaq_industry: null,
        sector_source: null,
        industry_source: null,
        sources: 'test',
      })
      .execute();
    expect(await linkCompanyDirectory(db, NOW)).toBeGreaterThanOrEqual(1);
    expect(await findCompanyLink(db, 'cik', '1422142')).toMatchObject({
      ticker: 'AADI',
      method: 'directory',
    });

    const result = await storeSecDocument(
      db,
      input('0001373604-25-000001', read('sc13', 'edgartools', 'schedule13d.xml'), 'SCHEDULE 13D'),
      NOW,
    );
    expect(result).toEqual({ status: 'parsed', reason: null, created: 2, events: 1 });
    expect(await findCompanyLink(db, 'cusip', '00032Q104')).toMatchObject({
      ticker: 'AADI',
      method: 'filing',
    });
    const event = await db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'whale.filed')
      .executeTakeFirstOrThrow();
    const data = JSON.parse(event.data);
    // The lead is the largest holder: Leonard's 2,435,000 (9.9%) over the partnership's 2,100,000.
    expect(data).toMatchObject({
      form_type: 'SC 13D',
      filer_name: 'Leonard Braden Michael',
      issuer_name: 'Aadi Bioscience, Inc.',
      ticker: 'AADI',
      cusip: '00032Q104',
      percent_of_class: 9.9,
      shares: 2435000,
      event_date: '2024-12-31',
    });
    expect(data.persons).toHaveLength(2);
    expect(data).toEqual(await getWhale(db, data.id));
    const again = await storeSecDocument(
      db,
      input('0001373604-25-000001', read('sc13', 'edgartools', 'schedule13d.xml'), 'SCHEDULE 13D'),
      NOW,
    );
    expect(again).toMatchObject({ created: 0, events: 0 });
  });

  it("values the 13D's lead position at the ticker's latest close once prices are stored (constructed bars)", async () => {
    const db = store.db;
    const event = await db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'whale.filed')
      .executeTakeFirstOrThrow();
    const { id, position_value } = JSON.parse(event.data);
    expect(position_value).toBeNull();
    const bar = { open: null, high: null, low: null, volume: null };
    await writeBars(db, 'AADI', 'constructed', [
      { date: '2026-01-02', close: 1.2, adj_close: 1.2, ...bar },
      { date: '2026-01-05', close: 1.23, adj_close: 1.23, ...bar },
    ]);
    await saveSeriesMeta(db, {
      symbol: 'AADI',
      source: 'constructed',
      format: 'csv',
      close_basis: 'raw',
      priority: 1,
      origin: 'constructed',
      updated_at: NOW.toISOString(),
      history_changed_at: NOW.toISOString(),
    });
    // 2,435,000 shares × 1.23.
    expect((await getWhale(db, id))?.position_value).toBe(2995050);
  });

  it('records a pre-XML text Form 4 as unsupported, with its header', async () => {
    const result = await storeSecDocument(
      store.db,
      input('0001094891-00-000193', read('form4', 'edgartools', 'sgml__0001094891-00-000193.txt')),
      NOW,
    );
    expect(result.status).toBe('unsupported');
    const filing = await store.db
      .selectFrom('sec_filings')
      .selectAll()
      .where('accession_number', '=', '0001094891-00-000193')
      .executeTakeFirstOrThrow();
    expect(filing).toMatchObject({ status: 'unsupported', form: '4', issuer_cik: '0000911787' });
  });

  it('flags the overlap with members trading the issuer within ±30 days (built scenario, constructed member trades)', async () => {
    const db = store.db;
    const stamp = NOW.toISOString();
    const politician = {
      id: await insertTestMember(
        db,
        { slug: 'test-member', name: 'Test Member', chamber: 'House', party: null, state: null },
        NOW,
      ),
    };
    const trade = (key: string, ticker: string, date: string, type: string) => ({
      politician_id: politician.id,
      source: 'house_clerk',
      source_key: key,
      origin: 'test',
      ticker,
      trade_type: type,
      trade_action: type.toLowerCase(),
      transaction_date: date,
      disclosure_date: '2026-01-02',
      is_ma_affected: 0,
      created_at: stamp,
      updated_at: stamp,
    });
    // Insider sold ARWR on 2025-12-19: the window is 2025-11-19 .. 2026-01-18.
    const inserted = await db
      .insertInto('trades')
      .values([
        trade('constructed#1', 'ARWR', '2025-11-19', 'Buy'),
        trade('constructed#2', 'ARWR', '2026-01-18', 'Sell'),
        trade('constructed#3', 'ARWR', '2025-11-18', 'Buy'),
        trade('constructed#4', 'ARWR', '2026-01-19', 'Buy'),
        trade('constructed#5', 'SNOW', '2025-12-19', 'Buy'),
      ])
      .returning('id')
      .execute();
    const inWindow = [inserted[0]?.id, inserted[1]?.id];

    const rows = await loadInsiderTrades(
      db,
      { ticker: 'ARWR' },
      { column: 'id', direction: 'asc', limit: 10, offset: 0 },
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.has_politician_overlap).toBe(true);
      expect(row.overlapping_politicians).toEqual(['test-member']);
      expect(row.politician_trades.map((each) => each.id)).toEqual(inWindow);
      expect(
        row.politician_trades.map((each) => [each.trade_type, each.transaction_date, each.days_apart]),
      ).toEqual([
        ['Buy', '2025-11-19', -30],
        ['Sell', '2026-01-18', 30],
      ]);
    }
    const flagged = await loadInsiderTrades(
      db,
      { hasPoliticianOverlap: true },
      { column: 'id', direction: 'asc', limit: 10, offset: 0 },
    );
    expect(flagged.map((row) => row.ticker)).toEqual(['ARWR', 'ARWR', 'ARWR']);
    const unflagged = await loadInsiderTrades(
      db,
      { hasPoliticianOverlap: false },
      { column: 'id', direction: 'asc', limit: 10, offset: 0 },
    );
    expect(unflagged.some((row) => row.ticker === 'ARWR')).toBe(false);
  });
});
