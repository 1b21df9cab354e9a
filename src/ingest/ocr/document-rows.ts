// A read document's rows, each judged by scannedRow, then what the rows say about each other:
// the document votes (document-votes.ts) go into each row's judgement, and passes over the
// judged rows raise a doubtful owner code or asset name that surer rows agree with.

import { distance } from 'fastest-levenshtein';
import { AMOUNT_LETTERS } from '../../domain/amount.js';
import { datePrintConsensus, datePrintContradictions } from './date-prints.js';
import {
  columnTypedMarks,
  namesSpelledOtherwise,
  ownerConsensus,
  pageNotificationConsensus,
  transactionDatesReadSurelyElsewhere,
  transactionNeighbours,
  usualAssetSuffix,
  usualTransactionYear,
  usualTypeColumns,
} from './document-votes.js';
import type { TypeRole } from './house-columns.js';
import type { HouseRow } from './house-page.js';
import type { Lexicon } from './lexicon.js';
import {
  belowThreshold,
  lowConfidence,
  REVIEW_THRESHOLD,
  type ScannedRow,
  scannedRow,
} from './scanned-rows.js';

/** Every row of a read document, numbered in reading order across its pages. */
export function rowsOfScan(
  pages: ReadonlyArray<{
    number: number;
    form: { rows: HouseRow[]; columns: { types: Array<{ role: TypeRole }> } | null };
  }>,
  filedDate: string | null,
  lexicon?: Lexicon,
): ScannedRow[] {
  const houseRows = pages.flatMap((page) => page.form.rows);
  const consensus = ownerConsensus(houseRows);
  const notified = pageNotificationConsensus(pages, filedDate);
  const neighbours = transactionNeighbours(houseRows);
  const readSurelyElsewhere = transactionDatesReadSurelyElsewhere(houseRows, filedDate);
  const transactionPrints = datePrintConsensus(
    houseRows,
    (row) => row.date,
    (row) => row.dateShape,
    filedDate,
  );
  const notificationPrints = datePrintConsensus(
    houseRows,
    (row) => row.notification,
    (row) => row.notificationShape,
    filedDate,
  );
  const usualSuffix = usualAssetSuffix(houseRows);
  const usualYear = usualTransactionYear(houseRows);
  const spelledOtherwise = namesSpelledOtherwise(houseRows);
  const usualColumns = usualTypeColumns(pages);
  // A column with few marks on its page (a partial-sale box ticked twice) is judged by the same
  // column's marks on every page ruled alike: the filer's software types one "x" everywhere. Of
  // a whole document's marks the faintest tenth is passed over: a smudged or clipped mark or two
  // would otherwise make every mark of the column doubtful; they are judged against the rest.
  const rolesOf = (page: (typeof pages)[number]) => page.form.columns?.types.map((type) => type.role) ?? [];
  const documentTyped = (roles: readonly TypeRole[]) => {
    const rowsAlike = pages
      .filter((page) => rolesOf(page).join(',') === roles.join(','))
      .flatMap((page) => page.form.rows);
    return {
      types: columnTypedMarks(
        rowsAlike.map((row) => row.types),
        roles.length,
        undefined,
        DOCUMENT_PASS_OVER,
      ),
      amounts: columnTypedMarks(
        rowsAlike.map((row) => row.amounts),
        AMOUNT_LETTERS.length,
        undefined,
        DOCUMENT_PASS_OVER,
      ),
    };
  };
  const rows: ScannedRow[] = [];
  for (const [pageIndex, page] of pages.entries()) {
    const typeRoles = rolesOf(page);
    const alike = documentTyped(typeRoles);
    const typedMarks = {
      types: columnTypedMarks(
        page.form.rows.map((row) => row.types),
        typeRoles.length,
        alike.types,
      ),
      amounts: columnTypedMarks(
        page.form.rows.map((row) => row.amounts),
        AMOUNT_LETTERS.length,
        alike.amounts,
      ),
    };
    const columnsDoubt =
      usualColumns !== null && page.form.rows.length > 0 && typeRoles.join(',') !== usualColumns
        ? "this page's type columns differ from the document's other pages"
        : null;
    // Prints are compared within a page: a scanner thins or thickens one page's strokes alike.
    const transactionsAgainst = datePrintContradictions(
      page.form.rows,
      (row) => row.date,
      (row) => row.dateShape,
      filedDate,
    );
    const notificationsAgainst = datePrintContradictions(
      page.form.rows,
      (row) => row.notification,
      (row) => row.notificationShape,
      filedDate,
    );
    for (const house of page.form.rows) {
      rows.push(
        scannedRow(house, {
          page: page.number,
          row: rows.length + 1,
          filedDate,
          typeRoles,
          lexicon,
          ownerConsensus: consensus.get(house) ?? null,
          notificationConsensus: notified[pageIndex] ?? null,
          transactionNeighbours: neighbours.get(house) ?? readSurelyElsewhere.get(house) ?? null,
          transactionPrint: transactionPrints.get(house) ?? null,
          notificationPrint: notificationPrints.get(house) ?? null,
          transactionPrintAgainst: transactionsAgainst.get(house) ?? null,
          notificationPrintAgainst: notificationsAgainst.get(house) ?? null,
          usualSuffix,
          usualYear,
          namesSpelledOtherwise: spelledOtherwise,
          typedMarks,
          columnsDoubt,
        }),
      );
    }
  }
  ownersBetweenAgreeing(rows);
  sureSpellingsDisputed(rows);
  assetsReadAlike(rows);
  assetsNearSureReading(rows, lexicon);
  return rows;
}

