// Golden values computed by hand on small fixed price series (the arithmetic is written beside
// each number): current_return and current_alpha, a split on a window's last day, the staleness
// boundary of the latest close, and a member portfolio's CAGR and Sharpe ratio.
import { describe, expect, it } from 'vitest';
import type { StatsTrade } from '../analytics/member-stats.js';
import { planPortfolio, portfolioReturns } from '../analytics/portfolio.js';
import { addDays } from '../domain/dates.js';
import { buildSeries, type PriceSeries, TradingCalendar } from './series.js';
import { computeTradeMarket } from './trade-fields.js';
import { MAX_CURRENT_STALENESS_DAYS } from './windows.js';

function weekdays(from: string, count: number): string[] {
  const days: string[] = [];
  for (let day = from; days.length < count; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day);
  }
  return days;
}

// 2024-01-02 (Tue) .. 2024-01-31 (Wed): 22 weekdays (no holiday is modelled).
const JANUARY = weekdays('2024-01-02', 22);
const calendar = new TradingCalendar(JANUARY);

function series(
  symbol: string,
  closes: readonly number[],
  options: { source?: string; priority?: number; breakDates?: string[] } = {},
): PriceSeries {
  return buildSeries({
    symbol,
    source: options.source ?? 'hand',
    priority: options.priority ?? 1,
    closeBasis: 'adjusted',
    bars: closes.map((adjClose, index) => ({ date: JANUARY[index] as string, adjClose, close: adjClose })),
    breakDates: options.breakDates,
  });
}

/** Closes rising by 1.5 a day from `first`: day i closes at first + 1.5 i (21 steps to 31 January). */
const rising = (first: number) => JANUARY.map((_, index) => first + 1.5 * index);
// Stock 100 -> 131.5 over the month; the benchmark 200 + 0.25 a day, its last close set to 210.
const STOCK = series('HAND', rising(100));
const BENCHMARK = series(
  'SPY',
  JANUARY.map((_, index) => (index === JANUARY.length - 1 ? 210 : 200 + index * 0.25)),
  { source: 'bench' },
);

function market(today: string, stock: readonly PriceSeries[] = [STOCK], transactionDate = '2024-01-02') {
  return computeTradeMarket({
    transactionDate,
    disclosureDate: null,
    series: stock,
    benchmark: [BENCHMARK],
    calendar,
    today,
  }).fields;
}

describe('golden current_return and current_alpha', () => {
  it('from the trade day close to the latest close, minus the benchmark over the same bars', () => {
    const fields = market('2024-02-01');
    // HAND 2024-01-02 100.0 -> 2024-01-31 131.5: (131.5 / 100 - 1) * 100 = 31.5 %.
    expect(fields.current_return).toBeCloseTo(31.5, 10);
    // SPY 200 -> 210 over the same two bars: +5 %; alpha 31.5 - 5 = 26.5.
    expect(fields.current_alpha).toBeCloseTo(26.5, 10);
    // gain_7d: 2024-01-09 is the 6th bar (index 5): 107.5 / 100 -> +7.5 %.
    expect(fields.gain_7d).toBeCloseTo(7.5, 10);
  });

  it(`uses the latest close until it is ${MAX_CURRENT_STALENESS_DAYS} days old, then none`, () => {
    // The last bar is 2024-01-31: on 2024-02-14 it is 14 days old (still current), on 02-15, 15.
    expect(MAX_CURRENT_STALENESS_DAYS).toBe(14);
    expect(market('2024-02-14').current_return).toBeCloseTo(31.5, 10);
    expect(market('2024-02-14').current_alpha).toBeCloseTo(26.5, 10);
    expect(market('2024-02-15').current_return).toBeNull();
    expect(market('2024-02-15').current_alpha).toBeNull();
  });

  it('never uses a close of today or later (the close of "today" is not final)', () => {
    // Today 2024-01-31: the latest usable bar is 2024-01-30 (index 20): 130 / 100 -> +30 %.
    expect(market('2024-01-31').current_return).toBeCloseTo(30, 10);
  });
});

