// Constructed readings (what the form reader hands over for one row, made up here) through the
// rules that set each field's confidence and decide `needs_review`.
import { beforeAll, describe, expect, it } from 'vitest';
import { cell, context, houseRow } from '../../test-support/ocr-rows.js';
import type { MarkReading } from './cell-ink.js';
import { assetLexicon, type Lexicon } from './lexicon.js';
import { scannedRow } from './scanned-rows.js';

describe('scannedRow', () => {
  let withIssuers: Lexicon;
  let withoutIssuers: Lexicon;
  beforeAll(async () => {
    withIssuers = await assetLexicon([
      'MetLife, Inc.',
      'BlackRock Funding, Inc.',
      'COLGATE PALMOLIVE CO',
      'HORTON D R INC /DE/',
      'PayPal Holdings, Inc.',
    ]);
    withoutIssuers = await assetLexicon([]);
  });

  it('serves a cleanly read row as read', () => {
    const row = scannedRow(houseRow('METLIFE, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({
      owner: 'Spouse',
      asset_description: 'METLIFE, INC. CMN',
      trade_type: 'Buy',
      transaction_date: '2025-01-17',
      notification_date: '2025-02-04',
      amount: { range: '$1,001 - $15,000' },
      needs_review: false,
    });
  });

  it('corrects a known misread against the issuer names, below full confidence', () => {
    const row = scannedRow(houseRow('METUFE, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row.asset_description).toBe('METLIFE, INC. CMN');
    expect(row.confidence.asset_description).toBeLessThan(0.9);
  });

  it('without issuer names, neither corrects nor trusts a word no list holds', () => {
    const misread = scannedRow(houseRow('METUFE, INC. CMN'), { ...context, lexicon: withoutIssuers });
    expect(misread).toMatchObject({ asset_description: 'METUFE, INC. CMN', needs_review: true });
    const name = scannedRow(houseRow('LINDE PLC CMN'), { ...context, lexicon: withoutIssuers });
    expect(name).toMatchObject({ asset_description: 'LINDE PLC CMN', needs_review: true });
  });

  it("without issuer names, doubts an English word where an issuer's acronym stands", () => {
    const row = scannedRow(houseRow('COW CORPORATION CMN'), { ...context, lexicon: withoutIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"COW"');
  });

  it('flags a period after a whole word inside a name (a comma misread)', () => {
    const row = scannedRow(houseRow('BLACKROCK FUNDING. INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"FUNDING." (comma?)');
  });

  it('checks a hyphenated name part by part, correcting a misread part', () => {
    const row = scannedRow(houseRow('COLGATE-PALMOUVE CO CMN'), { ...context, lexicon: withIssuers });
    expect(row.asset_description).toBe('COLGATE-PALMOLIVE CO CMN');
    expect(row.confidence.asset_description).toBeLessThan(0.9);
  });

  it('takes initials as read: there is no word to check them against', () => {
    const row = scannedRow(houseRow('D.R. HORTON, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({ asset_description: 'D.R. HORTON, INC. CMN', needs_review: false });
  });

  it('flags a comma after a legal form inside a name (a period misread)', () => {
    const row = scannedRow(houseRow('PAYPAL HOLDINGS, INC, CMN'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"INC," (period?)');
    const clean = scannedRow(houseRow('PAYPAL HOLDINGS, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(clean.needs_review).toBe(false);
  });

  it('flags option descriptions, whose small symbols the engine drops', () => {
    const row = scannedRow(houseRow('PUT/XSP 555 EXP 03/07/2025'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
  });

  it('flags dates that contradict each other or the filing, however clearly read', () => {
    const row = scannedRow(houseRow('METLIFE, INC. CMN', { date: cell('03/17/25') }), {
      ...context,
      lexicon: withIssuers,
    });
    expect(row.needs_review).toBe(true);
    expect(row.confidence.transaction_date).toBeLessThan(0.5);
  });

  it('leaves the type empty and flags the row when two types are marked', () => {
    const types: MarkReading = { marked: [0, 1], shares: [0.06, 0.05, 0.001], clarity: 1 };
    const row = scannedRow(houseRow('METLIFE, INC. CMN', { types }), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({ trade_type: null, needs_review: true });
    expect(row.confidence.trade_type).toBe(0);
  });
});
