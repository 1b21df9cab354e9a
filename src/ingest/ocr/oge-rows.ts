// From what the reader saw on a scanned OGE 278-T (oge-form.ts) to trade rows with their
// confidences, judged as the House rows are (scanned-rows.ts): a field starts from the engine's
// confidence and is lowered by every check it fails; a row with any field below its review
// threshold waits for review. The 278-T types its values: a type is one of three words, an amount
// one of the fixed brackets written out, so a reading that lands exactly on one of them is two
// agreeing readings (the words differ in every letter, a bracket's two ends must both match).

import { distance } from 'fastest-levenshtein';
import { type AmountBracket, formatBracket, STANDARD_BRACKETS } from '../../domain/amount.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';
import { judgeFormRows } from './document-votes.js';
import type { CellReading } from './house-page.js';
import { checkDates, type DateField, dateField, type Field } from './judged-fields.js';
import type { Lexicon } from './lexicon.js';
import { descriptionField, wordsReadApart } from './oge-description.js';
import type { OgeRow } from './oge-form.js';
import {
  belowThreshold,
  judgedColumns,
  judgeRow,
  lowConfidence,
  REVIEW_THRESHOLD,
  roundAll,
  type ScannedRow,
} from './scanned-rows.js';

/** A value read exactly as one of the form's few printed choices. */
const EXACT_CHOICE = 0.9;
/** A type one or two letters from one word and far from the others: a misread of that word. */
const NEAR_CHOICE = 0.85;
/** A bracket only one of whose ends was read: a good guess, not a reading. */
const HALF_BRACKET = 0.6;
/** A Yes/No read by its telling letter ("Yos"), the rest misread. */
const ONE_LETTER = 0.85;
/** A page with more than this share of its rows doubted, and at least so many rows, reads poorly. */
const POOR_PAGE = { share: 0.5, minRows: 3 };

export function ogeRowsOfScan(
  pages: ReadonlyArray<{ number: number; form: { rows: OgeRow[] } }>,
  filedDate: string | null,
  lexicon?: Lexicon,
): ScannedRow[] {
  const readApart = wordsReadApart(pages.flatMap((page) => page.form.rows.map((row) => row.description)));
  return withPoorPagesFlagged(
    judgeFormRows(pages, (read, page, row, neighbours) =>
      ogeRow(read, page, row, filedDate, lexicon, neighbours, readApart),
    ),
  );
}

/**
 * A page most of whose rows the judge doubts reads poorly as a whole (a scan turned, blurred or
 * too coarse, a face the engine misreads): the few rows it is sure of there are read from the same
 * poor page, and the engine can be sure of a misread on it. Every row of such a page waits for a
 * person. A page of one or two rows says nothing of the kind.
 */
function withPoorPagesFlagged(rows: ScannedRow[]): ScannedRow[] {
  const doubted = new Map<number, { rows: number; flagged: number }>();
  for (const row of rows) {
    const page = doubted.get(row.page) ?? { rows: 0, flagged: 0 };
    page.rows++;
    if (row.needs_review) page.flagged++;
    doubted.set(row.page, page);
  }
  return rows.map((row) => {
    const page = doubted.get(row.page);
    if (
      row.needs_review ||
      !page ||
      page.rows < POOR_PAGE.minRows ||
      page.flagged <= page.rows * POOR_PAGE.share
    )
      return row;
    return {
      ...row,
      needs_review: true,
      reasons: [
        ...row.reasons,
        `${page.flagged} of the ${page.rows} rows of this page read doubtfully: the page reads poorly`,
      ],
    };
  });
}

export function ogeRow(
  read: OgeRow,
  page: number,
  row: number,
  filedDate: string | null,
  lexicon?: Lexicon,
  /** The transaction date this row and two neighbouring rows read alike (transactionNeighbours). */
  neighbours: { value: string; confidence: number } | null = null,
  /** Pairs of words the document's other descriptions read apart surely (wordsReadApart). */
  readApart: ReadonlySet<string> = new Set(),
): ScannedRow {
  const asset = descriptionField(read.description, lexicon, readApart);
  const ticker = read.ticker
    ? tickerField(read.ticker)
    : { value: asset.ticker, confidence: asset.tickerConfidence };
  const transaction = dateField(read.date, 'transaction date', neighbours);
  const late = lateField(read.late);
  const kind = typeField(read.type);
  const amount = amountField(read.amount);
  // The form has no notification date, only whether it came over 30 days late: that answer is
  // this row's notification field, and its date is not on the form to contradict the others.
  const notification: DateField = {
    value: null,
    confidence: late.confidence,
    why: late.why,
    label: 'notification',
  };
  checkDates(transaction, notification, filedDate);
  // The 278-T has no owner column: the filer reports for the household, as the text parser reads it.
  const owner = { confidence: 1 };
  const { confidence, reasons } = judgeRow({ owner, asset, transaction, notification, kind, amount, ticker });
  if (confidence.ticker < REVIEW_THRESHOLD.ticker && !reasons.some((reason) => reason.startsWith('asset')))
    reasons.push(lowConfidence('ticker'));
  Object.assign(confidence, roundAll(confidence));
  return {
    page,
    row,
    region: read.region,
    owner: null,
    asset_description: asset.value,
    ticker: ticker.value,
    ...judgedColumns({ kind, amount, transaction, notification }),
    subholding_of: null,
    comment: null,
    late_notification: late.value,
    confidence,
    needs_review: belowThreshold(confidence),
    reasons,
    read: {
      owner: '',
      asset: read.description.text,
      transaction_date: read.date.text,
      notification_date: read.late?.text ?? '',
      types: read.type.text,
      amounts: read.amount.text,
    },
  };
}

