import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBracket, parseAmountRange } from './amount.js';

describe('parseAmountRange', () => {
  it.each([
    ['$1,001 - $15,000', 1001, 15000, '$1,001 - $15,000'],
    ['$15,001 -\n$50,000', 15001, 50000, '$15,001 - $50,000'],
    ['$15,001 -', 15001, 50000, '$15,001 - $50,000'],
    ['$1,000 - $15,000', 1001, 15000, '$1,001 - $15,000'],
    ['$1,000,000 +', 1000001, null, 'Over $1,000,000'],
    ['Over $50,000,000', 50000001, null, 'Over $50,000,000'],
    ['$50,000,001 +', 50000001, null, 'Over $50,000,000'],
    ['$25,000,001 - $50,000,000', 25000001, 50000000, '$25,000,001 - $50,000,000'],
    ['$1,001-$15,000', 1001, 15000, '$1,001 - $15,000'],
  ])('%j -> %d..%s', (text, low, high, range) => {
    expect(parseAmountRange(text)).toEqual({ low, high, range });
  });

  it.each(['$224.00', '$15.00', 'Unknown', '', '--', 'N/A', '$1,118.07'])('rejects %j', (text) => {
    expect(parseAmountRange(text)).toBeNull();
  });

  it('never throws and always yields a consistent bracket', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseAmountRange(text);
        if (parsed === null) return;
        expect(parsed.low).toBeGreaterThanOrEqual(1000);
        if (parsed.high !== null) expect(parsed.high).toBeGreaterThan(parsed.low);
        expect(parsed.range).toBe(formatBracket(parsed.low, parsed.high));
      }),
    );
  });

  // Bracket-shaped inputs: every standard bracket printed the ways filings and data sets print
  // them, so every case reaches the assertion (random strings almost never parse).
  const BRACKETS: ReadonlyArray<readonly [number, number | null]> = [
    [1_001, 15_000],
    [15_001, 50_000],
    [50_001, 100_000],
    [100_001, 250_000],
    [250_001, 500_000],
    [500_001, 1_000_000],
    [1_000_001, 5_000_000],
    [5_000_001, 25_000_000],
    [25_000_001, 50_000_000],
    [1_000_001, null],
    [50_000_001, null],
  ];
  const money = (value: number, commas: boolean, sign: boolean) =>
    `${sign ? '$' : ''}${commas ? value.toLocaleString('en-US') : String(value)}`;
  const space = fc.constantFrom('', ' ', '  ', '\n', ' \n', '\t');

  it('reads every bracket in every printed form back to that bracket', () => {
    const printed = fc
      .record({
        bracket: fc.constantFrom(...BRACKETS),
        commas: fc.boolean(),
        sign: fc.boolean(),
        lowOneLess: fc.boolean(),
        dash: fc.constantFrom('-', '–'),
        before: space,
        after: space,
        edge: space,
        openForm: fc.constantFrom('over', 'plus', 'Over', 'OVER'),
        cutOff: fc.boolean(),
      })
      .map((form) => {
        const [low, high] = form.bracket;
        if (high === null) {
          const bound = form.lowOneLess ? low - 1 : low;
          const text =
            form.openForm === 'plus'
              ? `${money(bound, form.commas, form.sign)}${form.before}+`
              : `${form.openForm}${form.after}${money(bound, form.commas, true)}`;
          return { form, text: `${form.edge}${text}${form.edge}` };
        }
        const lowText = money(form.lowOneLess ? low - 1 : low, form.commas, form.sign);
        const highText = form.cutOff ? '' : money(high, form.commas, form.sign);
        return { form, text: `${form.edge}${lowText}${form.before}${form.dash}${form.after}${highText}` };
      });
    fc.assert(
      fc.property(printed, ({ form, text }) => {
        const [low, high] = form.bracket;
        expect(parseAmountRange(text), JSON.stringify(text)).toEqual({
          low,
          high,
          range: formatBracket(low, high),
        });
      }),
      { numRuns: 500 },
    );
  });
});

