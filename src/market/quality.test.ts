import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { FORMAT_PRIORITY, parsePriceFile } from './price-files.js';
import {
  assessSymbol,
  detectGaps,
  detectSpikes,
  detectUnadjustedSplits,
  type SymbolSeries,
} from './quality.js';
import { TradingCalendar } from './series.js';

const dataDir = inject('dataDir');

function load(path: string, symbol?: string): SymbolSeries {
  const full = join(dataDir ?? '', 'market/prices', path);
  const file = parsePriceFile(readFileSync(full, 'utf8'), full);
  const series = symbol ? file.series.find((one) => one.symbol === symbol) : file.series[0];
  if (!series) throw new Error(`${symbol ?? 'no series'} not in ${path}`);
  return {
    source: file.format,
    priority: FORMAT_PRIORITY[file.format],
    dates: series.bars.map((bar) => bar.date),
    adjClose: series.bars.map((bar) => bar.adjClose),
    actionDates: new Set(
      series.actions.filter((action) => action.kind !== 'dividend').map((action) => action.date),
    ),
  };
}

function synthetic(closes: number[], source = 'test'): SymbolSeries {
  const dates = closes.map((_, index) => `2020-01-${String(index + 1).padStart(2, '0')}`);
  return { source, priority: 1, dates, adjClose: closes };
}

describe('bad-print detectors on synthetic series', () => {
  const calm = Array.from({ length: 30 }, (_, index) => 100 + Math.sin(index) * 0.5);

  it('flags a one-day spike that comes straight back, not a move that stays', () => {
    const spiked = [...calm];
    spiked[15] = 112;
    expect(detectSpikes(synthetic(spiked)).map((finding) => finding.date)).toEqual(['2020-01-16']);
    const stepped = calm.map((close, index) => (index >= 15 ? close * 1.12 : close));
    expect(detectSpikes(synthetic(stepped))).toEqual([]);
  });

  it('does not flag a spike the whole market made', () => {
    const spiked = [...calm];
    spiked[15] = 112;
    const market = [...calm];
    market[15] = 108;
    expect(detectSpikes(synthetic(spiked), synthetic(market, 'market'))).toEqual([]);
  });

  it('flags a jump equal to a split ratio that stays', () => {
    const halved = calm.map((close, index) => (index >= 20 ? close / 4 : close));
    expect(detectUnadjustedSplits(synthetic(halved)).map((finding) => finding.date)).toEqual(['2020-01-21']);
    expect(detectUnadjustedSplits(synthetic(calm))).toEqual([]);
  });

  it('reports runs of missing market days as gaps', () => {
    const full = synthetic(calm);
    const calendar = new TradingCalendar(full.dates);
    const kept = (_: unknown, index: number) => index !== 5 && index !== 6 && index !== 20;
    const holey = { ...full, dates: full.dates.filter(kept), adjClose: calm.filter(kept) };
    expect(detectGaps(holey, calendar).map((gap) => [gap.date, gap.detail])).toEqual([
      ['2020-01-06', '2 market days missing through 2020-01-07'],
      ['2020-01-21', '1 market day missing'],
    ]);
  });
});

describe.skipIf(!dataDir)('bad prints and gaps in the real price files', () => {
  const spyWide = () => load('pyportfolioopt/spy_prices.csv');
  const spyStooq = () => load('stooq_etfs_2005_2024/spy.us.txt');

  it('flags Stooq SPY 2015-03-12/13 against the total-return SPY, in Stooq (the lower priority)', () => {
    const wide = spyWide();
    const stooq = spyStooq();
    const calendar = new TradingCalendar([...wide.dates, ...stooq.dates]);
    const findings = assessSymbol([wide, stooq], calendar, wide);
    const stooqFlags = (findings.get('stooq') ?? []).filter(
      (finding) => finding.kind === 'source_disagreement',
    );
    expect(stooqFlags.map((finding) => finding.date)).toEqual(['2009-07-16', '2015-03-12', '2015-03-13']);
    // Dividend adjustments only step the ratio between the two series: no flag on any ex-date.
    expect(
      (findings.get('wide-adjclose') ?? []).filter((finding) => finding.kind === 'source_disagreement'),
    ).toEqual([]);
    // Stooq's SPY lacks 2011-02-17.
    expect(
      (findings.get('stooq') ?? []).filter((finding) => finding.kind === 'gap').map((gap) => gap.date),
    ).toEqual(['2011-02-17']);
  });

  it('finds AAPL’s Stooq month-end bad prints by majority of three other sources', () => {
    const all = [
      load('stooq_nasdaq_2012_2024/aapl.us.txt'),
      load('alphavantage_sp500_2012_2021/DA-AAPL-T-2021-04-21.csv'),
      load('bigtech_2010_2022/big_tech_stock_prices.csv', 'AAPL'),
      load('pyportfolioopt/stock_prices.csv', 'AAPL'),
    ];
    const calendar = new TradingCalendar(spyWide().dates);
    const findings = assessSymbol(all, calendar);
    expect((findings.get('stooq') ?? []).map((finding) => finding.date)).toEqual([
      '2013-06-28',
      '2013-08-30',
      '2013-09-30',
      '2013-10-31',
      '2015-03-12',
    ]);
    for (const source of ['alphavantage', 'long-csv', 'wide-adjclose'])
      expect(findings.get(source)).toBeUndefined();
  });

  it('catches Stooq’s unadjusted CTAS 4:1 split, but not OXY’s real 2020-03-09 crash', () => {
    const calendar = new TradingCalendar(spyWide().dates);
    const ctas = assessSymbol([load('stooq_nasdaq_2012_2024/ctas.us.txt')], calendar);
    expect(
      ctas
        .get('stooq')
        ?.filter((finding) => finding.kind === 'unadjusted_split')
        .map((finding) => finding.date),
    ).toEqual(['2024-09-12']);
    // AlphaVantage records its own splits: a halving it does not call one is a market move.
    const oxy = assessSymbol([load('alphavantage_sp500_2012_2021/DA-OXY-T-2021-04-21.csv')], calendar);
    expect(oxy.get('alphavantage') ?? []).toEqual([]);
  });

  it('does not flag the March 2020 swings the whole market made', () => {
    const wide = spyWide();
    const calendar = new TradingCalendar(wide.dates);
    const pep = assessSymbol([load('stooq_nasdaq_2012_2024/pep.us.txt')], calendar, wide);
    expect((pep.get('stooq') ?? []).filter((finding) => finding.kind === 'spike_reversal')).toEqual([]);
  });
});
