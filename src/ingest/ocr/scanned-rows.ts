// From what the form reader saw to trade rows: each field's value and how sure we are of it.
// A field's confidence starts from the evidence (the engine's word confidences for text, the
// agreement of differently prepared reads for dates, the contrast of the ink for marks) and is
// lowered by every check the value fails (a date that needed repairs, a transaction after its
// notification, two boxes ticked). The review threshold over these numbers is calibrated on the
// real scans (ACCURACY.md).
import { AMOUNT_COLUMNS, AMOUNT_LETTERS, type AmountBracket, parseAmountRange } from '../../domain/amount.js';
import { daysBetween } from '../../domain/dates.js';
import { normalizeOwner, type Owner } from '../../domain/owner.js';
import { NO_TICKER } from '../../domain/ticker.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';
import { splitTicker } from '../sources/asset-text.js';
import type { Rect } from './bitmap.js';
import { BLANK_SURE, FILLED_INK, MARK_INK, MARK_SURE, type MarkReading } from './cell-ink.js';
import type { TypeRole } from './house-columns.js';
import type { CellReading, HouseRow } from './house-page.js';
import type { IssuerNames } from './issuer-names.js';
import { type Lexicon, SECURITY_WORDS } from './lexicon.js';
import { readOwnerCode, readScannedDate, type ScannedDate, tidyAssetText } from './scanned-fields.js';

export const CONFIDENCE_FIELDS = [
  'transaction_date',
  'notification_date',
  'owner',
  'trade_type',
  'amount_range',
  'asset_description',
  'ticker',
] as const;

export type ConfidenceField = (typeof CONFIDENCE_FIELDS)[number];

export type FieldConfidence = Record<ConfidenceField, number>;

/**
 * Below this a field is not served as read: its row waits for review. Calibrated on the real
 * scans so that no row with a wrong key field stays above it (ACCURACY.md, `npm run accuracy`).
 */
export const REVIEW_THRESHOLD: FieldConfidence = {
  transaction_date: 0.85,
  notification_date: 0.85,
  owner: 0.8,
  trade_type: 0.8,
  amount_range: 0.8,
  asset_description: 0.8,
  ticker: 0.8,
};

export interface ScannedRow {
  page: number;
  /** Row number within the document, 1-based. */
  row: number;
  region: Rect;
  owner: Owner | null;
  asset_description: string;
  ticker: string;
  trade_type: string | null;
  trade_action: string | null;
  amount: AmountBracket | null;
  /** The amount column marked, "A".."K". */
  amount_column: string | null;
  transaction_date: string | null;
  notification_date: string | null;
  subholding_of: string | null;
  /** Filer marks that are no field of ours (cap gains over $200), kept as a comment. */
  comment: string | null;
  confidence: FieldConfidence;
  needs_review: boolean;
  /** Why the row needs review, one reason per doubtful field. */
  reasons: string[];
  /** Notification received over 30 days after the transaction, where the form asks (OGE 278-T). */
  late_notification?: boolean | null;
  /** What the engine read, as read, for the reviewer. */
  read: {
    owner: string;
    asset: string;
    transaction_date: string;
    notification_date: string;
    types: string;
    amounts: string;
  };
}

export interface RowContext {
  page: number;
  row: number;
  /** The filing's date, when known: dates after it (or long before it) are doubtful. */
  filedDate: string | null;
  /** The role of each type column, in order. */
  typeRoles: readonly TypeRole[];
  /** Words to check asset names against; without it names are taken as read. */
  lexicon?: Lexicon;
  /** What the rows whose owner cells look like this one's agree it says (rowsOfScan). */
  ownerConsensus?: { code: 'SP' | 'DC' | 'JT'; confidence: number } | null;
  /** The notification date most of the document's rows read, and how sure that makes it (rowsOfScan). */
  notificationConsensus?: { value: string; confidence: number } | null;
  /** The word most of the document's asset names end with (usualAssetSuffix). */
  usualSuffix?: string | null;
  /** The transaction date this row and two neighbouring rows read alike (transactionNeighbours). */
  transactionNeighbours?: { value: string; confidence: number } | null;
  /**
   * Per mark column, the ink share from which a mark is as clear as a mark in that column gets
   * (typed marks of one column look alike on a page: columnMarkSure); absent, MARK_SURE.
   */
  markSure?: { types: readonly number[]; amounts: readonly number[] };
  /** Why this page's type columns are not to be trusted (they differ from the document's other pages). */
  columnsDoubt?: string | null;
}

