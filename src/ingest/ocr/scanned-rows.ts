// From what the form reader saw to trade rows: each field's value and how sure we are of it.
// A field's confidence starts from the evidence (the engine's word confidences for text, the
// agreement of differently prepared reads for dates, the contrast of the ink for marks) and is
// lowered by every check the value fails (a date that needed repairs, a transaction after its
// notification, two boxes ticked). The review threshold over these numbers is calibrated on the
// real scans (ACCURACY.md). Each field is judged in judged-fields.ts, the asset name in
// asset-field.ts; this assembles and reviews the row.
import { AMOUNT_LETTERS, type AmountBracket } from '../../domain/amount.js';
import type { Owner } from '../../domain/owner.js';
import type { TradeKind } from '../../domain/trade-type.js';
import { assetField } from './asset-field.js';
import type { Rect } from './bitmap.js';
import { BLANK_SURE, columnMarkSure, FILLED_INK, MARK_INK, type MarkReading } from './cell-ink.js';
import type { TypeRole } from './house-columns.js';
import type { HouseRow } from './house-page.js';
import {
  amountField,
  checkDates,
  type DateField,
  dateField,
  doubtByPrint,
  type Field,
  ownerField,
  settleByPrint,
  settleYear,
  typeField,
} from './judged-fields.js';
import type { Lexicon } from './lexicon.js';

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
  /** Names other rows read with the same letters but other stops or spaces (namesSpelledOtherwise). */
  namesSpelledOtherwise?: ReadonlySet<string>;
  /** The year most of the document's transaction dates read (usualTransactionYear). */
  usualYear?: string | null;
  /** The word most of the document's asset names end with (usualAssetSuffix). */
  usualSuffix?: string | null;
  /**
   * The transaction date other rows vouch for: this row and two neighbouring rows read it alike
   * (transactionNeighbours), or most readings of this cell give it and another row reads it
   * surely (transactionDatesReadSurelyElsewhere).
   */
  transactionNeighbours?: { value: string; confidence: number } | null;
  /** The transaction date the rows whose date cells print like this row's surely read (datePrintConsensus). */
  transactionPrint?: { value: string; confidence: number } | null;
  /** The same for the notification date. */
  notificationPrint?: { value: string; confidence: number } | null;
  /** Another date read from a transaction date cell on this page printed alike (datePrintContradictions). */
  transactionPrintAgainst?: string | null;
  /** The same for the notification date. */
  notificationPrintAgainst?: string | null;
  /**
   * Per mark column, the ink share of its typical typed mark, null where the marks do not look
   * typed (typed marks of one column look alike on a page: columnTypedMarks); absent, none.
   */
  typedMarks?: { types: ReadonlyArray<number | null>; amounts: ReadonlyArray<number | null> };
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
  const asset = assetField(
    house.asset,
    house.assetLines,
    context.lexicon,
    context.usualSuffix ?? null,
    context.namesSpelledOtherwise,
  );
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
  const kind = typeField(withTypedMarks(house.types, context.typedMarks?.types), context.typeRoles);
  const amount = amountField(withTypedMarks(house.amounts, context.typedMarks?.amounts));
  settleByPrint(transaction, context.transactionPrint);
  settleByPrint(notification, context.notificationPrint);
  doubtByPrint(transaction, context.transactionPrintAgainst);
  doubtByPrint(notification, context.notificationPrintAgainst);
  if (context.columnsDoubt) {
    for (const field of [kind, amount]) {
      field.confidence = Math.min(field.confidence, COLUMNS_DOUBT);
      field.why ??= context.columnsDoubt;
    }
  }
  settleYear(
    transaction,
    notification,
    'transaction',
    context.filedDate,
    context.transactionNeighbours,
    context.usualYear,
  );
  settleYear(notification, transaction, 'notification', context.filedDate, context.notificationConsensus);
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

/** Type and amount marks on a page whose columns differ from the document's other pages. */
const COLUMNS_DOUBT = 0.5;

/**
 * The marks' clarity judged against each column's typical typed mark: a marked cell at or above
 * its column's sure share (columnMarkSure) is as clear as a mark in that column gets, one nearer
 * the threshold less so (as judgeMarks). A blank cell whose ink is under SPECK_SHARE of what a
 * typed mark inks there (its column's typical mark, else the faintest of its group's typed
 * columns) is surely blank: a typed "x" prints alike in every row, so a speck that faint (a bit of
 * rule, a dot of scan noise) is no mark, however near the mark threshold it comes. Columns without
 * typed marks (handwritten ticks vary, and a faint one looks like such a speck) keep judgeMarks'
 * measure.
 */
function withTypedMarks(marks: MarkReading, typed: ReadonlyArray<number | null> | undefined): MarkReading {
  if (!typed) return marks;
  const typedShares = typed.filter((share): share is number => share !== null);
  const faintestTyped = typedShares.length > 0 ? Math.min(...typedShares) : null;
  let clarity = 1;
  marks.shares.forEach((share, index) => {
    if (share >= FILLED_INK) return;
    const typedMark = typed[index] ?? faintestTyped;
    const value =
      share < MARK_INK
        ? typedMark !== null && share <= typedMark * SPECK_SHARE
          ? 1
          : Math.min(1, (MARK_INK - share) / (MARK_INK - BLANK_SURE))
        : Math.min(1, (share - MARK_INK) / (columnMarkSure(typed[index]) - MARK_INK));
    clarity = Math.min(clarity, value);
  });
  return { ...marks, clarity };
}

/** A blank cell's ink, as a share of a typed mark's there, under which it is surely no mark. */
const SPECK_SHARE = 0.4;

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
