// Each field of a scanned row judged from what was read: its value, how sure we are of it, and
// why it is doubted, if it is. The owner code, the two dates (their cross reads weighed and
// checked against each other and the filing), the type and the amount marks are judged here alike
// for every form's reader (scanned-rows.ts for the House, senate-rows.ts, oge-rows.ts); asset
// names, which need their words checked, are judged in asset-field.ts.
import { AMOUNT_COLUMNS, AMOUNT_LETTERS, type AmountBracket, parseAmountRange } from '../../domain/amount.js';
import { addDays, daysBetween } from '../../domain/dates.js';
import { normalizeOwner, type Owner } from '../../domain/owner.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';
import type { MarkReading } from './cell-ink.js';
import type { TypeRole } from './house-columns.js';
import type { CellReading } from './house-page.js';
import { nearMonthNameDate, readOwnerCode, readScannedDate, type ScannedDate } from './scanned-fields.js';

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

/** How much a split vote among the readings of a cell lowers its confidence. */
export function agreementFactor(agreement: number | undefined): number {
  if (agreement === undefined || agreement >= 1) return 1;
  return agreement >= 0.6 ? 0.9 : 0.6;
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
  if (date.value === null || ruledOutByFiling(date.value, filedDate)) {
    const crossed = crossReadDate(cell, filedDate);
    if (crossed) {
      // The cross reads' date other rows read too: a misread would have to land on exactly it.
      const confidence =
        consensus && crossed.value === consensus.value
          ? Math.max(crossed.confidence, consensus.confidence)
          : crossed.confidence;
      return { value: crossed.value, confidence, why: null, label };
    }
    if (consensus && oneDigitFromConsensus(cell, consensus.value, filedDate))
      return { value: consensus.value, confidence: DIGIT_SETTLED, why: null, label };
  }
  if (date.value === null) {
    const nearMonth = nearMonthNameDate(cell.text);
    // The one month name that near, landing on exactly the date the rows around it read: the
    // repair is confirmed by readings of other cells.
    if (nearMonth && consensus && nearMonth === consensus.value && !ruledOutByFiling(nearMonth, filedDate))
      return { value: nearMonth, confidence: consensus.confidence, why: null, label };
    if (nearMonth && !ruledOutByFiling(nearMonth, filedDate))
      return {
        value: nearMonth,
        confidence: Math.min(cell.confidence, MONTH_NAME_REPAIRED),
        why: `${label} "${cell.text}" read as ${nearMonth} (a month name one letter off)`,
        label,
      };
    return { value: null, confidence: 0, why: `${label} "${cell.text}" is not a date`, label };
  }
  const heard = { ...cell, agreement: heardAgreement(cell, date, filedDate) };
  const read = cell.confidence * agreementFactor(heard.agreement);
  let confidence = crossReadConfidence(date.repaired ? read * 0.6 : read, date, heard, filedDate);
  // A clean reading of the date other rows read too (most of the document's rows, or the rows
  // on either side): the engine's doubt about the digits is outweighed by the other readings (it
  // would have to misread into exactly that date).
  if (consensus && !date.repaired && date.value === consensus.value)
    confidence = Math.max(confidence, consensus.confidence);
  return { value: date.value, confidence, why: null, label };
}

/** A date whose month name was read one letter off (nearMonthNameDate): a guess to confirm. */
const MONTH_NAME_REPAIRED = 0.6;

/**
 * A date taken from the date the other rows read (the column's one notification date) because
 * the cell read one digit away from it and as a date no filing can have: the threshold's value,
 * served, since the misread is certain and its one digit is where the column's date differs.
 */
const DIGIT_SETTLED = 0.85;

/**
 * Whether a cell that read as no date, or as one the filing rules out ("02/64/25", "8/5/2025"
 * on a filing of April 17), differs from the date the other rows read by one digit as printed
 * (04 read 64, 4 read 8), and none of its readings gives another date the filing allows. Filers
 * report a batch of trades notified on one day, so one date runs down the column; the engine
 * misreads a digit of it (a 0 with a speck in it, a 4 closed into an 8), and the one-digit
 * distance to exactly that date, together with a reading no filing can have, is the evidence.
 * A reading two digits away, or one with a separator lost ("45/2025"), is not matched: that
 * misread could have come from several dates.
 */