/** The reason a field with no other doubt gives when its confidence is below its threshold. */
export const lowConfidence = (field: ConfidenceField) => `${field}: read with low confidence`;

/** Whether any field is below its review threshold: the row then waits for review. */
export function belowThreshold(confidence: FieldConfidence): boolean {
  return CONFIDENCE_FIELDS.some((field) => confidence[field] < REVIEW_THRESHOLD[field]);
}

/**
 * Why a row waits for review, added to `reasons`: each field's own doubt when it has one, else a
 * confidence under the field's threshold (every form's rows are judged alike).
 */
export function reviewReasons(
  confidence: FieldConfidence,
  doubts: ReadonlyArray<readonly [ConfidenceField, string | null | undefined]>,
  reasons: string[] = [],
): string[] {
  for (const [field, why] of doubts) {
    if (why) reasons.push(`${field}: ${why}`);
    else if (confidence[field] < REVIEW_THRESHOLD[field]) reasons.push(lowConfidence(field));
  }
  return reasons;
}

/** What a reader concluded about one field of a row: how sure, and why it doubts, if it does. */
interface Judged {
  confidence: number;
  why?: string | null;
}

/**
 * A row's confidences, one per field, from what each of its fields' readings concluded, and the
 * reasons a person must look at it (added to `reasons`). The ticker's doubt is left to the form's
 * reader: the forms differ on whether a ticker is written or comes from the asset's name.
 */
export function judgeRow(
  fields: Record<'owner' | 'asset' | 'transaction' | 'notification' | 'kind' | 'amount' | 'ticker', Judged>,
  reasons: string[] = [],
): { confidence: FieldConfidence; reasons: string[] } {
  const confidence: FieldConfidence = {
    transaction_date: fields.transaction.confidence,
    notification_date: fields.notification.confidence,
    owner: fields.owner.confidence,
    trade_type: fields.kind.confidence,
    amount_range: fields.amount.confidence,
    asset_description: fields.asset.confidence,
    ticker: fields.ticker.confidence,
  };
  reviewReasons(
    confidence,
    [
      ['owner', fields.owner.why],
      ['asset_description', fields.asset.why],
      ['transaction_date', fields.transaction.why],
      ['notification_date', fields.notification.why],
      ['trade_type', fields.kind.why],
      ['amount_range', fields.amount.why],
    ],
    reasons,
  );
  return { confidence, reasons };
}

/**
 * The columns a row takes from its judged type, amount and dates, filled alike on every form; a
 * form without amount columns (the 278-T writes its bracket out) names none.
 */
export function judgedColumns(fields: {
  kind: Field<TradeKind | null>;
  amount: Field<AmountBracket | null> & { column?: string | null };
  transaction: DateField;
  notification: DateField;
}): Pick<
  ScannedRow,
  'trade_type' | 'trade_action' | 'amount' | 'amount_column' | 'transaction_date' | 'notification_date'
> {
  return {
    trade_type: fields.kind.value?.label ?? null,
    trade_action: fields.kind.value?.action ?? null,
    amount: fields.amount.value,
    amount_column: fields.amount.column ?? null,
    transaction_date: fields.transaction.value,
    notification_date: fields.notification.value,
  };
}

