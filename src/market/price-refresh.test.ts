// The daily price job against the replay server on 127.0.0.1, on the real House trades and real
// closes: the store holds the recorded price files cut before a day, and the replay server
// publishes that day's closes (`prices.until`), as the providers would the evening after.
//  - 2024: Stooq serves the recorded Stooq files. A replayed day of new closes reaches every trade
//    of the last two years (current_return) and the positions; two weeks later the windows that
//    closed meanwhile are filled.
//  - 2021: Stooq is down and Tiingo (constructed answers from the recorded AlphaVantage files)
//    takes over; then both are down and the cached closes stay, and /status says so.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MemoryRateLimitStore } from '../accounts/rate-limit.js';
import { enrich } from '../analytics/enrich.js';
import { buildApp } from '../app.js';
import { addDays } from '../domain/dates.js';
import { importLegislators } from '../ingest/legislators/import.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import { importTradeSets } from '../ingest/trade-sets/import.js';
import { getPositions } from '../services/portfolio.js';
import { latestPriceRuns } from '../storage/repositories/price-refresh.js';
import type { Database } from '../storage/schema.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { startReplay } from '../test-support/replay.js';
import { testWebhookRuntime } from '../test-support/webhooks.js';
import { importPrices } from './import-prices.js';
import { type PriceRefreshReport, runPriceRefresh } from './price-refresh.js';
import { StooqCsvProvider } from './provider.js';
import { TiingoProvider } from './tiingo.js';

const dataDir = inject('dataDir');
const HOUSE_2024 =
  'congress/trades-house/tattooedhead-house-stock-watcher/all_transactions_2026-05-29_early.json';
const HOUSE_2021 = 'congress/trades-house/hsw-export-ambika-nair/unclean_transactions_25_april.csv';
const HOUR = 3_600_000;
const later = (date: Date, hours: number) => new Date(date.getTime() + hours * HOUR);

