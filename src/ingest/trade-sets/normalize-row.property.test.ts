// Property tests with filing-shaped inputs: rows built the way the Stock Watcher sets and House
// PTRs print them (every bracket form, every trade-type spelling including Exercise and Expired,
// dates in both orders, tickers, option names), some fields garbled. The normalizer must never
// throw, must refuse a bad row with a reason naming what is wrong, and must round-trip what it
// accepts: the bracket, the trade type, the dates, the option terms.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBracket, STANDARD_BRACKETS } from '../../domain/amount.js';
import { NO_TICKER_SPELLINGS } from '../../domain/ticker.js';
import { NOT_TICKERS } from '../sources/asset-text.js';
import { scanText } from '../sources/quick-scan.js';
import { normalizeRow } from './normalize-row.js';
import type { TradeSetRow } from './read.js';

const TODAY = '2026-06-01';

/** Every spelling the sets and filings use, with the label and action it must become. */
const TRADE_TYPES: ReadonlyArray<readonly [string, string, string]> = [
  ['Purchase', 'Buy', 'buy'],
  ['P', 'Buy', 'buy'],
  ['purchase', 'Buy', 'buy'],
  ['Sale (Full)', 'Sell', 'sell'],
  ['sale_full', 'Sell', 'sell'],
  ['S', 'Sell', 'sell'],
  ['Sale', 'Sell', 'sell'],
  ['Sale (Partial)', 'Sell (Partial)', 'sell'],
  ['sale_partial', 'Sell (Partial)', 'sell'],
  ['S (partial)', 'Sell (Partial)', 'sell'],
  ['Exchange', 'Exchange', 'exchange'],
  ['E', 'Exchange', 'exchange'],
  ['Exercise', 'Exercise', 'exercise'],
  ['Option Exercise', 'Exercise', 'exercise'],
  ['Expired', 'Expired', 'expired'],
  ['Option Expired', 'Expired', 'expired'],
];

const pad = (n: number) => String(n).padStart(2, '0');

/** A bracket as one of the printed forms: canonical, without "$" or commas, low bound one less. */
const printedBracket = fc
  .tuple(fc.constantFrom(...STANDARD_BRACKETS), fc.integer({ min: 0, max: 3 }))
  .map(([[low, high], form]) => {
    const canonical = formatBracket(low, high);
    const printed =
      high === null
        ? form % 2 === 0
          ? canonical
          : `$${(low - 1).toLocaleString('en-US')} +`
        : form === 0
          ? canonical
          : form === 1
            ? `${low.toLocaleString('en-US')} - ${high.toLocaleString('en-US')}`
            : form === 2
              ? `$${(low - 1).toLocaleString('en-US')} – $${high.toLocaleString('en-US')}`
              : `$${low.toLocaleString('en-US')} -\n$${high.toLocaleString('en-US')}`;
    return { printed, low, high, canonical };
  });