export function oneDigitFromConsensus(
  cell: Pick<CellReading, 'text' | 'readings' | 'crossReads'>,
  consensus: string,
  filedDate: string | null,
): boolean {
  const texts = [cell.text, ...(cell.readings ?? []).map((r) => r.text), ...(cell.crossReads ?? [])];
  for (const text of texts) {
    const date = readScannedDate(text);
    if (date.value !== null && date.value !== consensus && !ruledOutByFiling(date.value, filedDate))
      return false;
  }
  return oneDigitApart(cell.text, consensus);
}

/**
 * Whether a reading of three numeric parts ("02/64/25") differs from `consensus` (an ISO date) as
 * the reading would print it (its parts' widths and padding) by exactly one digit.
 */
export function oneDigitApart(text: string, consensus: string): boolean {
  const parts = text.replace(/\s+/g, '').split(/[/\-.]/);
  if (parts.length !== 3 || !parts.every((part) => /^\d+$/.test(part))) return false;
  const [year, month, day] = consensus.split('-') as [string, string, string];
  const printed = [month, day, year].map((expected, index) => {
    const part = parts[index] ?? '';
    return Number(expected).toString().padStart(part.length, '0').slice(-part.length);
  });
  let differing = 0;
  for (let index = 0; index < 3; index++) {
    const part = parts[index] ?? '';
    const expected = printed[index] ?? '';
    if (part.length < 1 || part.length > 4) return false;
    for (let at = 0; at < part.length; at++) if (part[at] !== expected[at]) differing++;
  }
  return differing === 1;
}

/**
 * A date cell's confidence once its cross reads (the cell read again from differently prepared
 * images, house-cells.ts) are heard. The engine's word confidence says little about a short run of
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
  if (crossReads === undefined || crossReads.length === 0 || date.value === null) return confidence;
  const heard = heardCrossReads(cell, filedDate);
  if (!crossReadsAgree(date, cell, filedDate)) return Math.min(confidence, CROSS_READS_DIFFER);
  const unanimous = agreement === undefined || agreement >= 1;
  if (date.repaired || !unanimous) return confidence;
  return Math.max(confidence, heard.length === crossReads.length ? CROSS_READS_AGREE : CROSS_READS_PARTLY);
}

/**
 * The share of a date cell's first readings (house-cells.ts reads it at two or three scales) that
 * give its date, among those heard. As with its cross reads, a reading that is no date at all and
 * no cut-off piece of the date read ("3/1372025" beside two "3/13/2025") failed on the cell and
 * is not heard, nor is one that differs only in a year the filing rules out ("3/21/2028" on a
 * 2025 filing): neither says which month and day the cell holds. A reading of another date, or
 * of the same one with another possible year, is heard against it. Two readings at least must
 * be heard; a cell without its readings kept keeps the vote's share.
 */
export function heardAgreement(
  cell: Pick<CellReading, 'agreement' | 'readings' | 'text'>,
  date: ScannedDate,
  filedDate: string | null,
): number | undefined {
  const readings = cell.readings ?? [];
  if (readings.length === 0 || date.value === null || date.repaired) return cell.agreement;
  const value = date.value;
  const heard = readings.filter(
    (reading) =>
      separatorsOnly(reading.text, cell.text, filedDate) !== null ||
      (!garbled(reading.text, cell.text) && !onlyYearLost(reading.text, cell.text, value, filedDate)),
  );
  if (heard.length < 2) return cell.agreement;
  const same = heard.filter((reading) => readsAs(reading.text, cell.text, value, filedDate));
  return same.length / heard.length;
}

/**
 * The cross reads of a cell that are heard: those that did not fail on it (garbled), and those
 * that read it but for its separators (separatorsOnly).
 */
