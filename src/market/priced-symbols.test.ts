// The symbol a trade is priced by: a renamed company's former symbol is read as its current one on
// the trade's date (the price files keep the whole history under the current symbol), a reused
// symbol is not. On the real-data fixture, enriched as the API tests read it (SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, PostgreSQL).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { qualityAudit } from '../storage/repositories/quality.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { companySymbol, priceableSymbol } from './priced-symbols.js';

describe('priceableSymbol', () => {
  it.each([
    ['FB', 'Stock', '2021-05-14', 'META'],
    ['FB220617C00350000', 'Option', '2022-02-01', 'META'],
    ['META', 'Stock', '2023-01-03', 'META'],
    ['WTW', 'Stock', '2017-01-24', 'WW'],
    ['WTW', 'Stock', '2023-08-10', 'WTW'],
    ['BBT', 'Stock', '2015-11-25', 'TFC'],
    ['BBT', 'Stock', '2025-09-25', 'BBT'],
    ['BBT', 'Corporate Bond', '2018-08-01', null],
  ])('prices %s (%s) of %s by %s', (ticker, assetType, date, symbol) => {
    expect(priceableSymbol(ticker, assetType, date)).toBe(symbol);
  });

  it('takes the sector of the current company for an unpriced asset too', () => {
    expect(companySymbol(null, 'UTX', '2019-06-03')).toBe('RTX');
    expect(companySymbol(null, 'N/A', '2019-06-03')).toBeNull();
  });

  it('prices a trade by its own series but classifies it as the successor that continues it', () => {
    expect(priceableSymbol('PARA', 'Stock', '2023-03-03')).toBe('PARA');
    expect(priceableSymbol('VIAC', 'Stock', '2021-03-03')).toBe('PARA');
    expect(companySymbol('PARA', 'PARA', '2023-03-03')).toBe('PSKY');
    expect(companySymbol('PARA', 'CBS', '2016-03-01')).toBe('PSKY');
    // Read from the ticker, not again from the priced symbol: Willis's WLTW priced as WTW stays WTW.
    expect(companySymbol('WTW', 'WLTW', '2021-03-10')).toBe('WTW');
  });
});

const fixture = inject('fixture');

describe.skipIf(fixture === null)('former symbols on the real trade sets', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  const tradesOf = (ticker: string) =>
    store.db
      .selectFrom('trades')
      .select([
        'ticker',
        'transaction_date',
        'asset_type',
        'market_symbol',
        'price_on_trade_date',
        'quality_flags',
      ])
      .where('ticker', '=', ticker)
      .where('superseded_by', 'is', null)
      .orderBy('transaction_date')
      .execute();

  it("prices FB-filed trades from META's series, keeps the filed ticker and flags it", async () => {
    const fb = (await tradesOf('FB')).filter((trade) => trade.asset_type === 'Stock');
    expect(fb.length).toBeGreaterThan(100);
    for (const trade of fb) {
      expect(trade.market_symbol).toBe('META');
      expect(trade.quality_flags ?? '').toContain('former_symbol');
    }
    // AlphaVantage's FB series ends 2021-04-21: the trades after it had no price at all.
    const may2021 = fb.find((trade) => trade.transaction_date === '2021-05-14');
    expect(may2021?.price_on_trade_date).toBeGreaterThan(290);
    expect(may2021?.price_on_trade_date).toBeLessThan(340);
    // A trade filed after the change under the old symbol ("Meta Platforms, Inc." of 2022-07-15).
    expect(fb.find((trade) => trade.transaction_date === '2022-07-15')?.price_on_trade_date).not.toBeNull();
    for (const trade of await tradesOf('META'))
      expect(trade.quality_flags ?? '').not.toContain('former_symbol');
  });

  it('does not read a reused symbol as its later owner: WTW of 2017 is Weight Watchers, BBT of 2025 Beacon Financial', async () => {
    const wtw = await tradesOf('WTW');
    const weightWatchers = wtw.filter((trade) => trade.transaction_date < '2020-01-01');
    const willis = wtw.filter((trade) => trade.transaction_date > '2022-01-10');
    expect(weightWatchers.length).toBeGreaterThan(5);
    expect(willis.length).toBeGreaterThan(3);
    for (const trade of weightWatchers) expect(trade.market_symbol).toBe('WW');
    for (const trade of willis) {
      expect(trade.market_symbol).toBe('WTW');
      expect(trade.quality_flags ?? '').not.toContain('former_symbol');
    }
    const bbt = await tradesOf('BBT');
    expect(bbt.find((trade) => trade.transaction_date === '2015-11-25')?.market_symbol).toBe('TFC');
    expect(bbt.find((trade) => trade.transaction_date === '2025-09-25')?.market_symbol).toBe('BBT');
  });

  it('classifies Paramount Global trades as its successor, not as the company now listed as PARA', async () => {
    const paramount = await store.db
      .selectFrom('trades')
      .select(['ticker', 'market_symbol', 'sector', 'industry', 'quality_flags'])
      .where('ticker', 'in', ['PARA', 'VIAC'])
      .where('asset_type', '=', 'Stock')
      .where('superseded_by', 'is', null)
      .execute();
    const para = paramount.filter((trade) => trade.ticker === 'PARA');
    expect(para.length).toBeGreaterThan(0);
    expect(paramount.length).toBeGreaterThan(para.length);
    for (const trade of paramount) {
      expect(trade.market_symbol).toBe('PARA');
      expect(trade.sector).toBe('Communication Services');
      expect(trade.industry).toBe('Movies & Entertainment');
    }
    for (const trade of para) expect(trade.quality_flags ?? '').not.toContain('former_symbol');
  });

  it('counts the rule in the quality audit', async () => {
    const report = await qualityAudit(store.db, 'test', FIXTURE_NOW);
    const house = report.sources.find((source) => source.source === 'house_clerk');
    expect(house?.flags.former_symbol).toBeGreaterThan(100);
  });
});