export function scannedRow(house: HouseRow, context: RowContext): ScannedRow {
  const reasons: string[] = [];
  const owner = ownerField(house.owner, context.ownerConsensus ?? null);
  const asset = assetField(house.asset, house.assetLines, context.lexicon, context.usualSuffix ?? null);
  const transaction = dateField(
    house.date,
    'transaction date',
    context.transactionNeighbours,
    context.filedDate,
  );
  const notification = dateField(
    house.notification,
    'notification date',
    context.notificationConsensus,
    context.filedDate,
  );
  const kind = typeField(withSure(house.types, context.markSure?.types), context.typeRoles);
  const amount = amountField(withSure(house.amounts, context.markSure?.amounts));
  if (context.columnsDoubt) {
    for (const field of [kind, amount]) {
      field.confidence = Math.min(field.confidence, COLUMNS_DOUBT);
      field.why ??= context.columnsDoubt;
    }
  }
  checkDates(transaction, notification, context.filedDate);
  const ticker = { confidence: asset.tickerConfidence };
  const { confidence } = judgeRow({ owner, asset, transaction, notification, kind, amount, ticker }, reasons);
  if (house.notes.length > 0 && confidence.asset_description >= REVIEW_THRESHOLD.asset_description) {
    confidence.asset_description = Math.min(
      confidence.asset_description,
      REVIEW_THRESHOLD.asset_description - 0.01,
    );
    reasons.push(`asset_description: ${house.notes.join('; ')}`);
  }
  const needsReview = belowThreshold(confidence);
  return {
    page: context.page,
    row: context.row,
    region: house.region,
    owner: owner.value,
    asset_description: asset.value,
    ticker: asset.ticker,
    ...judgedColumns({ kind, amount, transaction, notification }),
    subholding_of: house.heading,
    comment: kind.capGains ? 'Capital gains over $200' : null,
    confidence: roundAll(confidence),
    needs_review: needsReview,
    reasons,
    read: {
      owner: house.owner.text,
      asset: house.asset.text,
      transaction_date: house.date.text,
      notification_date: house.notification.text,
      types: describeMarks(
        house.types,
        context.typeRoles.map((role) => role),
      ),
      amounts: describeMarks(house.amounts, AMOUNT_LETTERS.split('')),
    },
  };
}

export interface Field<T> {
  value: T;
  confidence: number;
  why: string | null;
}

export function ownerField(
  cell: CellReading,
  consensus: { code: 'SP' | 'DC' | 'JT'; confidence: number } | null,
): Field<Owner | null> {
  if (!cell.inked) return { value: 'Self', confidence: 0.97, why: null };
  if (consensus)
    return { value: normalizeOwner(consensus.code, true), confidence: consensus.confidence, why: null };
  const code = readOwnerCode(cell.text);
  if (code === null) return { value: null, confidence: 0, why: `owner "${cell.text}" is no owner code` };
  const value = normalizeOwner(code.code, true);
  // The three codes differ in both letters and each letter alone names its code: two letters
  // read that name the same code are two agreeing readings, whatever the engine made of the
  // pair as a word ("SP" at 0.0).
  // A repaired code whose two letters both name it, one exactly as printed and the other by a
  // known lookalike ("oc", "bc" for DC), is two agreeing readings too, one of them bent: a code
  // would have to be misread into a lookalike of one letter AND the other letter of the same code.
  const confidence = code.repaired
    ? code.bothLetters
      ? Math.max(Math.min(0.6, cell.confidence), BOTH_LETTERS_REPAIRED)
      : Math.min(0.6, cell.confidence)
    : code.code === ''
      ? cell.confidence
      : Math.max(cell.confidence, CLEAN_CODE);
  return { value, confidence, why: null };
}

/** An owner code both of whose letters were read as that code's. */
const CLEAN_CODE = 0.9;
/** Both letters name the code, one of them through a known lookalike. */
const BOTH_LETTERS_REPAIRED = 0.85;

/** Type and amount marks on a page whose columns differ from the document's other pages. */
const COLUMNS_DOUBT = 0.5;

/** How much a split vote among the readings of a cell lowers its confidence. */
function agreementFactor(agreement: number | undefined): number {
  if (agreement === undefined || agreement >= 1) return 1;
  return agreement >= 0.6 ? 0.9 : 0.6;
}