describe('a split falling on the last day of a window', () => {
  // A raw series whose close halves on 2024-01-09 (a 2:1 split not adjusted: a break there), the
  // last day of the 7-day window of a trade on 2024-01-02.
  const raw = JANUARY.map((_, index) => {
    const price = 100 + 1.5 * index;
    return index >= 5 ? price / 2 : price;
  });
  const SPLIT = series('HAND', raw, { source: 'raw', priority: 1, breakDates: ['2024-01-09'] });

  it('refuses the window on the series with the split rather than report a -46 % "loss"', () => {
    // 53.75 / 100 would be -46.25 %: the break on the window's last bar keeps it out.
    expect(market('2024-02-01', [SPLIT]).gain_7d).toBeNull();
  });

  it('takes the window from the next series that has no break there', () => {
    const adjusted = series('HAND', rising(100), { source: 'adjusted', priority: 2 });
    expect(market('2024-02-01', [SPLIT, adjusted]).gain_7d).toBeCloseTo(7.5, 10);
  });

  it('a split the day after the window does not touch it', () => {
    const later = JANUARY.map((_, index) => {
      const price = 100 + 1.5 * index;
      return index >= 6 ? price / 2 : price;
    });
    const afterWindow = series('HAND', later, { source: 'raw', breakDates: ['2024-01-10'] });
    expect(market('2024-02-01', [afterWindow]).gain_7d).toBeCloseTo(7.5, 10);
  });
});

describe('golden CAGR and Sharpe ratio of a portfolio', () => {
  // 253 trading days from 2021-01-04: one buy on the first, then daily returns alternating +2 %
  // and -1 % (126 of each, 252 returns = exactly one year of 252 trading days).
  const days = weekdays('2021-01-04', 253);
  const closes = [100];
  for (let index = 1; index < days.length; index++)
    closes.push((closes[index - 1] as number) * (index % 2 === 1 ? 1.02 : 0.99));
  const ALT = buildSeries({
    symbol: 'ALT',
    source: 'hand',
    priority: 1,
    closeBasis: 'adjusted',
    bars: days.map((date, index) => ({
      date,
      adjClose: closes[index] as number,
      close: closes[index] as number,
    })),
  });
  const buy: StatsTrade = {
    id: 1,
    ticker: 'ALT',
    symbol: 'ALT',
    assetType: 'Stock',
    assetDescription: null,
    sector: null,
    industry: null,
    action: 'buy',
    fullSale: false,
    date: days[0] as string,
    amountLow: 1001,
    amountHigh: 15_000,
    optionType: null,
    gain90d: null,
    alpha30d: null,
    alpha90d: null,
  };
  const today = addDays(days[days.length - 1] as string, 1);
  const result = portfolioReturns(
    planPortfolio([buy], (symbol) => (symbol === 'ALT' ? ALT : undefined), today),
    { buy: 'mid', sell: 'mid' },
  );

  it('total return and CAGR: 1.02^126 x 0.99^126 - 1 over exactly one year', () => {
    expect(result.days).toBe(252);
    // (1.02^126 * 0.99^126 - 1) * 100 = 241.70880...; one year, so CAGR is the same number.
    expect(result.totalReturn).toBeCloseTo(241.7088, 4);
    expect(result.cagr).toBeCloseTo(241.7088, 4);
  });

  it('Sharpe: mean 0.5 %, sample deviation 1.5 % x sqrt(252/251), annualized by sqrt(252) = sqrt(251) / 3', () => {
    // mean = (0.02 - 0.01) / 2 = 0.005; deviations are +-0.015, so the sample variance is
    // 252 * 0.015^2 / 251; Sharpe = 0.005 / (0.015 * sqrt(252/251)) * sqrt(252) = sqrt(251) / 3.
    expect(result.sharpe).toBeCloseTo(5.280993, 5);
  });

  it('no CAGR below a year of returns, no Sharpe below 60 days', () => {
    const short = portfolioReturns(
      planPortfolio([buy], (symbol) => (symbol === 'ALT' ? ALT : undefined), days[59] as string),
      { buy: 'mid', sell: 'mid' },
    );
    // Bought on day 0, valued through day 58 (the day before "today"): 58 returns.
    expect(short.days).toBe(58);
    expect(short.cagr).toBeNull();
    expect(short.sharpe).toBeNull();
  });
});