// The edge rules of parseAmountRange, one documented rule per test (see amount.ts).
describe('parseAmountRange edge rules', () => {
  it('treats missing and blank text as no bracket', () => {
    expect(parseAmountRange(null)).toBeNull();
    expect(parseAmountRange(undefined)).toBeNull();
    expect(parseAmountRange('  \n ')).toBeNull();
  });

  it.each([
    ['Over $1,000,000', 1_000_001],
    ['over 1,000,000', 1_000_001],
    ['Over$1,000,001', 1_000_001],
    ['Spouse/DC Over $1,000,000', 1_000_001],
    ['Over $50,000,001', 50_000_001],
    ['1,000,000+', 1_000_001],
    ['$1,000,000+', 1_000_001],
    ['$ 50,000,000 +', 50_000_001],
  ])('reads the open-ended form %j', (text, low) => {
    expect(parseAmountRange(text)).toEqual({ low, high: null, range: formatBracket(low, null) });
  });

  it.each([
    'Over $5,000,000',
    'Over $250,000',
    'Over $999,999',
    'Over $1,000,002',
    '$49,999,999 +',
    'Over $,',
    '$1,000,000 + fees',
  ])('only the two open-ended brackets exist: %j is none', (text) => {
    expect(parseAmountRange(text)).toBeNull();
  });

  it('reads a cut-off upper bound only from a standard lower bound', () => {
    expect(parseAmountRange('$1,000,001 -')).toEqual({
      low: 1_000_001,
      high: 5_000_000,
      range: '$1,000,001 - $5,000,000',
    });
    expect(parseAmountRange('$250,000 -')).toEqual({
      low: 250_001,
      high: 500_000,
      range: '$250,001 - $500,000',
    });
    expect(parseAmountRange('$2,000 -')).toBeNull();
    expect(parseAmountRange('$50,000,001 -')).toBeNull();
    expect(parseAmountRange('$15,001 - n/a')).toBeNull();
    expect(parseAmountRange('$15,001')).toBeNull();
  });

  it('requires whole numbers of dollars for the lower bound and digits only', () => {
    expect(parseAmountRange('$1,001.00 - $15,000.00')).toEqual({
      low: 1001,
      high: 15_000,
      range: '$1,001 - $15,000',
    });
    expect(parseAmountRange('$1,000.50 - $15,000')).toBeNull();
    expect(parseAmountRange('$1,001x - $15,000')).toBeNull();
    expect(parseAmountRange('x$1,001 - $15,000')).toBeNull();
    expect(parseAmountRange('$1,001 - $15,000x')).toBeNull();
    expect(parseAmountRange('$1,001 - x$15,000')).toBeNull();
    expect(parseAmountRange('$1,001 - $15,000.')).toBeNull();
    expect(parseAmountRange('$.5 - $15,000')).toBeNull();
  });

  it('matches a standard bracket only when both bounds agree', () => {
    // Upper bound of one bracket with the lower bound of another: not standard, kept as written.
    expect(parseAmountRange('$1,001 - $50,000')).toEqual({
      low: 1001,
      high: 50_000,
      range: '$1,001 - $50,000',
    });
    // A lower bound two below the standard one is not the "one less" spelling.
    expect(parseAmountRange('$14,999 - $50,000')).toEqual({
      low: 14_999,
      high: 50_000,
      range: '$14,999 - $50,000',
    });
    expect(parseAmountRange('$15,002 - $50,000')).toEqual({
      low: 15_002,
      high: 50_000,
      range: '$15,002 - $50,000',
    });
  });

  it('keeps non-standard filer-written ranges from $1,000 up, rising only', () => {
    expect(parseAmountRange('$1,000 - $2,000')).toEqual({ low: 1000, high: 2000, range: '$1,000 - $2,000' });
    expect(parseAmountRange('$999 - $2,000')).toBeNull();
    expect(parseAmountRange('$5,000 - $5,000')).toBeNull();
    expect(parseAmountRange('$5,000 - $4,000')).toBeNull();
    expect(parseAmountRange('$5,000 - $5,001')).toEqual({ low: 5000, high: 5001, range: '$5,000 - $5,001' });
    // The dash needs no spaces on either side, for non-standard ranges too.
    expect(parseAmountRange('$5,000-$6,000')).toEqual({ low: 5000, high: 6000, range: '$5,000 - $6,000' });
    expect(parseAmountRange('$1,000 -$2,000')).toEqual({ low: 1000, high: 2000, range: '$1,000 - $2,000' });
  });
});

describe('formatBracket', () => {
  it('prints closed brackets with both bounds and open ones as "Over" the bound below', () => {
    expect(formatBracket(1001, 15_000)).toBe('$1,001 - $15,000');
    expect(formatBracket(1_000_001, null)).toBe('Over $1,000,000');
    expect(formatBracket(50_000_001, null)).toBe('Over $50,000,000');
    expect(formatBracket(1000.4, 2000.6)).toBe('$1,000 - $2,001');
  });
});
