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
});
