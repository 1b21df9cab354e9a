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