const isoDate = fc
  .record({
    year: fc.integer({ min: 2012, max: 2025 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ year, month, day }) => `${year}-${pad(month)}-${pad(day)}`);

// Symbols, not the words that look like them in parentheses ("(LP)", "(ADR)").
// "NA" and "NONE" are how filers write "no ticker", so a row carrying them has none to read back.
const ticker = fc
  .stringMatching(/^[A-Z]{1,5}$/)
  .filter((symbol) => !NOT_TICKERS.has(symbol) && !NO_TICKER_SPELLINGS.has(symbol));

const option = fc.record({
  kind: fc.constantFrom('Call', 'Put'),
  strike: fc.integer({ min: 1, max: 5_000 }),
  expiry: isoDate,
  form: fc.integer({ min: 0, max: 2 }),
});

function optionName(
  company: string,
  o: { kind: string; strike: number; expiry: string; form: number },
): string {
  const [year, month, day] = o.expiry.split('-');
  const us = `${Number(month)}/${Number(day)}/${year}`;
  if (o.form === 0) return `${company} - ${o.kind} Option Strike $${o.strike} - expiry ${us}`;
  if (o.form === 1)
    return `${company} - ${o.kind} options Strike $${o.strike}, expiry ${month}/${day}/${year?.slice(2)}`;
  return `${company} - ${o.kind} option, strike of $${o.strike} expires ${us}`;
}

const filingRow = fc.record({
  type: fc.constantFrom(...TRADE_TYPES),
  bracket: printedBracket,
  transaction: isoDate,
  lag: fc.integer({ min: 0, max: 90 }),
  usDates: fc.boolean(),
  ticker,
  company: fc.constantFrom(
    'Apple Inc.',
    'Microsoft Corporation',
    'Acme, Inc. - Class A',
    'NVIDIA Corporation',
  ),
  option: fc.option(option, { nil: null }),
  owner: fc.constantFrom('Self', 'Spouse', 'Joint', 'SP', 'JT', null),
});

function toRow(input: FilingInput): TradeSetRow {
  const filed = addDays(input.transaction, input.lag);
  const date = (iso: string) =>
    input.usDates ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : iso;
  return {
    line: 2,
    source: 'house_clerk',
    filerName: 'Hon. Test Member',
    bioguideId: null,
    district: 'CA11',
    docId: null,
    reportUrl: null,
    reportKind: 'PTR',
    isPaper: false,
    filedDate: date(filed),
    transactionDate: date(input.transaction),
    owner: input.owner,
    ticker: input.ticker,
    assetDescription: input.option
      ? optionName(input.company, input.option)
      : `${input.company} - Common Stock`,
    assetType: null,
    type: input.type[0],
    amount: input.bracket.printed,
    comment: null,
  };
}

type FilingInput = typeof filingRow extends fc.Arbitrary<infer T> ? T : never;

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe('trade-set rows shaped like filings', () => {
  it('accepts every well-formed row and reads back its bracket, type, dates, ticker and option terms', () => {
    fc.assert(
      fc.property(filingRow, (input) => {
        const outcome = normalizeRow(toRow(input), TODAY);
        expect(outcome.kind).toBe('trade');
        if (outcome.kind !== 'trade') return;
        const { trade } = outcome;
        expect(trade.amountRange).toBe(input.bracket.canonical);
        expect([trade.amountLow, trade.amountHigh]).toEqual([input.bracket.low, input.bracket.high]);
        expect([trade.tradeType, trade.tradeAction]).toEqual([input.type[1], input.type[2]]);
        expect(trade.transactionDate).toBe(input.transaction);
        expect(trade.daysToDisclose).toBe(input.lag);
        expect(trade.ticker).toBe(input.ticker);
        if (input.option) {
          expect(trade).toMatchObject({
            optionType: input.option.kind,
            strikePrice: input.option.strike,
            optionExpiry: input.option.expiry,
            assetType: 'Option',
          });
        } else {
          expect(trade.optionType).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a row with one garbled field, never throwing, with a reason naming the field', () => {
    const garble = fc.constantFrom<readonly [keyof TradeSetRow, string | null, RegExp]>(
      ['type', 'Gift', /transaction type/],
      ['type', '', /transaction type/],
      ['amount', '$224.00', /bracket/],
      ['amount', 'Unknown', /bracket/],
      ['amount', '', /bracket/],
      ['transactionDate', '13/45/2020', /transaction date/],
      ['transactionDate', '2031-01-01', /transaction date/],
      ['transactionDate', null, /transaction date/],
      ['filedDate', '2020-02-30', /disclosure date/],
      ['filerName', '  ', /filer name/],
    );
    fc.assert(
      fc.property(filingRow, garble, (input, [field, value, reason]) => {
        const row = { ...toRow(input), [field]: value };
        const outcome = normalizeRow(row, TODAY);
        expect(outcome.kind).toBe('skip');
        if (outcome.kind === 'skip') expect(outcome.reason).toMatch(reason);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text in any field', () => {
    const text = fc.option(fc.string({ maxLength: 60 }), { nil: null });
    fc.assert(
      fc.property(filingRow, text, text, text, text, (input, type, amount, date, asset) => {
        const row = { ...toRow(input), type, amount, transactionDate: date, assetDescription: asset };
        const outcome = normalizeRow(row, TODAY);
        if (outcome.kind === 'skip') expect(outcome.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the quick scan on PTR-shaped lines', () => {
  it('names every ticker and reports the largest bracket, however the amounts wrap', () => {
    // PTRs print every bound with "$" (the sets drop it; they are not scanned).
    const dollars = printedBracket.filter((bracket) => bracket.printed.includes('$'));
    const line = fc.record({
      ticker,
      bracket: dollars,
      wrap: fc.boolean(),
      company: fc.constantFrom('Apple Inc.', 'Acme Corp'),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (rows) => {
        const lines = rows.flatMap(({ ticker: symbol, bracket, wrap, company }) => {
          const [low, high] = bracket.printed.split(/\s*[-–]\s*|\n/);
          const asset = `SP ${company} - Common Stock (${symbol}) [ST] P 01/02/2025 01/03/2025`;
          return wrap && high !== undefined
            ? [`${asset} ${low} -`, `Common Stock ${high}`]
            : [`${asset} ${bracket.printed.replace('\n', ' ')}`];
        });
        const scan = scanText(lines);
        expect([...scan.tickers].sort()).toEqual([...new Set(rows.map((row) => row.ticker))].sort());
        expect(scan.estAmountHigh).toBe(Math.max(...rows.map(({ bracket }) => bracket.high ?? bracket.low)));
      }),
      { numRuns: 300 },
    );
  });
});
