// Constructed readings (what the form reader hands over for one row, made up here) through the
// rules that set each field's confidence and decide `needs_review`.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CellReading, HouseRow, MarkReading } from './house-form.js';
import { assetLexicon, type Lexicon } from './lexicon.js';
import { rowsOfScan, scannedRow } from './scanned-rows.js';

function cell(text: string, confidence = 0.96): CellReading {
  return {
    text,
    confidence,
    inked: text !== '',
    words: text
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => ({ text: word, confidence })),
  };
}

const clearMark = (index: number, columns: number): MarkReading => ({
  marked: [index],
  shares: Array.from({ length: columns }, (_, column) => (column === index ? 0.06 : 0.001)),
  clarity: 1,
});

function houseRow(asset: string, overrides: Partial<HouseRow> = {}): HouseRow {
  return {
    order: 1,
    region: { x: 0, y: 0, width: 100, height: 20 },
    owner: cell('SP'),
    ownerShape: null,
    asset: cell(asset),
    assetLines: 1,
    date: cell('01/17/25'),
    notification: cell('02/04/25'),
    types: clearMark(0, 3),
    amounts: clearMark(0, 11),
    heading: null,
    notes: [],
    ...overrides,
  };
}

const context = {
  page: 1,
  row: 1,
  filedDate: '2025-02-06',
  typeRoles: ['purchase', 'sale', 'exchange'] as const,
};

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

describe('rowsOfScan', () => {
  const page = (rows: HouseRow[]) => [
    { number: 1, form: { rows, columns: { types: context.typeRoles.map((role) => ({ role })) } } },
  ];

  it('trusts a faint transaction date that two neighbouring rows read cleanly the same', () => {
    const dates = ['01/22/25', '01/22/25', '01/22/2', '01/22/25', '01/21/25', '01/21/25', '01/20/25'];
    const rows = rowsOfScan(
      page(
        dates.map((date, index) => houseRow('METLIFE, INC. CMN', { date: cell(date, 0.4 + index / 100) })),
      ),
      context.filedDate,
    );
    // Three clean readings of 01/22 in a row (the unreadable "01/22/2" passed over); 01/21 is
    // read twice only, and 01/20 once.
    expect(rows.map((row) => row.confidence.transaction_date)).toEqual([0.9, 0.9, 0, 0.9, 0.44, 0.45, 0.46]);
    expect(rows.map((row) => row.needs_review)).toEqual([false, false, true, false, true, true, true]);
  });

  it('trusts a repaired owner code between two rows that read the same code surely', () => {
    const owners = ['DC', 'oc', 'DC', 'oc', 'SP'];
    const rows = rowsOfScan(
      page(owners.map((owner) => houseRow('METLIFE, INC. CMN', { owner: cell(owner, 0.5) }))),
      context.filedDate,
    );
    expect(rows.map((row) => row.owner)).toEqual([
      'Dependent Child',
      'Dependent Child',
      'Dependent Child',
      'Dependent Child',
      'Spouse',
    ]);
    // The second row sits between two sure DCs; the fourth between a DC and an SP.
    expect(rows.map((row) => row.needs_review)).toEqual([false, false, false, true, false]);
    expect(rows[3]?.reasons).toContain('owner: read with low confidence');
  });

  it("trusts the security-type word most of the document's names end with, read exactly", () => {
    const faintLast = (text: string): CellReading => {
      const words = text.split(' ');
      return {
        ...cell(text),
        words: words.map((word, index) => ({
          text: word,
          confidence: index === words.length - 1 ? 0.6 : 0.96,
        })),
      };
    };
    const names = Array.from({ length: 8 }, () => 'METLIFE, INC. CMN');
    const typed = rowsOfScan(
      page(names.map((name) => houseRow(name, { asset: faintLast(name) }))),
      context.filedDate,
    );
    expect(typed.every((row) => !row.needs_review)).toBe(true);
    // Too few names to say what the column's usual last word is: the engine's doubt stands.
    const few = rowsOfScan(
      page(names.slice(0, 3).map((name) => houseRow(name, { asset: faintLast(name) }))),
      context.filedDate,
    );
    expect(few.every((row) => row.needs_review)).toBe(true);
  });

  it('still doubts an agreeing date that contradicts the notification date', () => {
    const rows = rowsOfScan(
      page(
        ['03/17/25', '03/17/25', '03/17/25'].map((date) =>
          houseRow('METLIFE, INC. CMN', { date: cell(date, 0.5) }),
        ),
      ),
      context.filedDate,
    );
    expect(rows[1]?.confidence.transaction_date).toBeLessThan(0.5);
    expect(rows[1]?.needs_review).toBe(true);
  });
});
