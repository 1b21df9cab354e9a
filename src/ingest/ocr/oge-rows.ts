// From what the reader saw on a scanned OGE 278-T (oge-form.ts) to trade rows with their
// confidences, judged as the House rows are (scanned-rows.ts): a field starts from the engine's
// confidence and is lowered by every check it fails; a row with any field below its review
// threshold waits for review. The 278-T types its values: a type is one of three words, an amount
// one of the fixed brackets written out, so a reading that lands exactly on one of them is two
// agreeing readings (the words differ in every letter, a bracket's two ends must both match).
import { type AmountBracket, formatBracket, STANDARD_BRACKETS } from '../../domain/amount.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';
import { assetField } from './asset-field.js';
import { judgeFormRows } from './document-votes.js';
import type { CellReading } from './house-page.js';
import { checkDates, type DateField, dateField, type Field } from './judged-fields.js';
import type { Lexicon } from './lexicon.js';
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
/** A description whose words fail the checks below. */
const DOUBTFUL_DESCRIPTION = 0.5;
/** What a word with digits keeps of the engine's confidence: no list checks a coupon or a year. */
const DIGIT_WORD = 0.9;
const MONTHS: ReadonlySet<string> = new Set([
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
]);

export function ogeRowsOfScan(
  pages: ReadonlyArray<{ number: number; form: { rows: OgeRow[] } }>,
  filedDate: string | null,
  lexicon?: Lexicon,
): ScannedRow[] {
  return judgeFormRows(pages, (read, page, row, neighbours) =>
    ogeRow(read, page, row, filedDate, lexicon, neighbours),
  );
}

export function ogeRow(
  read: OgeRow,
  page: number,
  row: number,
  filedDate: string | null,
  lexicon?: Lexicon,
  /** The transaction date this row and two neighbouring rows read alike (transactionNeighbours). */
  neighbours: { value: string; confidence: number } | null = null,
): ScannedRow {
  const asset = descriptionField(read.description, lexicon);
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

/**
 * The description's confidence: its least sure word's (a word with digits keeps less of it: a
 * coupon, a maturity or a year misread passes every list), lowered when the cells read at several
 * scales disagreed. The names on a 278-T are mostly bonds ("... B/E 5.00 % Due Sep 1, 2026"):
 * their maturity must read as "Due", a month and a day with its comma, which catches a scan's
 * closed "e" ("Duo", "Sop") and a comma read as a point ("1."); the maturity as the form types it
 * is proposed to the reviewer (maturityOf). Other words are not corrected by the lexicon here: a
 * bond's abbreviations ("CLLG", "SPLY") are one confusion from other words, and nothing tells
 * which was typed; a word the lexicon would correct is doubtful.
 */
export function descriptionField(
  cell: CellReading,
  lexicon: Lexicon | undefined,
): Field<string> & { ticker: string; tickerConfidence: number } {
  const words = (cell.words ?? []).map((word) => ({
    text: word.text,
    confidence: /\d/.test(word.text) ? word.confidence * DIGIT_WORD : word.confidence,
  }));
  const field = assetField({ ...cell, words }, 1, undefined, null);
  const doubts: string[] = [];
  const texts = words.map((word) => word.text);
  let value = field.value;
  for (let index = 0; index < texts.length; index++) {
    const maturity = maturityOf(texts.slice(index, index + 4));
    if (!maturity) continue;
    doubts.push(...maturity.doubts);
    if (maturity.written !== maturity.read && value.includes(maturity.read))
      value = value.replace(maturity.read, maturity.written);
  }
  for (const text of texts) {
    const verdict = lexicon?.check(text);
    if (verdict?.kind === 'corrected') doubts.push(`"${text}" (${verdict.word}?)`);
  }
  if (doubts.length === 0) return field;
  return {
    ...field,
    value,
    confidence: Math.min(field.confidence, DOUBTFUL_DESCRIPTION),
    tickerConfidence: Math.min(field.tickerConfidence, DOUBTFUL_DESCRIPTION),
    why: `doubtful: ${doubts.join(', ')}${value !== field.value ? ` (proposed: "${value}")` : ''}`,
  };
}

/**
 * A bond's maturity as read ("Duo Sop 1. 2026": four words from a "Due"-like word on) and as the
 * form types it ("Due Sep 1, 2026"), with what in it is doubtful; null when the words are no
 * maturity. Its grammar is fixed, so a misread word has one right reading where it is one letter
 * from a single month (a closed "e": "Sop", "Doc"; "Auq") or from "Due"; "Jen" (Jan or Jun?) is
 * left as read. The row stays doubtful either way: the reviewer gets the proposal, not a verdict.
 */
function maturityOf(words: readonly string[]): { read: string; written: string; doubts: string[] } | null {
  const [due = '', month = '', day = '', year = ''] = words;
  if (!/^d[uo][eoa]$/i.test(due) || !/^[a-z]{3}\.?$/i.test(month)) return null;
  const doubts: string[] = [];
  const caps = due === due.toUpperCase();
  if (!/^due$/i.test(due)) doubts.push(`"${due}" (Due?)`);
  const bare = month.replace('.', '').toLowerCase();
  const known = MONTHS.has(bare);
  if (!known) doubts.push(`"${month}" (a month?)`);
  const near = known ? [] : [...MONTHS].filter((name) => editDistance(bare, name) === 1);
  const named = near.length === 1 ? near[0] : undefined;
  // "Sep 1, 2026": a day read without its comma before the year ("1.", "1") is a misread.
  const dated = /^\d{4}$/.test(year);
  if (dated && !/^\d{1,2},$/.test(day)) doubts.push(`"${day}" (a day and its comma?)`);
  const fixedDay = dated && /^\d{1,2}[.]?$/.test(day) ? `${day.replace('.', '')},` : day;
  // The words read from "Due" on: up to the year, or as many of three as the name has.
  const count = dated ? 4 : Math.min(words.length, 3);
  const read = words.slice(0, count).join(' ');
  const written = [
    /^due$/i.test(due) ? due : caps ? 'DUE' : 'Due',
    named ? (caps ? named.toUpperCase() : named.charAt(0).toUpperCase() + named.slice(1)) : month,
    fixedDay,
    year,
  ]
    .slice(0, count)
    .join(' ');
  return { read, written, doubts };
}

export function typeField(cell: CellReading): Field<TradeKind | null> {
  if (!cell.inked) return { value: null, confidence: 0, why: 'no transaction type written' };
  // The longest run of letters: a rule's remnant or a speck reads as a stray "1" or "L".
  const word =
    cell.text
      .toLowerCase()
      .split(/[^a-z]+/)
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const distances = TYPES.map((type) => ({ type, distance: editDistance(word, type) })).sort(
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

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j] ?? 0;
      row[j] = Math.min(kept + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length] ?? 0;
}
