// The latest close of a list of tickers, as the 13D/G resource values a position: the newest bar
// over every stored series of a ticker, a stated close before an adjusted one, then the least
// adjusted basis and the higher priority. Bars and series are written the way a price import
// writes them. Runs on the test database (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { latestCloses, saveSeriesMeta, writeBars } from './prices.js';

const NOW = '2026-06-01T12:00:00.000Z';

async function series(
  store: TestStore,
  symbol: string,
  source: string,
  basis: { close_basis: string; priority: number },
  bars: ReadonlyArray<readonly [date: string, close: number | null, adjClose: number]>,
): Promise<void> {
  await writeBars(
    store.db,
    symbol,
    source,
    bars.map(([date, close, adjClose]) => ({
      date,
      open: null,
      high: null,
      low: null,
      close,
      adj_close: adjClose,
      volume: null,
    })),
  );
  await saveSeriesMeta(store.db, {
    symbol,
    source,
    format: 'csv',
    ...basis,
    origin: 'constructed',
    updated_at: NOW,
    history_changed_at: NOW,
  });
}

const RAW = { close_basis: 'raw', priority: 2 };
const ADJUSTED = { close_basis: 'adjusted', priority: 1 };

describe('latestCloses', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
    // The newest date wins over the preferred basis.
    await series(store, 'AAA', 'one', RAW, [
      ['2026-05-27', 9, 9],
      ['2026-05-28', 10, 10],
    ]);
    await series(store, 'AAA', 'two', ADJUSTED, [['2026-05-29', 12, 11.5]]);
    // Same date: a stated close before a source that has only the adjusted one.
    await series(store, 'BBB', 'one', RAW, [['2026-05-29', null, 20]]);
    await series(store, 'BBB', 'two', ADJUSTED, [['2026-05-29', 21, 20.5]]);
    // Same date, both stated: the raw basis before the adjusted one of higher priority.
    await series(store, 'CCC', 'one', RAW, [['2026-05-29', 30, 29]]);
    await series(store, 'CCC', 'two', ADJUSTED, [['2026-05-29', 31, 30]]);
    // Only an adjusted close: served as the close.
    await series(store, 'DDD', 'one', RAW, [
      ['2026-05-28', 41, 40],
      ['2026-05-29', null, 40],
    ]);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('reads the newest bar of each ticker in one answer, skipping tickers without prices', async () => {
    const closes = await latestCloses(store.db, ['DDD', 'AAA', 'EEE', 'BBB', 'AAA', 'CCC']);
    expect(Object.fromEntries(closes)).toEqual({ AAA: 12, BBB: 21, CCC: 30, DDD: 40 });
  });

  it('answers an empty list without a query', async () => {
    expect((await latestCloses(store.db, [])).size).toBe(0);
  });
});
