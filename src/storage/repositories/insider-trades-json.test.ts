// The insider page the database writes against the resources the object path builds, on every
// recorded SEC document stored through the SEC ingest (SQLite, or PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL), with constructed member trades around some of the lines so that
// politician_trades, overlapping_politicians and days_apart are not all empty.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../domain/dates.js';
import { loadSecReplayCatalog } from '../../ingest/sources/sec/replay.js';
import { storeSecDocument } from '../../ingest/sources/sec/store.js';
import { INSIDER_JSON_TERMS, loadInsiderTrades } from '../../resources/insider.js';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { expectSamePage } from '../../test-support/database-json.js';
import type { ListOrder } from '../list-order.js';
import { findInsiderTradesJson } from './insider-trades-json.js';
import { INSIDER_SORT_COLUMNS, type InsiderSortColumn, type InsiderTradeFilter } from './sec.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-01-05T12:00:00Z');

describe.skipIf(!dataDir)('insider lines as the JSON the database writes', () => {
  let store: TestStore;
  let tickers: string[];
  beforeAll(async () => {
    store = await openTestStore();
    for (const entry of loadSecReplayCatalog(dataDir ?? '')) {
      const text = readFileSync(entry.file, 'utf8');
      const { accession_number, form, filed_date } = entry;
      await storeSecDocument(
        store.db,
        { accession_number, form, filed_date, url: null, content_hash: null, text },
        NOW,
      );
    }
    // Constructed member trades around the first dated line of three tickers: two members, one
    // trading first on a date the other trades later the same day (so the slugs' order is the
    // trades' order, not the slugs'), a trade on each edge of the ±30-day window, one just outside
    // it, and one superseded by an amendment.
    const lines = await store.db
      .selectFrom('insider_trades')
      .select(['ticker', 'transaction_date'])
      .where('ticker', 'is not', null)
      .where('transaction_date', 'is not', null)
      .orderBy('id')
      .execute();
    const firstDates = new Map<string, string>();
    for (const line of lines) {
      if (line.ticker && line.transaction_date && !firstDates.has(line.ticker))
        firstDates.set(line.ticker, line.transaction_date);
    }
    tickers = [...firstDates.keys()].slice(0, 3);
    const zed = await insertTestMember(
      store.db,
      { slug: 'zed-member', name: 'Zed Member', chamber: 'House' },
      NOW,
    );
    const amy = await insertTestMember(
      store.db,
      { slug: 'amy-member', name: 'Amy Member', chamber: 'Senate' },
      NOW,
    );
    const stamp = NOW.toISOString();
    let key = 0;
    const trade = (politician_id: number, ticker: string, date: string, trade_type: string) => ({
      politician_id,
      source: 'house_clerk',
      source_key: `constructed#${++key}`,
      origin: 'test',
      ticker,
      trade_type,
      trade_action: trade_type.toLowerCase(),
      transaction_date: date,
      disclosure_date: key % 2 === 0 ? addDays(date, 20) : null,
      is_ma_affected: 0,
      created_at: stamp,
      updated_at: stamp,
    });
    for (const ticker of tickers) {
      const date = firstDates.get(ticker) ?? '';
      const rows = [
        trade(zed, ticker, addDays(date, -30), 'Buy'),
        trade(zed, ticker, addDays(date, -2), 'Sell (Partial)'),
        trade(amy, ticker, addDays(date, -2), 'Buy'),
        trade(amy, ticker, addDays(date, 30), 'Sell'),
        trade(zed, ticker, addDays(date, 31), 'Buy'),
        trade(amy, ticker, addDays(date, 3), 'Exchange'),
      ];
      const ids = await store.db.insertInto('trades').values(rows).returning('id').execute();
      // The last one is superseded by the one before it (an amendment): never an overlap.
      await store.db
        .updateTable('trades')
        .set({ superseded_by: ids[3]?.id ?? null })
        .where('id', '=', ids[5]?.id ?? -1)
        .execute();
    }
  });
  afterAll(async () => {
    await store?.dispose();
  });

  async function expectSameAs(
    filter: InsiderTradeFilter,
    order: ListOrder<InsiderSortColumn>,
    label: string,
  ) {
    const objects = await loadInsiderTrades(store.db, filter, order);
    const page = await findInsiderTradesJson(store.db, filter, order, INSIDER_JSON_TERMS);
    expectSamePage(page, objects, label);
    return objects;
  }

  it('writes every line with the fields and values of the resource, in every order and page', async () => {
    const all = await expectSameAs({}, { column: 'id', direction: 'asc', limit: 1000, offset: 0 }, 'all');
    expect(all.length).toBeGreaterThan(50);
    const overlapping = all.filter((line) => line.has_politician_overlap);
    expect(new Set(overlapping.map((line) => line.ticker))).toEqual(new Set(tickers));
    // Both members, in their first trade's order (zed's trade 30 days before comes first).
    expect(overlapping.some((line) => line.overlapping_politicians.join() === 'zed-member,amy-member')).toBe(
      true,
    );
    expect(all.some((line) => line.politician_trades.some((trade) => trade.days_apart === -30))).toBe(true);
    for (const column of INSIDER_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const [limit, offset] of [
          [25, 0],
          [7, 9],
          [BYTES_PAGE_ROWS + 1, 0],
        ] as const) {
          await expectSameAs(
            {},
            { column, direction, limit, offset },
            `${column} ${direction} ${limit}@${offset}`,
          );
        }
      }
    }
  });

  it('keeps the lines every filter keeps', async () => {
    const first = { column: 'transaction_date', direction: 'desc', limit: 50, offset: 0 } as const;
    const sample = await loadInsiderTrades(store.db, {}, { ...first, limit: 1000 });
    const dated = sample.find((line) => line.transaction_date && line.insider_cik && line.ticker);
    const filters: [string, InsiderTradeFilter][] = [
      ['ticker', { ticker: tickers[0]?.toLowerCase() }],
      ['cik', { cik: dated?.insider_cik?.replace(/^0+/, '') }],
      ['name', { insiderName: dated?.insider_name.slice(1, 6).toLowerCase() }],
      ['codes', { codes: ['S', 'M'] }],
      [
        'dates',
        { dateFrom: dated?.transaction_date ?? '', dateTo: addDays(dated?.transaction_date ?? '', 90) },
      ],
      ['not a date', { dateFrom: '2024-1-1' }],
      ['a quote in the ticker', { ticker: "x' or '1'='1" }],
      ['value', { minValue: 100_000 }],
      ['overlap', { hasPoliticianOverlap: true }],
      ['no overlap', { hasPoliticianOverlap: false }],
    ];
    for (const [label, filter] of filters) {
      const lines = await expectSameAs(filter, first, label);
      if (!['not a date', 'a quote in the ticker'].includes(label))
        expect(lines.length, label).toBeGreaterThan(0);
      expect(lines.length, label).toBeLessThan(sample.length);
    }
  });
});
