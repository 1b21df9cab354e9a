// What the rows of one scanned document say about each other: a filer's rows share an owner
// code's print, a notification date, a day's run of transaction dates and a page's mark columns,
// so a reading that other readings agree with earns confidence the engine alone cannot give it.
import { daysBetween } from '../../domain/dates.js';
import { FILLED_INK, type MarkReading } from './cell-ink.js';
import type { TypeRole } from './house-columns.js';
import type { CellReading, HouseRow } from './house-page.js';
import { crossReadDate, crossReadsAgree, heardAgreement, oneDigitApart } from './judged-fields.js';
import { nearMonthNameDate, readOwnerCode, readScannedDate, tidyAssetText } from './scanned-fields.js';

/** Marks of one column a page needs before its typical mark sets the column's sure share. */
const TYPICAL_MARKS = 4;

/**
 * Per mark column of a page, the ink share of its typical typed mark, or null when its marks do
 * not look typed. A typed "x" leaves the same ink in every cell of its column, so where a column
 * holds several marks whose shares agree (the lowest, past the `passOver` share of the faintest,
 * at least three quarters of the median) that lowest mark is what a mark of the column inks. A
 * column with too few marks on the page, or whose marks there do not agree (some rows of a page
 * print bolder), takes `fallback`, when given: the same column's typical mark over the document
 * (see rowsOfScan). Handwritten marks vary and give null.
 */
export function columnTypedMarks(
  rows: readonly MarkReading[],
  columns: number,
  fallback?: ReadonlyArray<number | null>,
  /** Share of the faintest marks passed over (a document's many marks hold a smudged one or two). */
  passOver = 0,
): Array<number | null> {
  return Array.from({ length: columns }, (_, column) => {
    const marks = rows
      .filter((row) => row.marked.includes(column))
      .map((row) => row.shares[column] ?? 0)
      .filter((share) => share < FILLED_INK)
      .sort((a, b) => a - b);
    if (marks.length < TYPICAL_MARKS) return fallback?.[column] ?? null;
    const median = marks[Math.floor(marks.length / 2)] ?? 0;
    const lowest = marks[Math.floor(marks.length * passOver)] ?? 0;
    return lowest < median * 0.75 ? (fallback?.[column] ?? null) : lowest;
  });
}

/**
 * The type columns (their roles, in order) that most of a document's table pages have, when
 * most of them agree: a filer's spreadsheet prints every page with the same columns, so a page
 * found otherwise was ruled or read differently and its marks may sit in the wrong columns.
 */