function heardCrossReads(cell: Pick<CellReading, 'crossReads' | 'text'>, filedDate: string | null): string[] {
  return (cell.crossReads ?? []).filter(
    (text) => separatorsOnly(text, cell.text, filedDate) !== null || !garbled(text, cell.text),
  );
}

/** Whether a reading gives `value` cleanly, or but for its separators (separatorsOnly). */
function readsAs(text: string, first: string, value: string, filedDate: string | null): boolean {
  const other = readScannedDate(text);
  if (other.value !== null) return other.value === value && !other.repaired;
  return separatorsOnly(text, first, filedDate) === value;
}

/**
 * The date a reading that is no date gives once its separators are allowed to be lost or misread
 * ("3/132025", "3/1372025" for 3/13/2025), when that is the first reading's date: the digits of a
 * date are what the engine reads from its pixels, and a thin separator is what a hard
 * black-and-white preparation loses or closes into a digit, so the same digits in the same order
 * are the same date read again. Each separator may be missing or one character; a separator read
 * as a digit costs, and the reading is the date only when, among the dates the filing allows
 * (printed as the first reading prints them), that date alone explains it at the least cost:
 * "3/172025" beside "3/1/2025" reads 3/17/2025 more simply and agrees with neither.
 */
export function separatorsOnly(text: string, first: string, filedDate: string | null): string | null {
  if (filedDate === null) return null;
  const read = text.replace(/\s+/g, '');
  const printed = /^(\d{1,2})[/\-.](\d{1,2})[/\-.](\d{2}|\d{4})$/.exec(first.replace(/\s+/g, ''));
  const date = readScannedDate(first);
  if (read === '' || readScannedDate(read).value !== null || !printed || date.value === null) return null;
  if (date.repaired || ruledOutByFiling(date.value, filedDate)) return null;
  const [, month = '', day = '', year = ''] = printed;
  // A part printed "03" is padded, "3" is not; "13" says nothing of how 3 would be printed.
  const styles = (number: string, part: string) =>
    part.startsWith('0')
      ? [number.padStart(2, '0')]
      : part.length === 1
        ? [number]
        : [number, number.padStart(2, '0')];
  let best: string[] = [];
  let bestCost = Number.POSITIVE_INFINITY;
  for (let back = 0; back <= FILING_REACH_DAYS; back++) {
    const candidate = addDays(filedDate, -back);
    const [y = '', m = '', d = ''] = candidate.split('-');
    const printedYear = year.length === 2 ? y.slice(2) : y;
    let cost: number | null = null;
    for (const printedMonth of styles(String(Number(m)), month))
      for (const printedDay of styles(String(Number(d)), day)) {
        const fit = separatorCost(read, [printedMonth, printedDay, printedYear]);
        if (fit !== null && (cost === null || fit < cost)) cost = fit;
      }
    if (cost === null || cost > bestCost) continue;
    if (cost < bestCost) best = [];
    bestCost = cost;
    best.push(candidate);
  }
  return best.length === 1 && best[0] === date.value ? date.value : null;
}

/**
 * How many separators `read` holds as digits when it is the three parts with each separator
 * missing or one character (null when it is not).
 */
function separatorCost(read: string, parts: [string, string, string]): number | null {
  const [a, b, c] = parts;
  let least: number | null = null;
  for (const first of [0, 1])
    for (const second of [0, 1]) {
      if (read.length !== a.length + first + b.length + second + c.length) continue;
      const at = a.length + first;
      if (!read.startsWith(a) || read.slice(at, at + b.length) !== b || !read.endsWith(c)) continue;
      const separators = [first ? read[a.length] : '', second ? read[at + b.length] : ''];
      const cost = separators.filter((character) => /\d/.test(character ?? '')).length;
      if (least === null || cost < least) least = cost;
    }
  return least;
}

/**
 * Whether the cross reads of a date cell that are heard give the first readings' date: at least
 * one of them cleanly, and every other one too or with only its year lost (onlyYearLost).
 */