export function assetField(
  cell: CellReading,
  lines: number,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
): Field<string> & { ticker: string; tickerConfidence: number } {
  const checked = checkWords(cell, lexicon, usualSuffix);
  const text = tidyAssetText(checked.text);
  if (text === '')
    return { value: '', confidence: 0, why: 'no asset name read', ticker: NO_TICKER, tickerConfidence: 0 };
  const { ticker, rest } = splitTicker(text);
  // A name over two lines is read as two pieces: their join may lose or double a word.
  // A split vote costs a name with a doubt of its own, or one no lexicon checked: the readings
  // often split over the very stop or letter the doubt is about. A name every word of which
  // passed the lexicon's checks, read alike at two of three scales, is judged by its words'
  // confidences alone: the engine scores a word it misread low, and on the House scans such
  // names were never wrong with every word scored 0.75 or more.
  const majority = lexicon !== undefined && checked.doubts.length === 0 && (cell.agreement ?? 1) >= 0.6;
  let confidence = checked.confidence * (majority ? 1 : agreementFactor(cell.agreement));
  if (lines > 1) confidence *= 0.97;
  const doubts = [...checked.doubts];
  if (OPTION_TEXT.test(text) && confidence >= OPTION_CONFIDENCE) {
    // Option descriptions hang on small symbols ("PUT/XSP @ 555") the engine drops silently.
    confidence = OPTION_CONFIDENCE;
    doubts.push('an option description (its symbols are easily dropped)');
  }
  const why = doubts.length > 0 ? `doubtful: ${doubts.join(', ')}` : null;
  return { value: ticker === NO_TICKER ? text : rest, confidence, why, ticker, tickerConfidence: confidence };
}

/** A correction by the lexicon keeps at most this confidence: it is a good guess, not a reading. */
const CORRECTED_WORD = 0.9;
const OPTION_TEXT = /\b(PUT|CALL)\b/i;
const OPTION_CONFIDENCE = 0.75;

/** A word no list holds, when the lexicon has no issuer names to check it against. */
const UNCHECKED_WORD = 0.6;

/** Two listed words found run together: split, but not served as read. */
const SPLIT_WORD = 0.7;
/** A word run into a legal form or the usual security type, split before it. */
const SPLIT_BEFORE_FORM = 0.85;
const SPLIT_ONTO_FORM = (right: string, usualSuffix: string | null) =>
  LEGAL_FORMS.has(right) || right === usualSuffix;
/** A period after a whole word of five letters or more, inside a name. */
const DOUBTFUL_PUNCTUATION = 0.7;
const FULL_WORD = /^[A-Za-z]{5,}\.$/;
/** Abbreviated legal forms, written with a period. */
const LEGAL_FORMS: ReadonlySet<string> = new Set(['INC', 'CORP', 'CO', 'LTD', 'LLC', 'PLC', 'LP']);
/** Abbreviations end in a period of their own ("HLDGS."). */
const ABBREVIATIONS: ReadonlySet<string> = new Set(SECURITY_WORDS);
/** The last word most of a document's asset names end with, read exactly: see usualAssetSuffix. */
const USUAL_SUFFIX = 0.9;
/** A word near a listed one but not surely it is not served as read. */
const DOUBTFUL_WORD = 0.4;

/** One word of an asset name as checked: its text now, how sure, and the lexicon's doubt. */
interface CheckedWord {
  text: string;
  confidence: number;
  /** The lexicon doubted the word as read: the doubt, and the listed word it is near. */
  doubt: { why: string; near: string } | null;
}