const TYPES = ['purchase', 'sale', 'exchange'] as const;

export function typeField(cell: CellReading): Field<TradeKind | null> {
  if (!cell.inked) return { value: null, confidence: 0, why: 'no transaction type written' };
  // The longest run of letters: a rule's remnant or a speck reads as a stray "1" or "L".
  const word =
    cell.text
      .toLowerCase()
      .split(/[^a-z]+/)
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const distances = TYPES.map((type) => ({ type, distance: distance(word, type) })).sort(
    (a, b) => a.distance - b.distance,
  );
  const [best, next] = distances;
  if (!best || !next)
    return { value: null, confidence: 0, why: `type "${cell.text}" is no transaction type` };
  if (best.distance === 0) {
    return {
      value: normalizeTradeType(best.type),
      confidence: Math.max(cell.confidence, EXACT_CHOICE),
      why: null,
    };
  }
  if (best.distance <= 2 && next.distance >= best.distance + 4) {
    return {
      value: normalizeTradeType(best.type),
      confidence: Math.min(Math.max(cell.confidence, NEAR_CHOICE), NEAR_CHOICE),
      why: null,
    };
  }
  return { value: null, confidence: 0, why: `type "${cell.text}" is no transaction type` };
}

export function amountField(cell: CellReading): Field<AmountBracket | null> {
  if (!cell.inked) return { value: null, confidence: 0, why: 'no amount written' };
  const numbers = (cell.text.match(/\d[\d,.]*/g) ?? []).map((token) => Number(token.replace(/[,.]/g, '')));
  const over = /over/i.test(cell.text);
  for (const [low, high] of STANDARD_BRACKETS) {
    const sure = Math.max(cell.confidence, EXACT_CHOICE);
    if (high === null) {
      if (over && numbers.includes(low - 1))
        return { value: bracketOf(low, high), confidence: sure, why: null };
      continue;
    }
    const at = numbers.indexOf(low);
    if (at >= 0 && numbers[at + 1] === high)
      return { value: bracketOf(low, high), confidence: sure, why: null };
  }
  for (const [low, high] of STANDARD_BRACKETS) {
    if (numbers.includes(low) || (high !== null && numbers.includes(high))) {
      return {
        value: bracketOf(low, high),
        confidence: Math.min(cell.confidence, HALF_BRACKET),
        why: `amount "${cell.text}": only one end of the bracket read`,
      };
    }
  }
  return { value: null, confidence: 0, why: `amount "${cell.text}" is no bracket` };
}

function bracketOf(low: number, high: number | null): AmountBracket {
  return { range: formatBracket(low, high), low, high };
}

function lateField(cell: CellReading | null): Field<boolean | null> {
  if (!cell) return { value: null, confidence: 1, why: null };
  if (!cell.inked) return { value: null, confidence: 0, why: 'no answer to "received over 30 days ago"' };
  const letters = cell.text.toLowerCase().replace(/[^a-z]/g, '');
  // "Yes" and "No" share no letter: all of one read is two agreeing readings, and a short reading
  // that holds the "y" and no "n" (or the "n" and no "y") can only be the one answer misread.
  if (letters === 'yes' || letters === 'no')
    return { value: letters === 'yes', confidence: Math.max(cell.confidence, EXACT_CHOICE), why: null };
  const yes = letters.includes('y');
  const no = letters.includes('n');
  if (yes !== no && letters.length >= 2 && letters.length <= 3)
    return { value: yes, confidence: ONE_LETTER, why: null };
  return { value: null, confidence: 0, why: `"received over 30 days ago" read as "${cell.text}"` };
}

function tickerField(cell: CellReading): { value: string; confidence: number } {
  const text = cell.text.trim().toUpperCase();
  if (!cell.inked || text === '' || /^N\/?A$/.test(text))
    return { value: 'N/A', confidence: cell.inked ? cell.confidence : 1 };
  return { value: text, confidence: /^[A-Z.]{1,6}$/.test(text) ? cell.confidence : 0 };
}
