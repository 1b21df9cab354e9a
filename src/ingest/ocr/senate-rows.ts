// From what the reader saw on a Senate paper PTR (senate-form.ts) to trade rows with their
// confidences, by the rules of the House rows (scanned-rows.ts): boxes by their ink, dates by the
// engine and their neighbours, asset names against the lexicon. The form names the owner in words
// (Self, Spouse, Joint, Dependent Child): a misread would have to change most of a word's letters
// to land on another, so one read exactly is taken as sure. The form has no notification date.
import { AMOUNT_LETTERS } from '../../domain/amount.js';
import { normalizeOwner, type Owner } from '../../domain/owner.js';
import { NO_TICKER } from '../../domain/ticker.js';
import { assetField } from './asset-field.js';
import { judgeFormRows } from './document-votes.js';
import type { CellReading } from './house-page.js';
import {
  amountField,
  checkDates,
  type DateField,
  dateField,
  type Field,
  typeField,
} from './judged-fields.js';
import type { Lexicon } from './lexicon.js';
import {
  belowThreshold,
  judgedColumns,
  judgeRow,
  reviewReasons,
  roundAll,
  type ScannedRow,
} from './scanned-rows.js';
import { SENATE_TYPE_ROLES, type SenateRow } from './senate-form.js';

/** An owner word read exactly. */
const EXACT_OWNER = 0.9;

export function senateRowsOfScan(
  pages: ReadonlyArray<{ number: number; form: { rows: SenateRow[] } }>,
  filedDate: string | null,
  lexicon?: Lexicon,
): ScannedRow[] {
  return judgeFormRows(pages, (read, page, row, neighbours) =>
    senateRow(read, page, row, filedDate, lexicon, neighbours),
  );
}

function senateRow(
  read: SenateRow,
  page: number,
  row: number,
  filedDate: string | null,
  lexicon: Lexicon | undefined,
  neighbours: { value: string; confidence: number } | null,
): ScannedRow {
  const owner = ownerWord(read.owner);
  const asset = assetField(read.asset, 1, lexicon, null);
  const ticker = read.ticker
    ? tickerField(read.ticker)
    : { value: asset.ticker, confidence: asset.tickerConfidence };
  const transaction = dateField(read.date, 'transaction date', neighbours);
  const notification: DateField = { value: null, confidence: 1, why: null, label: 'notification date' };
  checkDates(transaction, notification, filedDate);
  const kind = typeField(read.types, SENATE_TYPE_ROLES);
  const amount = amountField(read.amounts);
  const { confidence, reasons } = judgeRow({ owner, asset, transaction, notification, kind, amount, ticker });
  reviewReasons(confidence, [['ticker', null]], reasons);
  Object.assign(confidence, roundAll(confidence));
  return {
    page,
    row,
    region: read.region,
    owner: owner.value,
    asset_description: asset.value,
    ticker: ticker.value,
    ...judgedColumns({ kind, amount, transaction, notification }),
    subholding_of: null,
    comment: null,
    confidence,
    needs_review: belowThreshold(confidence),
    reasons,
    read: {
      owner: read.owner.text,
      asset: read.asset.text,
      transaction_date: read.date.text,
      notification_date: '',
      types: read.types.marked.map((index) => SENATE_TYPE_ROLES[index] ?? '?').join(', '),
      amounts: read.amounts.marked.map((index) => AMOUNT_LETTERS[index] ?? '?').join(', '),
    },
  };
}

function ownerWord(cell: CellReading): Field<Owner | null> {
  if (!cell.inked) return { value: null, confidence: 0, why: 'no owner written' };
  const text = cell.text
    .replace(/[^A-Za-z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const value = normalizeOwner(text);
  if (!value) return { value: null, confidence: 0, why: `owner "${cell.text}" is no owner` };
  // Only an exact word (or code) is an owner: a misread lands on no other word but by chance.
  return { value, confidence: Math.max(cell.confidence, EXACT_OWNER), why: null };
}

function tickerField(cell: CellReading): { value: string; confidence: number } {
  const text = cell.text.trim().toUpperCase();
  if (!cell.inked || /^-+$/.test(text) || /^N\/?A$/.test(text)) return { value: NO_TICKER, confidence: 1 };
  return { value: text, confidence: /^[A-Z][A-Z.]{0,5}$/.test(text) ? cell.confidence : 0 };
}
