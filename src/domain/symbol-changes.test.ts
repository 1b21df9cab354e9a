import { describe, expect, it } from 'vitest';
import {
  currentSymbolOf,
  linkedSymbols,
  SYMBOL_CHANGES,
  sameCompanyOn,
  symbolNow,
  symbolSpans,
} from './symbol-changes.js';

describe('currentSymbolOf', () => {
  it.each([
    ['FB', '2021-05-14', 'META'],
    ['FB', '2014-01-24', 'META'],
    // Filers kept writing FB after the change ("Meta Platforms, Inc." of 2025): nobody else has it.
    ['FB', '2025-11-18', 'META'],
    ['META', '2021-05-14', 'META'],
    ['UTX', '2019-06-03', 'RTX'],
    ['ANTM', '2022-03-09', 'ELV'],
    ['SQ', '2024-12-30', 'XYZ'],
    ['DISCA', '2021-01-04', 'WBD'],
    // Three in a row: CBS became ViacomCBS (VIAC), renamed Paramount Global (PARA), continued by
    // Paramount Skydance (PSKY).
    ['CBS', '2016-03-01', 'PSKY'],
    ['PARA', '2023-03-03', 'PSKY'],
    ['AAPL', '2020-01-02', 'AAPL'],
  ])('reads %s of %s as %s', (filed, date, current) => {
    expect(currentSymbolOf(filed, date).symbol).toBe(current);
  });

  it('respects a reused symbol: WTW was Weight Watchers before Willis Towers Watson took it', () => {
    expect(currentSymbolOf('WTW', '2017-01-24').symbol).toBe('WW');
    expect(currentSymbolOf('WTW', '2023-08-10')).toEqual({ symbol: 'WTW', changes: [] });
    // Willis Towers Watson's own WLTW becomes WTW, not Weight Watchers' WW of 2018.
    expect(currentSymbolOf('WLTW', '2021-03-10').symbol).toBe('WTW');
  });

  it('respects a reused symbol: BBT was BB&T (now Truist) before Beacon Financial took it', () => {
    expect(currentSymbolOf('BBT', '2015-11-25').symbol).toBe('TFC');
    expect(currentSymbolOf('BBT', '2025-09-25').symbol).toBe('BBT');
  });

  it('names the changes it followed, oldest first', () => {
    expect(currentSymbolOf('CBS', '2016-03-01').changes.map((change) => change.new)).toEqual([
      'VIAC',
      'PARA',
      'PSKY',
    ]);
  });

  it('follows renames only when asked for the price series: a successor starts its own', () => {
    expect(currentSymbolOf('CBS', '2016-03-01', 'renames').symbol).toBe('PARA');
    expect(currentSymbolOf('PARA', '2023-03-03', 'renames')).toEqual({ symbol: 'PARA', changes: [] });
    expect(currentSymbolOf('FB', '2021-05-14', 'renames').symbol).toBe('META');
  });

  it('reads reuse for the filed symbol only: PARA after the merger is not Paramount, CBS still is', () => {
    expect(currentSymbolOf('PARA', '2025-09-02')).toEqual({ symbol: 'PARA', changes: [] });
    expect(currentSymbolOf('CBS', '2025-09-02').symbol).toBe('PSKY');
  });
});

describe('linkedSymbols and sameCompanyOn', () => {
  it('links every symbol a company was filed under', () => {
    expect(linkedSymbols('META')).toEqual(['META', 'FB']);
    expect(linkedSymbols('para').sort()).toEqual(['CBS', 'PARA', 'PSKY', 'VIAC']);
    expect(linkedSymbols('WTW').sort()).toEqual(['WLTW', 'WTW', 'WW']);
    expect(linkedSymbols('NVDA')).toEqual(['NVDA']);
  });

  it('matches a filed symbol to the company asked for on the trade date', () => {
    expect(sameCompanyOn('FB', 'META', '2022-02-09')).toBe(true);
    expect(sameCompanyOn('META', 'FB', '2022-07-01')).toBe(true);
    expect(sameCompanyOn('WTW', 'WTW', '2017-01-24')).toBe(true);
    expect(sameCompanyOn('WLTW', 'WTW', '2023-01-03')).toBe(true);
    // In 2017 WTW named Weight Watchers: Willis Towers Watson (then WLTW) is another company.
    expect(sameCompanyOn('WLTW', 'WTW', '2017-01-24')).toBe(false);
    expect(sameCompanyOn('WW', 'WTW', '2017-01-24')).toBe(true);
    expect(sameCompanyOn('BBT', 'TFC', '2025-09-25')).toBe(false);
  });
});

describe('symbolSpans and symbolNow', () => {
  it('gives the dates over which a symbol means another company, as currentSymbolOf reads them', () => {
    const spans = symbolSpans();
    expect(spans).toContainEqual({ filed: 'FB', from: null, until: null, company: 'META' });
    expect(spans).toContainEqual({ filed: 'BBT', from: null, until: '2025-09-02', company: 'TFC' });
    expect(spans).toContainEqual({ filed: 'WTW', from: null, until: '2022-01-10', company: 'WW' });
    expect(spans).toContainEqual({ filed: 'CBS', from: null, until: null, company: 'PSKY' });
    expect(spans).toContainEqual({ filed: 'PARA', from: null, until: '2025-08-07', company: 'PSKY' });
    // A symbol in the years it means itself has no span: META, Beacon Financial's BBT, Willis's WTW.
    expect(spans.filter((span) => ['META', 'TFC', 'PSKY'].includes(span.filed))).toEqual([]);
    // Every symbol of the table, on each side of every day a symbol was reused: the spans agree.
    const cuts = SYMBOL_CHANGES.flatMap((change) => (change.oldReusedFrom ? [change.oldReusedFrom] : []));
    const days = [
      '2010-01-04',
      '2030-01-02',
      ...cuts,
      ...cuts.map((cut) => `${Number(cut.slice(0, 4)) - 1}-12-31`),
    ];
    for (const symbol of new Set(SYMBOL_CHANGES.flatMap((change) => [change.old, change.new]))) {
      for (const day of days) {
        const span = spans.find(
          (entry) =>
            entry.filed === symbol &&
            (entry.from === null || day >= entry.from) &&
            (entry.until === null || day < entry.until),
        );
        expect(span?.company ?? symbol).toBe(currentSymbolOf(symbol, day).symbol);
      }
    }
  });

  it('names the company a symbol means now', () => {
    expect(symbolNow('FB')).toBe('META');
    expect(symbolNow('BBT')).toBe('BBT');
    expect(symbolNow('WTW')).toBe('WTW');
    expect(symbolNow('CBS')).toBe('PSKY');
    // The directories list PARA for another company since Paramount's merger.
    expect(symbolNow('PARA')).toBe('PARA');
    expect(symbolNow('nvda')).toBe('NVDA');
  });
});

describe('SYMBOL_CHANGES', () => {
  it('is well formed: dated, sourced, one meaning per old symbol and day', () => {
    for (const change of SYMBOL_CHANGES) {
      expect(change.effective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // A successor's old symbol names nothing of the company from the change on.
      if (change.oldReusedFrom !== null)
        expect(
          change.oldReusedFrom >= change.effective &&
            (change.kind === 'successor' || change.oldReusedFrom > change.effective),
        ).toBe(true);
      expect(change.old).not.toBe(change.new);
      expect(change.source.length).toBeGreaterThan(20);
      expect(change.company).not.toMatch(/\d/);
    }
    const olds = SYMBOL_CHANGES.map((change) => change.old);
    expect(new Set(olds).size).toBe(olds.length);
  });
});