/** The faintest share of a document's marks in a column not taken for its typical mark. */
const DOCUMENT_PASS_OVER = 0.1;

/** An asset name read exactly as another row of the document read it surely. */
const ASSET_READ_ELSEWHERE = 0.85;

/**
 * An asset name the engine was unsure of (low confidence and no doubt of its own) that reads
 * exactly, every letter and stop and the ticker, as another row of the document read it surely:
 * a filer trades one holding on several rows, and two readings landing on one string agree as
 * the engine alone cannot. A name with a doubt of its own (an option, a word in no list, a
 * split) keeps it; the sure readings are those of the engine, not of this vote.
 */
function assetsReadAlike(rows: ScannedRow[]): void {
  const field = 'asset_description';
  const key = (row: ScannedRow) => `${row.asset_description}\u0000${row.ticker}`;
  const sure = new Set(
    rows
      .filter(
        (row) =>
          row.asset_description !== '' &&
          row.confidence.asset_description >= REVIEW_THRESHOLD.asset_description &&
          row.confidence.ticker >= REVIEW_THRESHOLD.ticker,
      )
      .map(key),
  );
  for (const row of rows) {
    if (!row.reasons.includes(lowConfidence(field)) || !sure.has(key(row))) continue;
    row.confidence.asset_description = ASSET_READ_ELSEWHERE;
    row.confidence.ticker = Math.max(row.confidence.ticker, ASSET_READ_ELSEWHERE);
    row.reasons = row.reasons.filter((reason) => reason !== lowConfidence(field));
    row.needs_review = belowThreshold(row.confidence);
  }
}

/** A sure reading of a name that more sure rows of the document read with other stops or spaces. */
const SPELLING_DISPUTED = 0.6;

/**
 * Sure readings of one name (the same letters and ticker) that differ in their stops or spaces:
 * the filer's software prints a holding's name alike on every row, so at most one of them is
 * right, and the engine is as sure of a space it made up ("MATERIALS, INC" for
 * "MATERIALS,INC", read so at all three scales) as of the print. The spelling more sure rows
 * read stays sure; the others are doubted (all of them on a tie), and the pass that follows may
 * take them for the one left sure.
 */
function sureSpellingsDisputed(rows: ScannedRow[]): void {
  const field = 'asset_description';
  const groups = new Map<string, Map<string, ScannedRow[]>>();
  for (const row of rows) {
    if (row.asset_description === '' || row.confidence.asset_description < REVIEW_THRESHOLD[field]) continue;
    const key = `${nameLetters(row.asset_description)}\u0000${row.ticker}`;
    const spellings = groups.get(key) ?? new Map<string, ScannedRow[]>();
    spellings.set(row.asset_description, [...(spellings.get(row.asset_description) ?? []), row]);
    groups.set(key, spellings);
  }
  for (const spellings of groups.values()) {
    if (spellings.size < 2) continue;
    const counts = [...spellings.values()].map((read) => read.length).sort((a, b) => b - a);
    const most = counts[0] ?? 0;
    const kept = most > (counts[1] ?? 0) ? most : Number.POSITIVE_INFINITY;
    for (const read of spellings.values()) {
      if (read.length === kept) continue;
      for (const row of read) {
        row.confidence.asset_description = Math.min(row.confidence.asset_description, SPELLING_DISPUTED);
        row.confidence.ticker = Math.min(row.confidence.ticker, SPELLING_DISPUTED);
        row.reasons.push(`${field}: other rows read this name with other stops or spaces`);
        row.needs_review = true;
      }
    }
  }
}

