// Constructed readings of OGE 278-T cells (what the engine might return) through the row judge:
// the typed choices, the brackets written out, and the checks that flag a misread.
import { describe, expect, it } from 'vitest';
import type { CellReading } from './house-page.js';
import { columnOfHeader, namedColumns, type OgeRow } from './oge-form.js';
import { amountField, ogeRowsOfScan, typeField } from './oge-rows.js';
import { REVIEW_THRESHOLD } from './scanned-rows.js';

function cell(text: string, confidence = 0.95): CellReading {
  return {
    text,
    confidence,
    inked: text !== '',
    agreement: 1,
    words: text
      .split(' ')
      .filter((word) => word !== '')
      .map((word) => ({ text: word, confidence })),
  };
}

function row(
  values: Partial<Record<'description' | 'type' | 'date' | 'late' | 'amount', CellReading>>,
): OgeRow {
  return {
    order: 1,
    region: { x: 0, y: 0, width: 10, height: 10 },
    number: cell('1'),
    description: values.description ?? cell('SPRINGFIELD MO SPL OBLIG IMPT REV B/E 5.00 % Due Nov 1, 2026'),
    ticker: null,
    type: values.type ?? cell('purchase'),
    date: values.date ?? cell('10/15/2025'),
    late: values.late ?? cell('No'),
    amount: values.amount ?? cell('$50,001 - $100,000'),
  };
}

const judge = (rows: OgeRow[], filed = '2025-11-14') => ogeRowsOfScan([{ number: 2, form: { rows } }], filed);

describe('OGE 278-T rows read by OCR', () => {
  it('serves a row read cleanly, with the form having no owner or notification date', () => {
    const [read] = judge([row({})]);
    expect(read).toMatchObject({
      page: 2,
      row: 1,
      owner: null,
      asset_description: 'SPRINGFIELD MO SPL OBLIG IMPT REV B/E 5.00 % Due Nov 1, 2026',
      ticker: 'N/A',
      trade_type: 'Buy',
      transaction_date: '2025-10-15',
      notification_date: null,
      late_notification: false,
      amount: { range: '$50,001 - $100,000', low: 50_001, high: 100_000 },
      needs_review: false,
      reasons: [],
    });
  });

  it('takes one of the three types read exactly, or one or two letters off and far from the others', () => {
    expect(typeField(cell('purchase', 0.2))).toMatchObject({ value: { label: 'Buy' }, confidence: 0.9 });
    expect(typeField(cell('L purchaso', 0.3))).toMatchObject({ value: { label: 'Buy' }, confidence: 0.85 });
    expect(typeField(cell('Sale'))).toMatchObject({ value: { label: 'Sell' } });
    expect(typeField(cell('[md'))).toMatchObject({ value: null, confidence: 0 });
    expect(typeField(cell(''))).toMatchObject({ value: null, why: 'no transaction type written' });
  });

  it('takes a bracket only when both its ends were read, and doubts one read by a single end', () => {
    expect(amountField(cell('1$100,001 $250000', 0.1))).toMatchObject({
      value: { range: '$100,001 - $250,000' },
      confidence: 0.9,
    });
    expect(amountField(cell('Over $50,000,000', 0.5)).value?.range).toBe('Over $50,000,000');
    const half = amountField(cell('ro $250,000'));
    expect(half.confidence).toBeLessThan(REVIEW_THRESHOLD.amount_range);
    expect(half.why).toMatch(/only one end/);
    expect(amountField(cell('$123,456 - $7'))).toMatchObject({ value: null, confidence: 0 });
  });

  it('flags every row of a page most of whose rows it doubts, and only of such a page', () => {
    const doubtful = () =>
      row({ description: cell('SPRINGFIELD MO SPL OBLIG IMPT REV B/E 5.00 % Due Nov 1, 2026', 0.5) });
    const poor = judge([doubtful(), doubtful(), row({}), doubtful()]);
    expect(poor.map((read) => read.needs_review)).toEqual([true, true, true, true]);
    expect(poor[2]?.reasons).toEqual(['3 of the 4 rows of this page read doubtfully: the page reads poorly']);
    // Half of them doubted is not most.
    const fair = judge([doubtful(), row({}), row({}), doubtful()]);
    expect(fair.map((read) => read.needs_review)).toEqual([true, false, false, true]);
    // Two rows are too few to judge a page by.
    expect(judge([doubtful(), row({})]).map((read) => read.needs_review)).toEqual([true, false]);
  });

  it('reads Yes/No by its telling letter, and flags an answer it cannot tell', () => {
    // Each judged alone: two doubted rows of three would make their page read poorly.
    const rows = [
      row({ late: cell('Yos', 0.3) }),
      row({ late: cell('Ce') }),
      row({ late: cell('') }),
    ].flatMap((one) => judge([one]));
    expect(rows.map((read) => [read.late_notification, read.needs_review])).toEqual([
      [true, false],
      [null, true],
      [null, true],
    ]);
    expect(rows[1]?.reasons).toContain('notification_date: "received over 30 days ago" read as "Ce"');
  });

  it('doubts a transaction after the filing, and trusts a date its neighbours read alike', () => {
    const late = judge([row({ date: cell('12/15/2025') })]);
    expect(late[0]?.reasons).toContain('transaction_date: transaction date after the filing date');
    const unsure = judge([0, 1, 2].map(() => row({ date: cell('10/2/2025', 0.4) })));
    expect(unsure.map((read) => read.confidence.transaction_date)).toEqual([0.9, 0.9, 0.9]);
    const alone = judge([row({ date: cell('10/2/2025', 0.4) })]);
    expect(alone[0]?.needs_review).toBe(true);
  });

  it('names the columns by their header text, letters lost at a rule included', () => {
    expect(
      ['', 'lescription', 'Type', 'ate', 'Notification Recoived Over 30 Days Ago', 'Amount'].map(
        (header, index) => columnOfHeader(header.toLowerCase(), index),
      ),
    ).toEqual(['number', 'description', 'type', 'date', 'late', 'amount']);
  });

  it('names a header read one letter off, or read as nothing where one column alone fits', () => {
    const named = (headers: string[]) =>
      Object.fromEntries(
        [...namedColumns(headers.map((header) => header.toLowerCase()))].map(([c, i]) => [i, c]),
      );
    // A page read at 80% of its resolution lost "Date" at its rule; a crisper one read "Typo".
    expect(
      named(['', 'lescription', 'Type', '', 'Notification Recoived Over 30 Days Ago', 'Amount']),
    ).toEqual({
      0: 'number',
      1: 'description',
      2: 'type',
      3: 'date',
      4: 'late',
      5: 'amount',
    });
    expect(
      named(['', 'escription', 'Typo|', 'ate', 'Notification Recolved Over 30 Days Ago', 'Amount'])[2],
    ).toBe('type');
    // Between the description and the date a version may print a ticker, an EIF column or the type.
    expect(named(['', 'Description', '', 'Date', 'Notification', 'Amount'])[2]).toBeUndefined();
    // Between the type and the amount, the date or the notification column.
    expect(named(['', 'Description', 'Type', '', 'Amount'])[3]).toBeUndefined();
    // "Days" is two letters from "date": not a date.
    expect(columnOfHeader('30 days', 3)).toBe('late');
    expect(columnOfHeader('dayz', 3)).toBeNull();
  });
});