export function usualTypeColumns(
  pages: ReadonlyArray<{ form: { rows: HouseRow[]; columns: { types: Array<{ role: TypeRole }> } | null } }>,
): string | null {
  const counts = new Map<string, number>();
  let tables = 0;
  for (const page of pages) {
    if (!page.form.columns || page.form.rows.length === 0) continue;
    const key = page.form.columns.types.map((type) => type.role).join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
    tables++;
  }
  if (tables < 3) return null;
  const [key, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return count / tables >= 0.7 ? key : null;
}

/** Rows whose clean notification reading a consensus needs, and the share of them it needs. */
const CONSENSUS_ROWS = 4;
const CONSENSUS_SHARE = 0.7;
/** A filer reports within 30 days of being notified; a little slack for the Clerk's stamp. */
const NOTIFIED_BEFORE_FILING_DAYS = 45;

/**
 * The notification date most of a document's rows read cleanly. Filers report a batch of trades
 * they were notified of on one day, so one date usually runs down the whole column; a clean
 * reading of that date on a row is then as sure as the column's agreement. The date must sit
 * where a notification date can: on or before the filing and no more than 45 days before it.
 */
export function notificationConsensus(
  rows: readonly HouseRow[],
  filedDate: string | null,
): { value: string; confidence: number } | null {
  const votes = new Map<string, number>();
  let total = 0;
  for (const row of rows) {
    if (!row.notification.inked) continue;
    const date = readScannedDate(row.notification.text);
    // A cell the first readings failed on ("31-fan-25") votes with the date both its cross reads
    // give cleanly: two readings from other pixels.
    const crossed = date.value === null ? crossReadDate(row.notification, filedDate) : null;
    const value = crossed && crossed.agreeing >= 2 ? crossed.value : date.repaired ? null : date.value;
    if (value === null) continue;
    votes.set(value, (votes.get(value) ?? 0) + 1);
    total++;
  }
  const [value, count] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (count < CONSENSUS_ROWS || count / total < CONSENSUS_SHARE) return null;
  if (filedDate && (value > filedDate || daysBetween(value, filedDate) > NOTIFIED_BEFORE_FILING_DAYS))
    return null;
  const share = count / total;
  return { value, confidence: Math.min(0.98, 0.7 + 0.3 * share * Math.min(1, count / 8)) };
}

/**
 * The notification consensus each page's rows are judged by: the document's, unless the page's
 * own rows agree on another date (an attachment notified on another day: 8220750's last page
 * says "31-Jan-25" where the 33 before it say 02/04/25).
 */
export function pageNotificationConsensus(
  pages: ReadonlyArray<{ form: { rows: HouseRow[] } }>,
  filedDate: string | null,
): Array<{ value: string; confidence: number } | null> {
  const documentWide = notificationConsensus(
    pages.flatMap((page) => page.form.rows),
    filedDate,
  );
  return pages.map((page) => {
    const own = notificationConsensus(page.form.rows, filedDate);
    return own && own.value !== documentWide?.value ? own : documentWide;
  });
}

/** A transaction date read the same on three rows in a row: see transactionNeighbours. */
const NEIGHBOURS_AGREE = 0.9;

/**
 * Rows whose transaction date reads cleanly (no repair) as the same date as two neighbouring
 * rows, three in a row (in reading order across pages). Filers list the trades of one day
 * together, so a date often runs down several rows; three clean readings of one date are three
 * agreeing readings, and the engine would have to misread one into exactly its neighbours'
 * date. A row whose date did not read cleanly neither agrees nor disagrees and is passed over,
 * unless its first readings gave no date and its cross reads give one (crossReadDate), which
 * then stands for its reading; a different clean date ends the run. The checks against the notification and filing dates
 * still apply afterwards.
 */
/**
 * Every row of a read form's pages, judged by `judge` in reading order (numbered from 1 across the
 * pages) with the transaction date it and its neighbours read alike (transactionNeighbours).
 */
export function judgeFormRows<Row extends { date: CellReading }, Judged>(
  pages: ReadonlyArray<{ number: number; form: { rows: Row[] } }>,
  judge: (
    read: Row,
    page: number,
    row: number,
    neighbours: { value: string; confidence: number } | null,
  ) => Judged,
): Judged[] {
  const neighbours = transactionNeighbours(pages.flatMap((page) => page.form.rows));
  const rows: Judged[] = [];
  for (const page of pages) {
    for (const read of page.form.rows)
      rows.push(judge(read, page.number, rows.length + 1, neighbours.get(read) ?? null));
  }
  return rows;
}

export function transactionNeighbours<Row extends { date: CellReading }>(
  rows: readonly Row[],
): Map<Row, { value: string; confidence: number }> {
  const read: Array<{ row: Row; value: string; at: number }> = [];
  rows.forEach((row, at) => {
    if (!row.date.inked) return;
    const date = readScannedDate(row.date.text);
    if (date.value !== null && !date.repaired) read.push({ row, value: date.value, at });
    // A cell the first readings gave no date for ("017/25") reads with its cross reads' date.
    const crossed = date.value === null ? crossReadDate(row.date, null) : null;
    if (crossed) read.push({ row, value: crossed.value, at });
  });
  const out = new Map<Row, { value: string; confidence: number }>();
  read.forEach(({ row, value }, index) => {
    const same = (offset: number) => read[index + offset]?.value === value;
    if ((same(-1) && same(1)) || (same(-2) && same(-1)) || (same(1) && same(2)))
      out.set(row, { value, confidence: NEIGHBOURS_AGREE });
  });
  bracketedDates(rows, read, out);
  return out;
}

/**
 * A row between two rows that read one date cleanly (the nearest such rows before and after it)
 * is offered that date when its own cell read the same month and day cleanly with another year
 * ("01/17/28" between two 01/17/25), read a "15-Jan-25" date whose month name, one letter off,
 * is that date's ("15-lan-25" between two 15-Jan-25), or read a date one digit from it ("03/17/25"
 * between two 01/17/25): a day's trades are listed together, and the cell's own reading gives the
 * rest of the date. The rules that take the offer still check it: a year is settled to it only by
 * a single digit the filing allows (settleYear), a month name only when it is the one month that
 * near (dateField), a digit only when every reading of the cell is a date the filing rules out
 * (oneDigitFromConsensus). Any other row keeps its own evidence.
 */
function bracketedDates<Row extends { date: CellReading }>(
  rows: readonly Row[],
  read: ReadonlyArray<{ row: Row; value: string; at: number }>,
  out: Map<Row, { value: string; confidence: number }>,
): void {
  rows.forEach((row, at) => {
    if (!row.date.inked || out.has(row)) return;
    const before = [...read].reverse().find((entry) => entry.at < at);
    const after = read.find((entry) => entry.at > at);
    if (!before || !after || before.value !== after.value) return;
    const own = readScannedDate(row.date.text);
    const otherYear =
      own.value !== null &&
      !own.repaired &&
      own.value !== before.value &&
      own.value.slice(4) === before.value.slice(4);
    const monthNameOff = own.value === null && nearMonthNameDate(row.date.text) === before.value;
    const digitOff =
      own.value !== null &&
      !own.repaired &&
      own.value !== before.value &&
      oneDigitApart(row.date.text, before.value);
    if (otherYear || monthNameOff || digitOff)
      out.set(row, { value: before.value, confidence: NEIGHBOURS_AGREE });
  });
}

/** A date most readings of its cell give that another cell reads surely: see transactionDatesReadSurelyElsewhere. */
const READ_SURELY_ELSEWHERE = 0.85;

/** Two readings of three. */
const MOST_READINGS = 0.6;

/**
 * The date of a cell whose first readings gave none only for a lost separator ("0117/25"): its
 * cross reads give one date cleanly (crossReadDate), one of them with exactly the first readings'
 * digits, which then read the same date but for a stroke.
 */
function separatorLost(cell: CellReading, filedDate: string | null): string | null {
  const crossed = crossReadDate(cell, filedDate);
  if (!crossed) return null;
  const digits = (text: string) => text.replace(/\D/g, '');
  const same = (cell.crossReads ?? []).some(
    (text) => readScannedDate(text).value === crossed.value && digits(text) === digits(cell.text),
  );
  return same ? crossed.value : null;
}

/**
 * Rows whose transaction date most of its cell's readings give (a clean date at two of three
 * scales, and every black-and-white read that is heard agreeing) and another row of the document
 * reads surely (every reading of its cell agreeing). A split among a cell's first readings is not
 * outvoted by its own cross reads (a digit misread at most scales is misread alike by them), but a
 * misread would also have to land on exactly a date the filer wrote elsewhere, as with the
 * neighbours' dates and the notification consensus; filers list many trades of one day.
 */
export function transactionDatesReadSurelyElsewhere<Row extends { date: CellReading }>(
  rows: readonly Row[],
  filedDate: string | null,
): Map<Row, { value: string; confidence: number }> {
  const most = new Map<string, Row[]>();
  const surely = new Set<string>();
  for (const row of rows) {
    const date = readScannedDate(row.date.text);
    const agreement = heardAgreement(row.date, date, filedDate) ?? 1;
    if (!row.date.inked || agreement < MOST_READINGS) continue;
    const lostSeparator = date.value === null ? separatorLost(row.date, filedDate) : null;
    if (lostSeparator) most.set(lostSeparator, [...(most.get(lostSeparator) ?? []), row]);
    if (date.value === null || date.repaired || !crossReadsAgree(date, row.date, filedDate)) continue;
    if (agreement >= 1) surely.add(date.value);
    else most.set(date.value, [...(most.get(date.value) ?? []), row]);
  }
  const out = new Map<Row, { value: string; confidence: number }>();
  for (const [value, alike] of most) {
    if (!surely.has(value)) continue;
    for (const row of alike) out.set(row, { value, confidence: READ_SURELY_ELSEWHERE });
  }
  return out;
}

/** Rows, and the share of them, whose transaction dates must read one year for it to be the usual one. */
const USUAL_YEAR_ROWS = 8;
const USUAL_YEAR_SHARE = 0.8;

/**
 * The year most of a document's transaction dates read cleanly: a filing reports the trades of
 * a month or two, so they share a year, and a year digit misread where two years fit (a January
 * trade notified in February: 2024 or 2025) is settled by it (settleYear). Null when no year is
 * read on 8 rows and 80% of those read cleanly.
 */
export function usualTransactionYear<Row extends { date: CellReading }>(rows: readonly Row[]): string | null {
  const votes = new Map<string, number>();
  let total = 0;
  for (const row of rows) {
    const date = readScannedDate(row.date.text);
    if (!row.date.inked || date.value === null || date.repaired) continue;
    const year = date.value.slice(0, 4);
    votes.set(year, (votes.get(year) ?? 0) + 1);
    total++;
  }
  const [year, count] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return count >= USUAL_YEAR_ROWS && count / total >= USUAL_YEAR_SHARE ? year : null;
}

/** Shapes differing in at most this many of their 384 cells are the same printed code. */
const SAME_SHAPE = 60;
/**
 * The closer likeness each group is split by: a small print of "DC" and one of "SP" can come
 * within SAME_SHAPE of each other (8220750's pages print both codes in a smaller face on some
 * rows, 44 cells apart). One code's prints can also differ by more than this, so a part is only
 * kept from its group's vote when one of its rows reads another code (ownerConsensus).
 */
const SAME_SHAPE_CLOSE = 30;

/**
 * Typed owner codes look the same on every row of a document: rows whose owner cells have the
 * same shape vote on what it says. A code read by most of four or more such rows is taken for
 * all of them, however each single reading came out ("Dc", "bc", "1;"). Each group is also split
 * by the closer likeness (SAME_SHAPE_CLOSE) and each part votes alike: a part that reads another
 * code than its group takes its own, and a part with any reading of another code takes only its
 * own vote (none when it has no majority), so the group's vote never speaks for another code's
 * print that its loose likeness took in.
 */
export function ownerConsensus(
  rows: readonly HouseRow[],
): Map<HouseRow, { code: 'SP' | 'DC' | 'JT'; confidence: number }> {
  const out = new Map<HouseRow, { code: 'SP' | 'DC' | 'JT'; confidence: number }>();
  for (const group of shapeGroups(rows, SAME_SHAPE)) {
    const agreed = groupCode(group);
    for (const part of shapeGroups(group, SAME_SHAPE_CLOSE)) {
      // A part with a reading of another code may be another code's print: the group's vote,
      // which its likeness joined only loosely, does not speak for it.
      const contradicted = part.some((member) => {
        const read = readOwnerCode(member.owner.text)?.code;
        return read !== undefined && read !== '' && read !== agreed?.code;
      });
      const own = groupCode(part);
      const code = own && own.code !== agreed?.code ? own : contradicted ? own : (agreed ?? own);
      if (code) for (const member of part) out.set(member, code);
    }
  }
  return out;
}

/** Rows grouped by their owner cells' shapes: each joins the first group within `within` of its first row. */
function shapeGroups(rows: readonly HouseRow[], within: number): HouseRow[][] {
  const groups: Array<{ shape: string; members: HouseRow[] }> = [];
  for (const row of rows) {
    if (!row.ownerShape) continue;
    const group = groups.find((candidate) => hamming(candidate.shape, row.ownerShape ?? '') <= within);
    if (group) group.members.push(row);
    else groups.push({ shape: row.ownerShape, members: [row] });
  }
  return groups.map((group) => group.members);
}

/** The code most of four or more rows of one shape read, and how sure that makes it; null if none. */
function groupCode(members: readonly HouseRow[]): { code: 'SP' | 'DC' | 'JT'; confidence: number } | null {
  if (members.length < 4) return null;
  const votes = new Map<string, number>();
  let total = 0;
  for (const member of members) {
    const code = readOwnerCode(member.owner.text);
    if (!code || code.code === '') continue;
    const weight = code.repaired ? 0.6 : 1;
    votes.set(code.code, (votes.get(code.code) ?? 0) + weight);
    total += weight;
  }
  const [code, weight] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const share = total === 0 ? 0 : weight / total;
  if ((code !== 'SP' && code !== 'DC' && code !== 'JT') || share < 0.7 || weight < 2) return null;
  return { code, confidence: Math.min(0.98, 0.7 + 0.3 * share * Math.min(1, members.length / 8)) };
}

function hamming(a: string, b: string): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let distance = 0;
  for (let i = 0; i < a.length; i++) {
    let x = Number.parseInt(a[i] ?? '0', 16) ^ Number.parseInt(b[i] ?? '0', 16);
    while (x > 0) {
      distance += x & 1;
      x >>= 1;
    }
  }
  return distance;
}

