import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { ParsedTrade } from '../../src/ingest/sources/document.js';
import { comparableFields, FIELDS, pairRows, theirTicker } from './compare.js';
import { type CrossCheck, crossCheck } from './cross-check.js';
import { totals } from './report.js';
import { openDisagreements } from './verdicts.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('cross-check against independent parses (ACCURACY.md)', () => {
  let check: CrossCheck;
  beforeAll(async () => {
    check = await crossCheck(dataDir ?? '');
  }, 240_000);

  it('agrees on at least 99% of dates, owners, tickers, types and amounts', () => {
    const all = totals(check);
    for (const field of FIELDS) {
      expect(all[field].compared, field).toBeGreaterThan(1000);
      expect(all[field].agreed / all[field].compared, field).toBeGreaterThanOrEqual(0.99);
    }
  });

  it('covers every source and has every disagreement judged, none against us', () => {
    for (const source of check.sources) expect(source.documentsCompared, source.source).toBeGreaterThan(0);
    const { unjudged, lost } = openDisagreements(check.sources.flatMap((source) => source.disagreements));
    // A new disagreement fails the run until someone reads the document and records a verdict.
    expect(unjudged).toEqual([]);
    expect(lost).toEqual([]);
  });

  it('passes the completeness checks', () => {
    expect(check.completeness).toHaveLength(3);
    for (const line of check.completeness) expect(line).not.toMatch(/differs in|not: |gaps in/);
  });
});

function trade(overrides: Partial<ParsedTrade>): ParsedTrade {
  return {
    row: 1,
    source_row_id: null,
    ticker: 'AAPL',
    asset_description: 'Apple Inc.',
    asset_type: 'Stock',
    asset_code: null,
    trade_type: 'Sell (Partial)',
    trade_action: 'sell',
    amount_range: '$1,001 - $15,000',
    amount_low: 1001,
    amount_high: 15000,
    transaction_date: '2020-01-14',
    disclosure_date: '2020-02-07',
    notification_date: null,
    late_notification: null,
    owner: 'Spouse',
    option_type: null,
    strike_price: null,
    option_expiry: null,
    comment: null,
    filing_status: 'New',
    subholding_of: null,
    location: null,
    ...overrides,
  };
}

describe('verdicts', () => {
  const base = { source: 'House Stock Watcher export', document: 'x', asset: 'x', theirs: 'y' } as const;
  it('counts a disagreement without a verdict as open, and one decided for them as lost', () => {
    const judged = { ...base, row: 8, field: 'trade_type', ours: 'Sell' } as const;
    const unjudged = { ...base, row: 9999, field: 'owner', ours: 'Self' } as const;
    expect(openDisagreements([judged])).toEqual({ unjudged: [], lost: [] });
    expect(openDisagreements([judged, unjudged])).toEqual({ unjudged: [unjudged], lost: [] });
  });
});

describe('comparison rules', () => {
  it("compares both sides after the same normalization, at the other set's type granularity", () => {
    const theirs = {
      transaction_date: '01/14/2020',
      owner: 'spouse',
      ticker: '--',
      type: 'Sale',
      amount: '$1,001 -\n$15,000',
      description: 'Apple',
    };
    const ours = trade({ ticker: 'N/A' });
    expect(comparableFields(ours, theirs, 'action')).toEqual({
      transaction_date: { ours: '2020-01-14', theirs: '2020-01-14' },
      owner: { ours: 'Spouse', theirs: 'Spouse' },
      ticker: { ours: 'N/A', theirs: 'N/A' },
      trade_type: { ours: 'sell', theirs: 'sell' },
      amount: { ours: '$1,001 - $15,000', theirs: '$1,001 - $15,000' },
    });
    expect(comparableFields(ours, theirs, 'label').trade_type).toEqual({
      ours: 'Sell (Partial)',
      theirs: 'Sell',
    });
  });

  it('accepts either ticker of an eFD exchange cell', () => {
    const cell = '--   <br>  <a href="https://finance.yahoo.com/q?s=RTN">RTN</a>';
    expect(theirTicker(cell, 'RTN')).toBe('RTN');
    expect(theirTicker(cell, 'UTX')).toBe('RTN');
  });

  it('pairs identical-looking rows one to one and leaves the rest unpaired', () => {
    const row = {
      transaction_date: '01/14/2020',
      owner: 'Spouse',
      ticker: 'AAPL',
      type: 'Sale (Partial)',
      amount: '$1,001 - $15,000',
      description: 'Apple Inc.',
    };
    const other = {
      ...row,
      ticker: 'MSFT',
      transaction_date: '03/03/2021',
      type: 'Purchase',
      amount: '$50,001 - $100,000',
      description: 'Microsoft',
    };
    const paired = pairRows([trade({ row: 1 }), trade({ row: 2 })], [row, row, other], 'label');
    expect(paired.pairs).toHaveLength(2);
    expect(paired.onlyOurs).toEqual([]);
    expect(paired.onlyTheirs).toEqual([other]);
  });
});