/** Copies the recorded price files into `dir`, keeping their folder names, without the rows after `last`. */
function cutPriceFiles(files: readonly string[], dir: string, last: string): string[] {
  const compact = last.replaceAll('-', '');
  return files.map((file) => {
    const lines = readFileSync(join(dataDir ?? '', file), 'utf8').split(/\r?\n/);
    const kept = lines.filter((line, index) => {
      if (index === 0 || line.trim() === '') return index === 0;
      const stooq = /^[^,]+,D,(\d{8}),/.exec(line);
      if (stooq) return (stooq[1] ?? '') <= compact;
      const iso = /^(\d{4}-\d{2}-\d{2}),/.exec(line);
      return iso !== null && (iso[1] ?? '') <= last;
    });
    const target = join(dir, basename(dirname(file)), basename(file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${kept.join('\n')}\n`);
    return target;
  });
}

async function loadTrades(db: Kysely<Database>, set: string, now: Date): Promise<void> {
  await importLegislators(db, join(dataDir ?? '', 'congress/legislators'), now);
  await importTradeSets(db, join(dataDir ?? '', set), { now });
}

const http = { timeoutMs: 5_000, retries: 1, minIntervalMs: 0, backoffMs: 5 };

/** Live trades of the two years before `today` whose symbol has a close on `day`. */
async function tradesPricedOn(db: Kysely<Database>, today: string, day: string) {
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 730 * 86_400_000).toISOString().slice(0, 10);
  return db
    .selectFrom('trades as t')
    .select(['t.id', 't.market_symbol', 't.transaction_date', 't.current_return', 't.current_alpha'])
    .where('t.superseded_by', 'is', null)
    .where('t.transaction_date', '>=', from)
    .where('t.transaction_date', '<', today)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('price_bars as b')
          .select('b.date')
          .whereRef('b.symbol', '=', 't.market_symbol')
          .where('b.date', '=', day),
      ),
    )
    .orderBy('t.id')
    .execute();
}

const STOOQ_2024 = [
  'AAPL',
  'MSFT',
  'NVDA',
  'GOOG',
  'GOOGL',
  'AMZN',
  'TXN',
  'COST',
  'TSLA',
  'CMCSA',
  'META',
  'INTC',
  'PEP',
];

describe.skipIf(!dataDir)('daily price job: a replayed day of new closes (Stooq, 2024)', () => {
  let store: TestStore;
  let replay: ReplayServer;
  let work: string;
  let firstRun: { runId: number; report: PriceRefreshReport; enrichmentJobId: number };
  const stooq = () => new StooqCsvProvider({ ...http, baseUrl: replay.url });

  // The first enrichment, the job and the enrichment after it, an hour apart (the job stamps its
  // writes with its clock, the enrichment compares stamps).
  const evening = new Date('2024-06-08T12:00:00Z');

  beforeAll(async () => {
    store = await openTestStore();
    replay = await startReplay(dataDir ?? '');
    work = mkdtempSync(join(tmpdir(), 'dcledger-prices-'));
    await loadTrades(store.db, HOUSE_2024, evening);
    const files = cutPriceFiles(
      [
        'market/prices/pyportfolioopt/spy_prices.csv',
        'market/prices/pyportfolioopt/stock_prices.csv',
        'market/prices/stooq_etfs_2005_2024/spy.us.txt',
        ...STOOQ_2024.map((symbol) => `market/prices/stooq_nasdaq_2012_2024/${symbol.toLowerCase()}.us.txt`),
      ],
      work,
      '2024-06-06',
    );
    await importPrices(store.db, files, { now: evening });
    await enrich(store.db, { all: true, now: evening });
    // The evening of Friday 2024-06-07: its closes are published.
    replay.prices.until = '2024-06-07';
    firstRun = await runPriceRefresh(store.db, [stooq()], {
      now: later(evening, 1),
      clock: () => later(evening, 1),
      refetchDays: 7,
      requestedBy: 'test',
    });
    await enrich(store.db, { now: later(evening, 2) });
  }, 600_000);
  afterAll(async () => {
    await replay?.close();
    await store?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('asks the benchmark first, then only the days after each stored close, and stores the new day', async () => {
    const { report } = firstRun;
    expect(replay.prices.asked[0]).toEqual({ provider: 'stooq', symbol: 'SPY' });
    expect(report.status).toBe('completed');
    expect(report.newestClose).toBe('2024-06-07');
    // The 13 stored Stooq symbols and SPY get exactly one new bar each.
    const updated = await store.db
      .selectFrom('price_bars')
      .select(['symbol'])
      .where('source', '=', 'stooq')
      .where('date', '=', '2024-06-07')
      .execute();
    expect(updated.map((row) => row.symbol)).toEqual(
      expect.arrayContaining(['SPY', 'AAPL', 'MSFT', 'NVDA', 'GOOG', 'GOOGL', 'AMZN', 'TXN', 'COST', 'TSLA']),
    );
    const aapl = replay.requests.filter((request) => request.path === '/q/d/l/');
    expect(aapl.length).toBe(report.asked);
    // Symbols without any stored series were asked for their history; recorded ones came (ADBE, ...).
    expect(report.updated).toBeGreaterThan(14);
    expect(report.notFound).toBeGreaterThan(100);
    const [run] = await latestPriceRuns(store.db, 1);
    expect(run).toMatchObject({ id: firstRun.runId, status: 'completed', newest_close: '2024-06-07' });
    const job = await store.db
      .selectFrom('enrichment_jobs')
      .select(['requested_by'])
      .where('id', '=', firstRun.enrichmentJobId)
      .executeTakeFirstOrThrow();
    expect(job.requested_by).toBe(`price run ${firstRun.runId}`);
  });

  it('gives every trade of the last two years whose symbol has the new close its current_return to that close', async () => {
    const trades = await tradesPricedOn(store.db, '2024-06-08', '2024-06-07');
    expect(trades.length).toBeGreaterThan(100);
    expect(trades.filter((trade) => trade.current_return === null)).toEqual([]);
    expect(trades.filter((trade) => trade.current_alpha === null)).toEqual([]);
    // AAPL bought 2023-02-01 (or the first AAPL trade of the window): to Friday's Stooq close, the
    // newest, although the total-return file's series (priority 1) ends a day earlier.
    const trade = trades.find((one) => one.market_symbol === 'AAPL');
    if (!trade) throw new Error('no AAPL trade in the window');
    const closes = await store.db
      .selectFrom('price_bars')
      .select(['date', 'adj_close'])
      .where('symbol', '=', 'AAPL')
      .where('source', '=', 'stooq')
      .where('date', '>=', trade.transaction_date)
      .orderBy('date')
      .execute();
    const first = closes[0]?.adj_close ?? Number.NaN;
    const last = closes.at(-1);
    expect(last?.date).toBe('2024-06-07');
    expect(trade.current_return).toBeCloseTo(((last?.adj_close ?? 0) / first - 1) * 100, 8);
  });

  it('marks the positions to the new close, with its date', async () => {
    const holder = await store.db
      .selectFrom('portfolio_holdings as h')
      .innerJoin('politicians as p', 'p.id', 'h.politician_id')
      .select(['p.slug', (eb) => eb.fn.countAll<number>().as('n')])
      .where('h.status', '=', 'open')
      .where('h.market_symbol', 'in', ['AAPL', 'MSFT', 'NVDA', 'AMZN'])
      .groupBy('p.slug')
      .orderBy('n', 'desc')
      .executeTakeFirstOrThrow();
    const positions = await getPositions(store.db, holder.slug);
    const marked = positions.positions.filter((position) =>
      ['AAPL', 'MSFT', 'NVDA', 'AMZN'].includes(position.ticker),
    );
    expect(marked.length).toBeGreaterThan(0);
    for (const position of marked) expect(position.last_price_date).toBe('2024-06-07');
  });

  it('asks nothing but the benchmark again the same day: every other symbol is current or unknown', async () => {
    const before = replay.prices.asked.length;
    const again = await runPriceRefresh(store.db, [stooq()], {
      now: later(evening, 3),
      clock: () => later(evening, 3),
      refetchDays: 7,
      requestedBy: 'test',
    });
    expect(replay.prices.asked.slice(before).map((ask) => ask.symbol)).toEqual(['SPY']);
    expect(again.report).toMatchObject({ asked: 1, updated: 0, unchanged: 1, status: 'completed' });
    // The 13 stored Stooq symbols at least (the histories fetched for old trades are not needed again).
    expect(again.report.skipped.current).toBeGreaterThanOrEqual(STOOQ_2024.length);
    // What no provider knew a moment ago is not asked again for a week.
    expect(again.report.skipped.unknown).toBe(firstRun.report.notFound);
  });

  // Two enrichments of every trade: minutes on a loaded machine.
  it('fills the windows that closed since, once their closes arrive, as the clock moves on', {
    timeout: 300_000,
  }, async () => {
    const now = new Date('2024-06-22T12:00:00Z');
    // The 7- and 30-day windows that end after the last published close and by 2024-06-20.
    const trades = await store.db
      .selectFrom('trades')
      .select(['id', 'transaction_date', 'gain_7d', 'gain_30d', 'awaiting_prices'])
      .where('superseded_by', 'is', null)
      .where('market_symbol', 'in', STOOQ_2024)
      .where('transaction_date', '>=', '2024-05-08')
      .where('transaction_date', '<=', '2024-06-13')
      .execute();
    const ends = (date: string, days: number) =>
      addDays(date, days) > '2024-06-07' && addDays(date, days) <= '2024-06-20';
    const maturing = trades.flatMap((trade) =>
      (
        [
          ['gain_7d', 7],
          ['gain_30d', 30],
        ] as const
      )
        .filter(([, days]) => ends(trade.transaction_date, days))
        .map(([field]) => ({ id: trade.id, field })),
    );
    // NVDA bought 2024-06-06 (7 days), AAPL and TXN 2024-05-21 (30 days), among others.
    expect(maturing.length).toBeGreaterThanOrEqual(3);
    const values = async () => {
      const rows = await store.db
        .selectFrom('trades')
        .select(['id', 'gain_7d', 'gain_30d', 'awaiting_prices'])
        .where(
          'id',
          'in',
          maturing.map((one) => one.id),
        )
        .execute();
      return maturing.map(({ id, field }) => {
        const row = rows.find((one) => one.id === id);
        return { id, field, value: row?.[field] ?? null, awaiting: row?.awaiting_prices };
      });
    };
    // The clock alone changes nothing: those windows wait for prices.
    await enrich(store.db, { now });
    for (const window of await values()) expect(window).toMatchObject({ value: null, awaiting: 1 });
    replay.prices.until = '2024-06-21';
    const { report } = await runPriceRefresh(store.db, [stooq()], {
      now: later(now, 1),
      clock: () => later(now, 1),
      refetchDays: 7,
      requestedBy: 'test',
    });
    expect(report.newestClose).toBe('2024-06-21');
    await enrich(store.db, { now: later(now, 2) });
    for (const window of await values())
      expect(window.value, `${window.field} of trade ${window.id}`).not.toBeNull();
  });
});

describe.skipIf(!dataDir)('daily price job: a provider down, the fallback, then the cache (2021)', () => {
  let store: TestStore;
  let replay: ReplayServer;
  let work: string;
  const now = new Date('2021-04-22T12:00:00Z');
  let jobTime = now;
  const providers = () => [
    new StooqCsvProvider({ ...http, baseUrl: replay.url }),
    new TiingoProvider({ ...http, baseUrl: replay.url, apiKey: 'test-key-constructed' }),
  ];

  beforeAll(async () => {
    store = await openTestStore();
    replay = await startReplay(dataDir ?? '');
    work = mkdtempSync(join(tmpdir(), 'dcledger-prices-'));
    await loadTrades(store.db, HOUSE_2021, now);
    const files = cutPriceFiles(
      [
        'market/prices/stooq_etfs_2005_2024/spy.us.txt',
        'market/prices/stooq_nasdaq_2012_2024/aapl.us.txt',
        'market/prices/alphavantage_sp500_2012_2021/DA-DIS-T-2021-04-21.csv',
      ],
      work,
      '2021-04-20',
    );
    await importPrices(store.db, files, { now });
    await enrich(store.db, { all: true, now });
    replay.prices.until = '2021-04-21';
    jobTime = later(now, 1);
  }, 600_000);
  afterAll(async () => {
    await replay?.close();
    await store?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  // Two enrichments of every trade: minutes on a loaded machine.
  it('asks Tiingo when Stooq fails, stops asking Stooq after five failures in a row, and the trades follow', {
    timeout: 300_000,
  }, async () => {
    replay.failNext('/q/d/l/', 10_000, 503);
    const { report } = await runPriceRefresh(store.db, providers(), {
      now: jobTime,
      clock: () => jobTime,
      refetchDays: 7,
      requestedBy: 'test',
    });
    expect(report.providers.stooq).toMatchObject({ failed: 5, answered: 0, gaveUp: true });
    expect(report.providers.tiingo?.answered).toBeGreaterThan(5);
    // Tiingo has no SPY: that symbol keeps its cached closes; the run is partial, not failed.
    expect(report.failed.map((failure) => failure.symbol)).toContain('SPY');
    expect(report.status).toBe('partial');
    const tiingo = await store.db
      .selectFrom('price_series')
      .select(['symbol', 'last_date', 'close_basis'])
      .where('source', '=', 'tiingo')
      .where('symbol', 'in', ['AAPL', 'DIS'])
      .orderBy('symbol')
      .execute();
    expect(tiingo).toEqual([
      { symbol: 'AAPL', last_date: '2021-04-21', close_basis: 'raw' },
      { symbol: 'DIS', last_date: '2021-04-21', close_basis: 'raw' },
    ]);
    await enrich(store.db, { now: later(now, 2) });
    const trades = await tradesPricedOn(store.db, '2021-04-22', '2021-04-21');
    expect(trades.length).toBeGreaterThan(100);
    expect(trades.filter((trade) => trade.current_return === null)).toEqual([]);
  });

  // Two enrichments of every trade: minutes on a loaded machine.
  it('keeps the cached closes when every provider fails, and says so on /status', {
    timeout: 300_000,
  }, async () => {
    const before = await tradesPricedOn(store.db, '2021-04-22', '2021-04-21');
    replay.failNext(/^\/tiingo\//, 10_000, 503);
    const nextDay = new Date('2021-04-23T12:00:00Z');
    const { runId, report } = await runPriceRefresh(store.db, providers(), {
      now: nextDay,
      clock: () => nextDay,
      refetchDays: 7,
      requestedBy: 'test',
    });
    expect(report.status).toBe('failed');
    expect(report.providers.stooq?.gaveUp).toBe(true);
    expect(report.providers.tiingo?.gaveUp).toBe(true);
    await enrich(store.db, { now: later(nextDay, 1) });
    const after = await tradesPricedOn(store.db, '2021-04-22', '2021-04-21');
    expect(after.map((trade) => [trade.id, trade.current_return])).toEqual(
      before.map((trade) => [trade.id, trade.current_return]),
    );
    const webhooks = testWebhookRuntime();
    const app = await buildApp({
      db: store.db,
      dialect: store.dialect,
      clock: () => nextDay,
      rateLimits: new MemoryRateLimitStore(),
      webhooks,
    });
    try {
      const page = await app.inject({ method: 'GET', url: '/status' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Prices');
      expect(page.body).toContain(`run ${runId}`);
      expect(page.body).toMatch(/Every price provider failed/);
      // The benchmark (Stooq's SPY; Tiingo has none) could not be updated: its cached close is the mark.
      expect(page.body).toContain('marked to the close of <strong>2021-04-20</strong>');
      expect(page.body).toMatch(/<th scope="row">stooq<\/th>.*gave up for the run: .*HTTP 503/);
      expect(page.body).toMatch(/<th scope="row">tiingo<\/th>.*gave up for the run: .*HTTP 503/);
    } finally {
      await app.close();
      await webhooks.sender.close();
    }
  });
});