/** The cell's words checked against the lexicon: misreads corrected, doubtful ones named. */
function checkWords(
  cell: CellReading,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
): { text: string; confidence: number; doubts: string[] } {
  const words = cell.words ?? cell.text.split(/\s+/).map((text) => ({ text, confidence: cell.confidence }));
  if (words.length === 0) return { text: '', confidence: 0, doubts: [] };
  const doubts: string[] = [];
  const checked: CheckedWord[] = [];
  for (const word of words) {
    const entry: CheckedWord = { text: word.text, confidence: word.confidence, doubt: null };
    checked.push(entry);
    // The security-type word most of the document's names end with ("CMN"), read exactly there.
    if (word === words[words.length - 1] && word.text === usualSuffix)
      entry.confidence = Math.max(entry.confidence, USUAL_SUFFIX);
    const verdict = lexicon?.check(word.text) ?? { kind: 'known' as const };
    const previous = checked[checked.length - 2]?.text.toUpperCase().replace(/[^A-Z]/g, '');
    if (/^(CLASS|CL|SERIES|SER)$/.test(previous ?? '') && /^[0158]$/.test(word.text)) {
      // A share class is a letter: "CLASS 8" is CLASS B.
      entry.text =
        ({ '0': 'O', '1': 'I', '5': 'S', '8': 'B' } as Record<string, string>)[word.text] ?? word.text;
      entry.confidence = Math.min(entry.confidence, CORRECTED_WORD - 0.1);
    } else if (verdict.kind === 'split' && SPLIT_ONTO_FORM(verdict.words[1], usualSuffix)) {
      // A name word run into a legal form or the document's security type ("VISAINC", "AONPLC",
      // "INCCMN"): the engine lost the space the filer's software prints before them.
      entry.text = word.text.replace(/[A-Za-z0-9&']+/, verdict.words.join(' '));
      entry.confidence = Math.min(entry.confidence, SPLIT_BEFORE_FORM);
    } else if (verdict.kind === 'split') {
      // A name of its own can also be two listed words run together ("PROSUS", "PROS US"): a
      // split is a guess a person confirms.
      entry.text = word.text.replace(/[A-Za-z0-9&']+/, verdict.words.join(' '));
      entry.confidence = Math.min(entry.confidence, SPLIT_WORD);
      doubts.push(`"${word.text}" (${verdict.words.join(' ')}?)`);
    } else if (verdict.kind === 'corrected' && lexicon?.knowsIssuers === false) {
      // Without issuer names "LINDE" is one confusion from an English word: nothing to correct by.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_WORD);
      doubts.push(`"${word.text}" (${verdict.word}?)`);
    } else if (
      verdict.kind === 'unknown' &&
      lexicon?.knowsIssuers === false &&
      /[A-Za-z]{4,}/.test(word.text)
    ) {
      // A word in no list may be an issuer's name or a misread of one ("METUFE"): unknown.
      entry.confidence = Math.min(entry.confidence, UNCHECKED_WORD);
      doubts.push(`"${word.text}" (in no word list)`);
    } else if (verdict.kind === 'corrected') {
      // Keep what surrounds the letters ("METUFE," becomes "METLIFE,").
      entry.text = word.text.replace(/[A-Za-z0-9&'](?:[A-Za-z0-9&'-]*[A-Za-z0-9&'])?/, verdict.word);
      entry.confidence = Math.min(entry.confidence, CORRECTED_WORD - verdict.cost / 4);
    } else if (verdict.kind === 'doubtful') {
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_WORD);
      entry.doubt = { why: `"${word.text}" (${verdict.near}?)`, near: verdict.near };
    } else if (
      lexicon?.knowsIssuers === false &&
      word === words[0] &&
      /^[A-Z]{3}$/.test(word.text) &&
      word.text !== 'THE' &&
      !ABBREVIATIONS.has(word.text)
    ) {
      // Three capitals leading a name are most often the issuer's acronym (CDW, PTC, NXP), which
      // only issuer names can check: an English word read there ("COW") may be a misread of one.
      entry.confidence = Math.min(entry.confidence, UNCHECKED_WORD);
      doubts.push(`"${word.text}" (an acronym no list holds?)`);
    }
  }
  settleUsualSuffix(checked, usualSuffix);
  if (lexicon?.issuers) settleByIssuer(checked, lexicon.issuers);
  let confidence = 1;
  checked.forEach((entry, index) => {
    const last = index === checked.length - 1;
    if (entry.doubt) doubts.push(entry.doubt.why);
    const { text } = entry;
    if (/^[A-Za-z]+,$/.test(text) && !last && LEGAL_FORMS.has(text.slice(0, -1).toUpperCase())) {
      // Legal forms are abbreviated with a period ("INC. CMN"); a comma after one inside a name
      // is the likelier misread, the mirror of the case below.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_PUNCTUATION);
      doubts.push(`"${text}" (period?)`);
    }
    if (
      text.endsWith('.') &&
      !last &&
      FULL_WORD.test(text) &&
      !ABBREVIATIONS.has(text.slice(0, -1).toUpperCase())
    ) {
      // A period and a comma differ by a few pixels; after a whole word ("FUNDING.") a comma
      // is the likelier, whatever the engine's confidence.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_PUNCTUATION);
      doubts.push(`"${text}" (comma?)`);
    }
    confidence = Math.min(confidence, entry.confidence);
  });
  return { text: checked.map((entry) => entry.text).join(' '), confidence, doubts };
}

/** A doubted word settled as the document's usual last word ("CMIN" for CMN). */
const USUAL_SUFFIX_SETTLED = 0.85;

/**
 * The last word, doubted by the lexicon as near the word most of the document's names end with
 * ("CMIN", near CMN), is that word: the filer's software prints it after every name, and the
 * lexicon's own nearest word lands on it.
 */
function settleUsualSuffix(checked: CheckedWord[], usualSuffix: string | null): void {
  const last = checked[checked.length - 1];
  if (!last?.doubt || usualSuffix === null || last.doubt.near !== usualSuffix) return;
  last.text = last.text.replace(/[A-Za-z0-9&']+/, usualSuffix);
  last.confidence = USUAL_SUFFIX_SETTLED;
  last.doubt = null;
}

/** `word` written in the case of `read`: "Mamt" settled as MGMT is "Mgmt". */
function inCaseOf(read: string, word: string): string {
  const letters = read.replace(/[^A-Za-z]/g, '');
  if (letters === letters.toLowerCase()) return word.toLowerCase();
  if (letters.slice(1) === letters.slice(1).toLowerCase())
    return (word[0] ?? '') + word.slice(1).toLowerCase();
  return word;
}

/** A doubted word the issuer's whole name settles, with no letter changed. */
const ISSUER_MATCH = 0.9;
/** What each letter the issuer's name changes costs a settled word's confidence. */
const ISSUER_EDIT_COST = 0.03;

/**
 * Doubted words settled by the one issuer name the whole name read begins with (issuer-names.ts):
 * each is replaced by the issuer's word, keeping a comma or period after it, at a confidence
 * that falls with the letters changed. Hyphenated words are matched part by part.
 */
function settleByIssuer(checked: CheckedWord[], issuers: IssuerNames): void {
  const parts: Array<{ entry: number; text: string }> = [];
  const doubted = new Set<number>();
  const suggested = new Map<number, string>();
  checked.forEach((entry, index) => {
    const pieces = entry.text.split('-').filter((piece) => piece !== '');
    for (const piece of pieces) {
      if (entry.doubt) {
        doubted.add(parts.length);
        if (pieces.length === 1) suggested.set(parts.length, entry.doubt.near);
      }
      parts.push({ entry: index, text: piece });
    }
  });
  const corrections = issuers.correct(
    parts.map((part) => part.text),
    doubted,
    suggested,
  );
  if (!corrections) return;
  const byEntry = new Map<number, number>();
  for (const correction of corrections) {
    const part = parts[correction.index];
    if (!part) continue;
    part.text = inCaseOf(part.text, correction.word) + (/[.,]$/.exec(part.text)?.[0] ?? '');
    byEntry.set(part.entry, Math.max(byEntry.get(part.entry) ?? 0, correction.edits));
  }
  for (const [index, edits] of byEntry) {
    const entry = checked[index];
    if (!entry) continue;
    entry.text = parts
      .filter((part) => part.entry === index)
      .map((part) => part.text)
      .join('-');
    entry.confidence = ISSUER_MATCH - ISSUER_EDIT_COST * edits;
    entry.doubt = null;
  }
}

export interface DateField extends Field<string | null> {
  label: string;
}

export function dateField(
  cell: CellReading,
  label: string,
  consensus?: { value: string; confidence: number } | null,
  filedDate: string | null = null,
): DateField {
  if (!cell.inked) return { value: null, confidence: 0, why: `no ${label} written`, label };
  const date = readScannedDate(cell.text);
  if (date.value === null)
    return { value: null, confidence: 0, why: `${label} "${cell.text}" is not a date`, label };
  const read = cell.confidence * agreementFactor(cell.agreement);
  let confidence = crossReadConfidence(date.repaired ? read * 0.6 : read, date, cell, filedDate);
  // A clean reading of the date other rows read too (most of the document's rows, or the rows
  // on either side): the engine's doubt about the digits is outweighed by the other readings (it
  // would have to misread into exactly that date).
  if (consensus && !date.repaired && date.value === consensus.value)
    confidence = Math.max(confidence, consensus.confidence);
  return { value: date.value, confidence, why: null, label };
}

/**
 * A date cell's confidence once its cross reads (the cell read again from differently prepared
 * images, house-form.ts) are heard. The engine's word confidence says little about a short run of
 * digits; independent preparations that come out with the same clean date do: a misread digit
 * would have to be misread alike from different pixels. So when every reading agrees (the first
 * readings unanimous, every cross read parsing cleanly to the same date) the date is taken at
 * CROSS_READS_AGREE at least; when a cross read gives another date or none it keeps at most
 * CROSS_READS_DIFFER, whatever the engine said. A split among the first readings is not outvoted
 * by agreeing cross reads: a digit misread at most scales was misread alike by them too. A date
 * the rows or the filing contradict is still doubted afterwards (checkDates), however the reads
 * agreed.
 */
export function crossReadConfidence(
  confidence: number,
  date: ScannedDate,
  cell: Pick<CellReading, 'agreement' | 'crossReads' | 'text'>,
  filedDate: string | null = null,
): number {
  const { crossReads, agreement } = cell;
  const value = date.value;
  if (crossReads === undefined || crossReads.length === 0 || value === null) return confidence;
  const same = (text: string) => {
    const other = readScannedDate(text);
    return other.value === value && !other.repaired;
  };
  const agree =
    crossReads.some(same) &&
    crossReads.every((text) => same(text) || onlyYearLost(text, cell.text, value, filedDate));
  if (!agree) return Math.min(confidence, CROSS_READS_DIFFER);
  const unanimous = agreement === undefined || agreement >= 1;
  return date.repaired || !unanimous ? confidence : Math.max(confidence, CROSS_READS_AGREE);
}

/**
 * A cross read that differs from the date only in its year, and there in a way the filing rules
 * out: a year digit lost at the cell's edge ("01/02/2" for 01/02/25), or a year the filing makes
 * impossible ("01/22/28" on a 2025 filing). Month and day, which nothing else checks, agree; the
 * year is checked against the filing and the other date afterwards (checkDates).
 */
function onlyYearLost(text: string, first: string, value: string, filedDate: string | null): boolean {
  const read = text.replace(/\s+/g, '');
  const printed = first.replace(/\s+/g, '');
  if (read.length >= printed.length - 2 && read.length < printed.length && printed.startsWith(read))
    return /^\d{1,2}[/\-.]\d{1,2}[/\-.]\d/.test(read);
  const other = readScannedDate(text).value;
  if (other === null || filedDate === null || other.slice(4) !== value.slice(4)) return false;
  return other > filedDate || daysBetween(other, filedDate) > 400;
}

/** A date every reading of its cell agrees on, from differently prepared images. */
const CROSS_READS_AGREE = 0.9;
/** A date a differently prepared image of its cell reads otherwise (or not at all). */
const CROSS_READS_DIFFER = 0.6;

/** Dates that contradict each other or the filing are doubtful, however clearly they were read. */
export function checkDates(transaction: DateField, notification: DateField, filedDate: string | null): void {
  const doubt = (field: DateField, why: string) => {
    field.confidence = Math.min(field.confidence, 0.3);
    field.why ??= why;
  };
  if (transaction.value && notification.value && transaction.value > notification.value) {
    doubt(transaction, 'transaction date after the notification date');
    doubt(notification, 'notification date before the transaction date');
  }
  if (filedDate) {
    for (const field of [transaction, notification]) {
      if (!field.value) continue;
      if (field.value > filedDate) doubt(field, `${field.label} after the filing date`);
      else if (daysBetween(field.value, filedDate) > 400)
        doubt(field, `${field.label} over a year before the filing`);
    }
  }
}

const TRADE_ROLES: ReadonlySet<TypeRole> = new Set(['purchase', 'sale', 'partial_sale', 'exchange']);

export function typeField(
  marks: MarkReading,
  roles: readonly TypeRole[],
): Field<TradeKind | null> & { capGains: boolean } {
  const marked = marks.marked.map((index) => roles[index] ?? 'unknown');
  const capGains = marked.includes('cap_gains');
  const kinds = marked.filter((role) => TRADE_ROLES.has(role));
  const partial = marked.includes('partial');
  if (kinds.length === 0) return { value: null, confidence: 0, why: 'no transaction type marked', capGains };
  if (kinds.length > 1)
    return { value: null, confidence: 0, why: `several types marked (${kinds.join(', ')})`, capGains };
  const role = kinds[0];
  const label =
    role === 'purchase'
      ? 'purchase'
      : role === 'exchange'
        ? 'exchange'
        : role === 'partial_sale' || partial
          ? 'partial sale'
          : 'sale';
  return { value: normalizeTradeType(label), confidence: marks.clarity, why: null, capGains };
}

export function amountField(marks: MarkReading): Field<AmountBracket | null> & { column: string | null } {
  if (marks.marked.length === 0)
    return { value: null, confidence: 0, why: 'no amount column marked', column: null };
  if (marks.marked.length > 1) {
    const letters = marks.marked.map((index) => AMOUNT_LETTERS[index] ?? '?').join(', ');
    return { value: null, confidence: 0, why: `several amount columns marked (${letters})`, column: null };
  }
  const index = marks.marked[0] ?? 0;
  const value = parseAmountRange(AMOUNT_COLUMNS[index] ?? '');
  return {
    value,
    confidence: value ? marks.clarity : 0,
    why: value ? null : 'unknown amount column',
    column: AMOUNT_LETTERS[index] ?? null,
  };
}

/**
 * The marks' clarity judged against each column's own sure share: a marked cell at or above it
 * is as clear as a mark in that column gets, one nearer the threshold less so (as judgeMarks).
 */
function withSure(marks: MarkReading, sure: readonly number[] | undefined): MarkReading {
  if (!sure) return marks;
  let clarity = 1;
  marks.shares.forEach((share, index) => {
    if (share >= FILLED_INK) return;
    const top = sure[index] ?? MARK_SURE;
    const value =
      share < MARK_INK
        ? Math.min(1, (MARK_INK - share) / (MARK_INK - BLANK_SURE))
        : Math.min(1, (share - MARK_INK) / (top - MARK_INK));
    clarity = Math.min(clarity, value);
  });
  return { ...marks, clarity };
}

function describeMarks(marks: MarkReading, names: readonly string[]): string {
  return marks.marked.map((index) => names[index] ?? `#${index + 1}`).join(', ');
}

/** Every confidence within [0, 1], to three decimals. */
export function roundAll(confidence: FieldConfidence): FieldConfidence {
  const out = { ...confidence };
  for (const field of CONFIDENCE_FIELDS)
    out[field] = Math.round(Math.max(0, Math.min(1, out[field])) * 1000) / 1000;
  return out;
}
