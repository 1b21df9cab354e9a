// Tiingo's end-of-day answer, read by parseTiingoDaily. The answers here are CONSTRUCTED in the
// documented shape (https://www.tiingo.com/documentation/end-of-day); the values are Apple's around
// its 4:1 split of 2020-08-31 as the recorded AlphaVantage file has them (raw close 499.23 on
// 2020-08-28, 129.04 on 2020-08-31, dividend 0.205 ex 2020-08-07).
import { describe, expect, it } from 'vitest';
import { PriceFormatError } from './price-files.js';
import { parseTiingoDaily, toTiingoTicker } from './tiingo.js';

const day = (date: string, close: number, adjClose: number, divCash = 0, splitFactor = 1) => ({
  date: `${date}T00:00:00.000Z`,
  close,
  high: close * 1.01,
  low: close * 0.99,
  open: close,
  volume: 1000,
  adjClose,
  adjHigh: adjClose * 1.01,
  adjLow: adjClose * 0.99,
  adjOpen: adjClose,
  adjVolume: 1000,
  divCash,
  splitFactor,
});

describe('parseTiingoDaily', () => {
  it('reads raw and adjusted closes, dividends and splits', () => {
    const text = JSON.stringify([
      day('2020-08-07', 444.45, 110.3, 0.205),
      day('2020-08-28', 499.23, 123.9),
      day('2020-08-31', 129.04, 128.07, 0, 4),
    ]);
    const { series, rejected } = parseTiingoDaily(text, 'AAPL');
    expect(rejected).toEqual({});
    expect(series.symbol).toBe('AAPL');
    expect(series.bars.map((bar) => [bar.date, bar.close, bar.adjClose])).toEqual([
      ['2020-08-07', 444.45, 110.3],
      ['2020-08-28', 499.23, 123.9],
      ['2020-08-31', 129.04, 128.07],
    ]);
    expect(series.bars[2]).toMatchObject({ open: 129.04, volume: 1000 });
    expect(series.actions).toEqual([
      { date: '2020-08-07', kind: 'dividend', value: 0.205 },
      { date: '2020-08-31', kind: 'split', value: 4 },
    ]);
  });

  it('takes an odd share factor for an adjustment, not a split', () => {
    const { series } = parseTiingoDaily(JSON.stringify([day('2020-11-17', 36.1, 33.2, 0, 1.054)]), 'PFE');
    expect(series.actions).toEqual([{ date: '2020-11-17', kind: 'adjustment', value: 1.054 }]);
  });

  it('answers no bar for an empty range, and counts the days it cannot read', () => {
    expect(parseTiingoDaily('[]', 'AAPL').series.bars).toEqual([]);
    const { series, rejected } = parseTiingoDaily(
      JSON.stringify([
        { ...day('2020-08-28', 499.23, 123.9), date: 'yesterday' },
        { ...day('2020-08-28', 499.23, 123.9), adjClose: null },
        day('2020-08-31', 129.04, 128.07),
        day('2020-08-31', 129.04, 128.07),
      ]),
      'AAPL',
    );
    expect(series.bars).toHaveLength(1);
    expect(rejected).toEqual({ 'unreadable date': 1, 'no close': 1, 'out of order or duplicate date': 1 });
  });

  it('refuses what is not a list of days', () => {
    expect(() =>
      parseTiingoDaily('{"detail":"You have run over your hourly request allocation."}', 'AAPL'),
    ).toThrow(PriceFormatError);
    expect(() => parseTiingoDaily('<html>', 'AAPL')).toThrow(/not JSON/);
  });

  it('writes class shares with a dash', () => {
    expect(toTiingoTicker('BRK.B')).toBe('brk-b');
    expect(toTiingoTicker('AAPL')).toBe('aapl');
  });
});