/** A name's letters and digits, without its stops and spaces. */
function nameLetters(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9&]/g, '');
}

/** How far (edits) a doubted name may be from the sure reading it is taken for. */
const NEAR_READING = 2;
/** How much farther any other sure reading must be: the nearest must be clearly the one. */
const NEAR_READING_MARGIN = 2;

/**
 * A doubted asset name that is one of the document's sure readings but for its stops and spaces
 * ("ROSS STORES, INC CMN" beside a sure "ROSS STORES,INC CMN"), or but for words the lexicon
 * doubted and would have made that sure reading's word ("UNKED", near LINKED, beside a sure
 * "... LINKED TO BASKET OF INDICES"): the filer's software printed one holding's name alike on
 * every row, and the engine misread it on this one. The sure reading must be within NEAR_READING
 * edits and clearly the nearest, and the ticker the same; a word the lexicon did not doubt, a
 * digit or a share class ("CLASS A" beside "CLASS C") is never changed this way, since another
 * holding's name differs just there.
 */
function assetsNearSureReading(rows: ScannedRow[], lexicon: Lexicon | undefined): void {
  const threshold = REVIEW_THRESHOLD.asset_description;
  const sure = [
    ...new Set(
      rows
        .filter(
          (row) =>
            row.asset_description !== '' &&
            row.confidence.asset_description >= threshold &&
            row.confidence.ticker >= REVIEW_THRESHOLD.ticker,
        )
        .map((row) => `${row.asset_description}\u0000${row.ticker}`),
    ),
  ].map((key) => {
    const [name = '', ticker = ''] = key.split('\u0000');
    return { name, ticker };
  });
  for (const row of rows) {
    if (row.asset_description === '' || row.confidence.asset_description >= threshold) continue;
    const ranked = sure
      .map((reading) => ({ ...reading, edits: distance(row.asset_description, reading.name) }))
      .sort((a, b) => a.edits - b.edits);
    const nearest = ranked[0];
    const next = ranked[1];
    if (!nearest || nearest.edits === 0 || nearest.edits > NEAR_READING || nearest.ticker !== row.ticker)
      continue;
    if (next && next.edits - nearest.edits < NEAR_READING_MARGIN) continue;
    if (!misreadOf(row.asset_description, nearest.name, lexicon)) continue;
    row.asset_description = nearest.name;
    row.confidence.asset_description = ASSET_READ_ELSEWHERE;
    row.confidence.ticker = Math.max(row.confidence.ticker, ASSET_READ_ELSEWHERE);
    row.reasons = row.reasons.filter((reason) => !reason.startsWith('asset_description:'));
    row.needs_review = belowThreshold(row.confidence);
  }
}

/**
 * Whether `read` differs from `sure` only as a misread would: in stops and spaces alone, or word
 * for word in words the lexicon doubted and would have made the sure reading's word.
 */
function misreadOf(read: string, sure: string, lexicon: Lexicon | undefined): boolean {
  const letters = nameLetters;
  if (letters(read) === letters(sure)) return true;
  if (!lexicon) return false;
  const readWords = read.split(' ');
  const sureWords = sure.split(' ');
  if (readWords.length !== sureWords.length) return false;
  return readWords.every((word, index) => {
    const other = sureWords[index] ?? '';
    if (letters(word) === letters(other)) return true;
    const verdict = lexicon.check(word);
    return verdict.kind === 'doubtful' && verdict.near === letters(other);
  });
}

/** An owner code repaired from a poor reading, between two rows that read it surely. */
const OWNER_BETWEEN = 0.85;

/**
 * A doubtful owner code (read with a repair) whose rows before and after both read the same
 * code surely: filers list one owner's trades together, so the repair is taken at OWNER_BETWEEN.
 * The repair must land on exactly the neighbours' code; an unreadable cell stays unread.
 */
function ownersBetweenAgreeing(rows: ScannedRow[]): void {
  const threshold = REVIEW_THRESHOLD.owner;
  rows.forEach((row, index) => {
    const before = rows[index - 1];
    const after = rows[index + 1];
    if (row.owner === null || row.confidence.owner === 0 || row.confidence.owner >= threshold) return;
    if (!before || !after || before.owner !== row.owner || after.owner !== row.owner) return;
    if (before.confidence.owner < threshold || after.confidence.owner < threshold) return;
    row.confidence.owner = OWNER_BETWEEN;
    row.reasons = row.reasons.filter((reason) => reason !== lowConfidence('owner'));
    row.needs_review = belowThreshold(row.confidence);
  });
}