export function crossReadsAgree(
  date: ScannedDate,
  cell: Pick<CellReading, 'crossReads' | 'text'>,
  filedDate: string | null = null,
): boolean {
  const value = date.value;
  if (value === null) return false;
  const same = (text: string) => readsAs(text, cell.text, value, filedDate);
  const heard = heardCrossReads(cell, filedDate);
  return (
    heard.some(same) && heard.every((text) => same(text) || onlyYearLost(text, cell.text, value, filedDate))
  );
}

/** How far before its filing a date can be: a year, and some slack for late filers. */
const FILING_REACH_DAYS = 400;

/** A date the filing makes impossible: after it, or over a year before it. */
export function ruledOutByFiling(value: string, filedDate: string | null): boolean {
  return filedDate !== null && (value > filedDate || daysBetween(value, filedDate) > FILING_REACH_DAYS);
}

/**
 * The date the cross reads give when the first readings gave none, or one the filing rules out
 * ("31-fan-25", "0117/25"; "3/17/2825" on a 2025 filing): every cross read that is a date gives
 * the same one, cleanly, and the filing allows it. The first readings failed on the cell, so the
 * cross reads are all the evidence there is: two of them agreeing are two readings from different
 * pixels (CROSS_READS_PARTLY), one alone is a guess a person confirms (CROSS_READS_DIFFER).
 */
export function crossReadDate(
  cell: Pick<CellReading, 'crossReads'>,
  filedDate: string | null,
): { value: string; confidence: number; agreeing: number } | null {
  const dates = (cell.crossReads ?? []).map(readScannedDate).filter((date) => date.value !== null);
  const value = dates[0]?.value ?? null;
  if (value === null || ruledOutByFiling(value, filedDate)) return null;
  if (dates.some((date) => date.repaired || date.value !== value)) return null;
  return {
    value,
    confidence: dates.length >= 2 ? CROSS_READS_PARTLY : CROSS_READS_DIFFER,
    agreeing: dates.length,
  };
}

/**
 * A cross read that is no date at all and no cut-off piece of the first reading ("3718/2025",
 * "3/18/825" for 3/18/2025: a separator read as a digit, a digit lost in the middle): that
 * preparation failed on the cell, which says nothing of which date it holds. It is not heard,
 * either way. A reading cut short ("01/1" for 01/17/25) is heard: the cell's edge may hide what
 * the first reading made up. So is one that reads another digit where the first read its month
 * or day (otherMonthOrDayDigit).
 */
function garbled(text: string, first: string): boolean {
  if (readScannedDate(text).value !== null) return false;
  const read = text.replace(/\s+/g, '');
  const printed = first.replace(/\s+/g, '');
  return read !== '' && !printed.startsWith(read) && !otherMonthOrDayDigit(read, printed);
}

/**
 * Whether a reading as long as the first one holds another digit at a place where the first read
 * a digit of its month or day ("311402008" beside "3/18/2025": its separators read as digits,
 * which says nothing, but the day's 8 read as a 4). Such a reading is one of another date, its
 * separators lost, not a preparation that failed: a page at 80% of its resolution read that day
 * as 18 at two scales and in one cross read, and this one alone read the 14 that was typed.
 */