/** Rows, and the share of them, whose names must end with one word for it to be the usual one. */
const SUFFIX_ROWS = 8;
const SUFFIX_SHARE = 0.6;

/**
 * The word (letters only, three or more) that most of a document's asset names end with: a
 * filer's software prints the security type after every name ("... INC. CMN"), so a clean
 * reading of exactly that word in that place agrees with the rest of the column, however
 * doubtful the engine was of it. Null when no word ends at least 8 rows and 60% of them.
 */
export function usualAssetSuffix(rows: readonly HouseRow[]): string | null {
  const votes = new Map<string, number>();
  let total = 0;
  for (const row of rows) {
    const words = row.asset.text.trim().split(/\s+/);
    const last = words[words.length - 1] ?? '';
    total++;
    if (/^[A-Z]{3,}$/.test(last)) votes.set(last, (votes.get(last) ?? 0) + 1);
  }
  const [word, count] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return count >= SUFFIX_ROWS && count / total >= SUFFIX_SHARE ? word : null;
}

/** A name's letters and digits, the key its spellings are grouped by. */
export const nameLettersKey = (text: string) => text.toUpperCase().replace(/[^A-Z0-9&]/g, '');

/**
 * The names (by nameLettersKey) that rows of the document read with the same letters but other
 * stops or spaces ("ROSS STORES,INC CMN" and "ROSS STORES, INC CMN"): a filer's software prints
 * one holding's name alike on every row, so at least one of them is misread, and which one the
 * letters cannot say.
 */
export function namesSpelledOtherwise(rows: readonly HouseRow[]): Set<string> {
  const spellings = new Map<string, Set<string>>();
  for (const row of rows) {
    const text = tidyAssetText(row.asset.text).toUpperCase();
    const key = nameLettersKey(text);
    if (key === '') continue;
    const seen = spellings.get(key) ?? new Set<string>();
    seen.add(text);
    spellings.set(key, seen);
  }
  return new Set([...spellings].flatMap(([key, seen]) => (seen.size > 1 ? [key] : [])));
}
