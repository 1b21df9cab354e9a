import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  optionTermsFromText,
  parseShortDate,
  readAmount,
  readRequiredFields,
} from './trade-fields.js';

describe('readRequiredFields', () => {
  it('reads kind, date and amount, and names the first field that cannot be read', () => {
    expect(readRequiredFields({ type: 'P', date: '01/14/2025', amount: '$9.00' })).toMatchObject({
      ok: true,
      value: { kind: { action: 'buy' }, date: '2025-01-14', amount: { low: 9, high: 9 } },
      warning: 'amount "$9.00" is an exact value, not a disclosure bracket',
    });
    expect(readRequiredFields({ type: 'Gift', date: 'soon', amount: '' })).toEqual({
      ok: false,
      reason: 'unknown transaction type "Gift"',
    });
    expect(readRequiredFields({ type: 'S', date: 'soon', amount: '' })).toEqual({
      ok: false,
      reason: 'transaction date "soon" is not a date',
    });
    expect(readRequiredFields({ type: 'S', date: '01/14/2025', amount: '' })).toEqual({
      ok: false,
      reason: 'no amount',
    });
  });
});

describe('readAmount', () => {
  it('reads brackets, wrapped brackets and exact values, and refuses the rest', () => {
    expect(readAmount('$250,001 -\n$500,000')).toEqual({
      ok: true,
      value: { range: '$250,001 - $500,000', low: 250_001, high: 500_000 },
    });
    expect(readAmount('$9.00')).toMatchObject({
      ok: true,
      value: { range: '$9.00', low: 9, high: 9 },
      warning: expect.any(String),
    });
    expect(readAmount('')).toEqual({ ok: false, reason: 'no amount' });
    expect(readAmount('Unknown')).toEqual({ ok: false, reason: 'amount "Unknown" is not a bracket' });
  });

  it('never throws, and anything it accepts has consistent bounds', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = readAmount(text);
        if (!result.ok) return;
        expect(result.value.low).toBeGreaterThanOrEqual(0);
        if (result.value.high !== null) expect(result.value.high).toBeGreaterThanOrEqual(result.value.low);
      }),
    );
  });
});

describe('optionTermsFromText', () => {
  it.each([
    [
      'Purchased 50 call options with a strike price of $150 and an expiration date of 1/16/26.',
      'Call',
      150,
      '2026-01-16',
    ],
    [
      'Sold 130 call options purchased 12/20/21 with a strike price of $210 and an expiration date of 1/20/23.',
      'Call',
      210,
      '2023-01-20',
    ],
    ['Bought 10 puts, strike $42.50, expiring 07/17/2020', 'Put', 42.5, '2020-07-17'],
    ['Sold 1,000 shares.', null, null, null],
  ])('%j', (text, optionType, strikePrice, optionExpiry) => {
    expect(optionTermsFromText(text)).toEqual({ optionType, strikePrice, optionExpiry });
  });

  it('reads any strike and expiry written the House way', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('call', 'put'),
        fc.integer({ min: 1, max: 5000 }),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        (kind, strike, date) => {
          const iso = date.toISOString().slice(0, 10);
          const short = `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(2, 4)}`;
          const text = `Purchased 5 ${kind} options with a strike price of $${strike.toLocaleString('en-US')} and an expiration date of ${short}.`;
          expect(optionTermsFromText(text)).toEqual({
            optionType: kind === 'call' ? 'Call' : 'Put',
            strikePrice: strike,
            optionExpiry: iso,
          });
        },
      ),
    );
  });
});

describe('small helpers', () => {
  it('cleans free text and reads two-digit years', () => {
    expect(cleanText('  --  ')).toBeNull();
    expect(cleanText(' Sold\n all ')).toBe('Sold all');
    expect(parseShortDate('1/16/26')).toBe('2026-01-16');
    expect(parseShortDate('02/30/26')).toBeNull();
  });
});