function otherMonthOrDayDigit(read: string, printed: string): boolean {
  const year = printed.search(/[/\-.]\d+$/);
  if (read.length !== printed.length || year < 0) return false;
  for (let at = 0; at < year; at++) {
    const digit = printed[at] ?? '';
    const other = read[at] ?? '';
    if (/\d/.test(digit) && /\d/.test(other) && other !== digit) return true;
  }
  return false;
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
/**
 * A date every reading agrees on but one cross read that failed on the cell (garbled): one
 * preparation fewer agrees, so a little less than CROSS_READS_AGREE.
 */
const CROSS_READS_PARTLY = 0.85;
/** A date a differently prepared image of its cell reads otherwise (or cut short). */
const CROSS_READS_DIFFER = 0.6;

/** A date whose year was settled by the filing's range and the other date: a guess to confirm. */
const YEAR_SETTLED = 0.6;

/**
 * A date read with a year the filing rules out ("02/04/28" on a filing of 2025-02-06, "3/17/2825"),
 * whose month and day were read, takes the one year a single digit away that the dates around it
 * allow: on or before the filing, within a year of it, the transaction on or before the
 * notification. A year digit is what the engine misreads at the cell's edge; the month and day
 * stand as read. Two years allowed (2024 and 2025 for a transaction in January) leave the date
 * as read, and doubted, unless one of them is the year most of the document's dates of that
 * column read (`usualYear`: a filer's trades of one filing are dated in one year, or nearly), which
 * is then taken as a guess to confirm. The settled date is a guess (YEAR_SETTLED) unless it is the
 * date most of the column reads (`consensus`): a misread would have to land on exactly that one.
 */
export function settleYear(
  field: DateField,
  other: DateField,
  role: 'transaction' | 'notification',
  filedDate: string | null,
  consensus?: { value: string; confidence: number } | null,
  usualYear?: string | null,
): void {
  const { value } = field;
  if (value === null || filedDate === null) return;
  // Only a year no date of the filing can have: a date the filing rules out within a possible
  // year ("03/17/25" on a filing of 2025-02-06) has its month or day wrong, not its year.
  const year = value.slice(0, 4);
  const filedYear = Number(filedDate.slice(0, 4));
  if (Number(year) <= filedYear && Number(year) >= filedYear - 1) return;
  const allowed = new Set<string>();
  for (let at = 0; at < 4; at++) {
    for (let digit = 0; digit <= 9; digit++) {
      const candidate: string = `${year.slice(0, at)}${digit}${year.slice(at + 1)}${value.slice(4)}`;
      if (candidate === value || ruledOutByFiling(candidate, filedDate)) continue;
      if (
        other.value !== null &&
        (role === 'transaction' ? candidate > other.value : candidate < other.value)
      )
        continue;
      allowed.add(candidate);
    }
  }
  const inUsualYear = [...allowed].filter((candidate) => candidate.slice(0, 4) === usualYear);
  const byUsualYear = allowed.size > 1 && inUsualYear.length === 1;
  const [settled, ...more] = byUsualYear ? inUsualYear : [...allowed];
  if (settled === undefined || more.length > 0) return;
  field.value = settled;
  if (consensus && consensus.value === settled) {
    field.confidence = consensus.confidence;
    return;
  }
  field.confidence = Math.min(field.confidence, YEAR_SETTLED);
  const by = byUsualYear ? "the document's other dates" : "the filing's dates";
  field.why = `${field.label}: year "${year}" settled as ${settled.slice(0, 4)} by ${by}`;
}

/**
 * A date cell whose print matches the prints of other rows that surely read one date
 * (datePrintConsensus) says that date, whatever the engine made of it: its ink is that date's
 * ink. The checks against the other date and the filing still follow (checkDates).
 */
export function settleByPrint(
  field: DateField,
  print: { value: string; confidence: number } | null | undefined,
): void {
  if (!print) return;
  if (field.value === print.value && field.why === null) {
    field.confidence = Math.max(field.confidence, print.confidence);
    return;
  }
  field.value = print.value;
  field.confidence = print.confidence;
  field.why = null;
}

/**
 * A date cell surely read whose print matches a cell on its page surely read as `against`
 * (datePrintContradictions): one of the two readings is wrong, however the reads agreed.
 */
export function doubtByPrint(field: DateField, against: string | null | undefined): void {
  if (!against || field.value === against) return;
  field.confidence = Math.min(field.confidence, PRINT_CONTRADICTED);
  field.why ??= `${field.label} prints like another row's, read as ${against}`;
}

/** A date whose print another row read as another date: the engine's reading is not to be served. */
const PRINT_CONTRADICTED = 0.3;

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
