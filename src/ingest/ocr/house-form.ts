// The House paper Periodic Transaction Report, read from an upright page image. Every layout we
// meet puts its columns in the same order:
//   owner (SP/DC/JT) | asset name | transaction type marks | date of transaction |
//   date notified | amount marks A..J or A..K
// - the Clerk's printed form: checkbox squares in the type and amount columns (Purchase, Sale,
//   [Partial Sale,] Exchange), a printed example row ("Example: Mega Corp. Common Stock") that is
//   no transaction, often handwritten;
// - the filer's own spreadsheet: the same columns ruled by the filer's software, "x" typed in the
//   mark cells, extra columns among the type marks (cap gains over $200, partial transaction),
//   account headings between the rows.
// Cells are located by the ruling lines (./table.ts); a mark column is decided by the ink inside
// its cell, never by reading an "X"; text cells are read one at a time by the engine
// (house-cells.ts). The columns are matched to the form in house-columns.ts, marks judged by their
// ink in cell-ink.ts, and what a page yields is house-page.ts; this finds the rows and reads them.
import { clampRect, crop, type GrayImage, inkShare, isInk, type Rect, rotateQuarter } from './bitmap.js';
import {
  EMPTY_CELL_INK,
  FILLED_INK,
  inkExtent,
  judgeMarks,
  MARK_SURE,
  type MarkReading,
  markInkShare,
  printShapeOf,
  shapeOf,
} from './cell-ink.js';
import type { OcrEngine } from './engine.js';
import { type Band, HEADING_FILL, type Interval, isDated, splitByAnchors } from './house-bands.js';
import { CellReader, inner, TEXT_REACH } from './house-cells.js';
import { fittedTable, type HouseColumns, roleFromHeader, type Span, type TypeRole } from './house-columns.js';
import {
  type CellReading,
  type HousePage,
  type HouseRow,
  type TextReading,
  unreadPage,
} from './house-page.js';
import { findGrid, type Grid, mergeLines, splitAtRules, textLines } from './table.js';

export async function readHousePage(image: GrayImage, engine: OcrEngine): Promise<HousePage> {
  const found = findGrid(image);
  const empty: HousePage = unreadPage('none');
  if (!found) return empty;
  const table = fittedTable(image, found);
  if (!table) return { ...empty, uncertain: ['a table whose columns could not be matched to the form'] };
  const reader = new PageReader(image, table.grid, table.columns, engine);
  const page = await reader.read();
  return table.below ? { ...page, uncertain: [...page.uncertain, table.below] } : page;
}

/** The printed example row of the Clerk's form ("Example: Mega Corp. Common Stock"), misread a little. */
const EXAMPLE_ROW = /exam|mega\s*corp/i;

/** A date cell's reading that is a date, not the column heading's "MM/DD/YY". */
function readsDate(text: string): boolean {
  return /\d/.test(text) && !/mm|dd|yy/i.test(text);
}

/** Rows of checkbox squares that make a page the printed form (see `hasCheckboxes`). */
const BOXED_ROWS = 2;

/**
 * The asset column's heading as every layout prints it, misread a letter or two: "FULL ASSET
 * NAME", "Provide full name, not ticker symbol".
 */
const COLUMN_HEADINGS = /\bfull\s+asset\s+name\b|\bticker\s+symbol\b|\bprovi\w*\s+ful/i;

// ---------------------------------------------------------------------------------------------
// Rows

class PageReader {
  private readonly headings: string[] = [];
  private readonly uncertain: string[] = [];
  private exampleRow = false;
  private layout: HousePage['layout'] = 'spreadsheet';
  /** Typical height of a text line on this page (pixels). */
  private lineHeight = 30;

  private readonly cells: CellReader;

  constructor(
    private readonly image: GrayImage,
    private readonly grid: Grid,
    private readonly columns: HouseColumns,
    private readonly engine: OcrEngine,
  ) {
    this.cells = new CellReader(grid, engine);
  }

  async read(): Promise<HousePage> {
    const { grid, columns } = this;
    // Text lines are found in the text columns only (owner, asset, dates): the marks of a
    // spreadsheet sit high or low in their cells and would join one row's line to the next.
    const lines = mergeLines(
      splitAtRules(
        [
          ...textLines(grid, {
            left: columns.owner?.left ?? columns.asset.left,
            right: columns.asset.right,
            top: grid.top,
            bottom: grid.bottom,
          }),
          ...textLines(grid, {
            left: columns.date.left,
            right: columns.notification.right,
            top: grid.top,
            bottom: grid.bottom,
          }),
        ],
        grid.rules.map((rule) => rule.position),
      ),
    );
    const bands = lines
      .filter((line) => line.bottom - line.top >= 8)
      .map((line) => this.measureBand(line.top, line.bottom));
    const heights = bands.map((band) => band.bottom - band.top).sort((a, b) => a - b);
    this.lineHeight = heights[Math.floor(heights.length / 2)] ?? 30;
    const intervals = this.intervals(bands);
    const layout = this.hasCheckboxes() ? 'clerk_form' : 'spreadsheet';
    this.layout = layout;
    await this.readTypeHeaders(intervals);

    const rows: HouseRow[] = [];
    let heading: string | null = null;
    let bodyStarted = false;
    let nothingToReport = false;
    let seeAttached = false;
    let previousRowInterval = -2;
    for (let index = 0; index < intervals.length; index++) {
      const interval = intervals[index] as Interval;
      const anchors = interval.bands.filter(isDated);
      const assetInk = interval.bands.some((band) => band.asset > EMPTY_CELL_INK);
      const filled = interval.bands.some((band) => band.filled > HEADING_FILL);
      if (anchors.length === 0) {
        if (!assetInk) continue;
        const text = await this.readAsset(interval.top, interval.bottom, interval.bands);
        if (text.text === '') continue;
        if (/nothing\s+to\s+report/i.test(text.text)) {
          nothingToReport = true;
          continue;
        }
        if (/see\s+(the\s+)?attach/i.test(text.text)) {
          seeAttached = true;
          continue;
        }
        // A blacked-out row with a name is an account heading, in the header's wake or not.
        if (filled) {
          heading = text.text;
          this.headings.push(text.text);
          continue;
        }
        if (!bodyStarted) {
          // The printed example ends the form's header even when its dates are too small to
          // find (the rows under it are then the body, whatever their dates read).
          if (layout === 'clerk_form' && EXAMPLE_ROW.test(text.text)) {
            this.exampleRow = true;
            bodyStarted = true;
            continue;
          }
          // A first row whose date cells were left blank is still marked as a trade is (a type,
          // one amount column; no undated header line of the shared scans is): it starts the
          // body, and is read below as any undated line with marks (the page said uncertain)
          // rather than lost to the header with nothing said.
          if (COLUMN_HEADINGS.test(text.text) || !this.markedAsATrade(interval.top, interval.bottom))
            continue;
          bodyStarted = true;
        }
        const marks = this.readMarks(columns.types, interval.top, interval.bottom);
        const ownerInk = interval.bands.some((band) => band.owner > EMPTY_CELL_INK);
        const last = rows[rows.length - 1];
        if (layout === 'clerk_form' && last && previousRowInterval === index - 1) {
          // On the printed form a long name is written on to the next grid row.
          last.asset = joinAsset(last.asset, text);
          last.assetLines += 1;
          last.notes.push('asset name continued on the next grid row');
          last.region = union(last.region, {
            x: grid.left,
            y: interval.top,
            width: 0,
            height: interval.bottom - interval.top,
          });
          continue;
        }
        if (marks.marked.length === 0) {
          heading = text.text;
          this.headings.push(text.text);
          if (ownerInk) this.uncertain.push(`a line with an owner but no date: "${text.text}"`);
          continue;
        }
        // Read as a row of its own, like a line with one date.
        this.uncertain.push(`a line with marks but no date: "${text.text}"`);
      } else if (!bodyStarted) {
        if (anchors.length > 1) {
          // The rule under the column headings was not found (a thick rule the scan broke up):
          // the headings and the first rows share one interval. Each dated line is judged on
          // its own, so that the headings' "MM/DD/YY" does not take the rows below it along.
          intervals.splice(index, 1, ...splitByAnchors(interval));
          index--;
          continue;
        }
        // The header ends at the first line whose date cell holds a date, or, its date misread,
        // whose notification cell does (a heading's cells hold words): the first row is not lost
        // to the header for a misread date. The Clerk's printed example row holds dates too: it is
        // known by its words, or on the printed form by having no checkbox squares.
        const first = anchors[0] as Band;
        const dateText = await this.cells.readCell(columns.date, first.top - 3, first.bottom + 3, 'date');
        const notified = readsDate(dateText.text)
          ? null
          : await this.cells.readCell(columns.notification, first.top - 3, first.bottom + 3, 'date');
        if (notified && !(readsDate(notified.text) && /\d\D*\d\D*\d/.test(notified.text))) continue;
        bodyStarted = true;
        const asset = await this.readAsset(interval.top, interval.bottom, interval.bands);
        const unboxed = layout === 'clerk_form' && !this.rowHasBoxes(interval.top, interval.bottom);
        if (EXAMPLE_ROW.test(asset.text) || unboxed) {
          this.exampleRow = true;
          continue;
        }
      }
      if (layout === 'clerk_form' && !assetInk && this.unmarked(interval.top, interval.bottom)) {
        // No name and no mark: an empty row of the printed form, dated only by what is left of
        // a wavy row rule in its date cells. A trade has a name and a type on the form.
        continue;
      }
      if (anchors.length <= 1) {
        rows.push(
          await this.readRow(rows.length + 1, interval.top, interval.bottom, interval.bands, heading),
        );
      } else {
        // Several dated lines between two rules: one row each. On the printed form, a line with
        // no name read and no mark is no row (the column headings' "DATE OF TRANS-ACTION" under
        // their "FULL ASSET NAME", when a header line with a digit started the body early), but
        // is said unless the headings are found with it: something was written there.
        for (const part of splitByAnchors(interval)) {
          const row = await this.readRow(rows.length + 1, part.top, part.bottom, part.bands, heading);
          const blank =
            row.asset.text === '' && row.types.marked.length === 0 && row.amounts.marked.length === 0;
          if (layout === 'clerk_form' && blank) {
            this.uncertain.push('a dated line with no name read and no mark, not taken for a row');
            continue;
          }
          if (this.startsElsewhere(part.bands))
            row.notes.push('an undated line between the rows taken into the asset name');
          rows.push(row);
        }
      }
      previousRowInterval = index;
      if (this.dropHeader(rows)) {
        bodyStarted = false;
        heading = null;
      }
    }
    return {
      understood: true,
      layout,
      columns,
      rows,
      headings: this.headings,
      exampleRow: this.exampleRow,
      nothingToReport,
      seeAttached,
      uncertain: this.uncertain,
    };
  }

  /**
   * When a row read so far is the table's column headings ("FULL ASSET NAME / Provide full name,
   * not ticker symbol"), taken for a row because its date cell's "(MM/DD/YY)" was misread as a
   * date: it and every row above it were the form's header (on the Clerk's form, the filer's
   * name, state and the questions above the table), so they are dropped with what was noted about
   * them, and the body starts again below it. Whether anything was dropped.
   */
  private dropHeader(rows: HouseRow[]): boolean {
    let last = -1;
    rows.forEach((row, index) => {
      if (COLUMN_HEADINGS.test(row.asset.text)) last = index;
    });
    if (last < 0) return false;
    rows.splice(0, last + 1);
    rows.forEach((row, index) => {
      row.order = index + 1;
    });
    this.uncertain.length = 0;
    this.headings.length = 0;
    return true;
  }

  /** Whether the row's amount cells hold printed squares (the example row's do not). */
  private rowHasBoxes(top: number, bottom: number): boolean {
    const boxed = this.columns.amounts.filter((span) => {
      const ring = inkShare(this.grid.clean, inner(span, top, bottom, 4, 3));
      return ring > 0.08;
    }).length;
    return boxed >= this.columns.amounts.length / 2;
  }

  /**
   * Whether a row of several lines between two rules holds an undated line of name that does not
   * start where its dated line's name does. No rule parts the lines here: the filer's software
   * sets a wrapped name's lines flush, whereas an account heading typed over the next rows may
   * stand anywhere (8220834's last page types one left of the names).
   */
  private startsElsewhere(bands: readonly Band[]): boolean {
    const anchor = bands.find(isDated);
    const start = anchor ? this.nameStart(anchor) : null;
    return bands.some((band) => {
      if (isDated(band) || band.asset <= EMPTY_CELL_INK) return false;
      const own = this.nameStart(band);
      return start === null || own === null || Math.abs(own - start) > SAME_START;
    });
  }

  /** The leftmost inked pixel column of a band's asset cell (clean page), or null without ink. */
  private nameStart(band: Band): number | null {
    const { x, y, width, height } = inner(this.columns.asset, band.top, band.bottom, 4, 0);
    const [left, top] = [Math.round(x), Math.round(y)];
    const extent = inkExtent(Math.ceil(x + width - left), Math.ceil(y + height - top), (column, row) =>
      isInk(this.grid.clean, left + column, top + row),
    );
    return extent ? left + extent.left : null;
  }

  private measureBand(top: number, bottom: number): Band {
    const { columns } = this;
    const share = (span: Span | null) =>
      span === null ? 0 : inkShare(this.grid.clean, inner(span, top, bottom, 4, 0));
    const markSpans = [...columns.types, ...columns.amounts];
    const filledCount = markSpans.filter(
      (span) => inkShare(this.image, inner(span, top, bottom, 3, 0)) > 0.8,
    ).length;
    return {
      top,
      bottom,
      owner: share(columns.owner),
      asset: share(columns.asset),
      date: share(columns.date),
      notification: share(columns.notification),
      filled: markSpans.length === 0 ? 0 : filledCount / markSpans.length,
    };
  }

  /** Text lines grouped by the row rules between them. */
  private intervals(bands: Band[]): Interval[] {
    const rules = this.grid.rules.map((rule) => rule.position);
    const edges = [
      this.grid.top,
      ...rules.filter((y) => y > this.grid.top && y < this.grid.bottom),
      this.grid.bottom,
    ];
    const intervals: Interval[] = [];
    for (let i = 0; i + 1 < edges.length; i++) {
      const top = edges[i] ?? 0;
      const bottom = edges[i + 1] ?? 0;
      if (bottom - top < 10) continue;
      intervals.push({ top, bottom, bands: [] });
    }
    for (const band of bands) {
      const middle = (band.top + band.bottom) / 2;
      const interval = intervals.find((candidate) => middle >= candidate.top && middle < candidate.bottom);
      if (interval) interval.bands.push(band);
    }
    return intervals.filter((interval) => interval.bands.length > 0);
  }

  /**
   * Printed checkbox squares: mark cells of unmarked rows still hold a square's outline. The form
   * is boxed when at least BOXED_ROWS of its table's rows have a third of their amount cells so
   * (a square the scan broke, or ticked, or drawn twice out of register, is not counted; the rows
   * above the table, its headings and the printed example have none). A spreadsheet's rows have
   * none either, but for a heading's stray stroke.
   */
  private hasCheckboxes(): boolean {
    const { columns, grid } = this;
    let boxedRows = 0;
    const rules = grid.rules.map((rule) => rule.position).filter((y) => y > grid.top);
    for (let i = 0; i + 1 < rules.length; i++) {
      const top = rules[i] ?? 0;
      const bottom = rules[i + 1] ?? 0;
      if (bottom - top < 25 || bottom - top > 120) continue;
      const boxed = columns.amounts.filter((span) => {
        const ring = inkShare(grid.clean, inner(span, top, bottom, 4, 3));
        const centre = inkShare(grid.clean, inner(span, top, bottom, 0.3, 0.3));
        return ring > 0.08 && centre < ring / 2;
      }).length;
      if (boxed * 3 >= columns.amounts.length) boxedRows++;
      if (boxedRows >= BOXED_ROWS) return true;
    }
    return false;
  }

  private async readTypeHeaders(intervals: Interval[]): Promise<void> {
    const { columns, grid } = this;
    const firstDated = intervals.find((interval) => interval.bands.some(isDated));
    const bottom = firstDated?.top ?? grid.top;
    if (bottom - grid.top < 20) return;
    const roles: Array<TypeRole | null> = [];
    for (const span of columns.types) {
      const cell = crop(grid.clean, inner(span, grid.top, bottom, 2, 2));
      const across = await this.engine.read(cell, { mode: 'block' });
      let role = roleFromHeader(across.text);
      if (role === null) {
        // Narrow columns print their heading sideways, reading upwards.
        const upward = await this.engine.read(rotateQuarter(cell, 1), { mode: 'block' });
        role = roleFromHeader(upward.text);
      }
      roles.push(role);
    }
    const known = roles.filter((role) => role !== null).length;
    // Trust the headings only when most of them were read; a single misread must not reorder.
    if (known < Math.ceil(columns.types.length / 2)) return;
    columns.types.forEach((span, index) => {
      const role = roles[index];
      if (role) span.role = role;
    });
  }

  private async readRow(
    order: number,
    top: number,
    bottom: number,
    bands: Band[],
    heading: string | null,
  ): Promise<HouseRow> {
    const { columns, grid } = this;
    const anchor = bands.find(isDated) ?? bands[0];
    const lineTop = anchor?.top ?? top;
    const lineBottom = anchor?.bottom ?? bottom;
    const lineFrom = Math.max(top, lineTop - 6);
    const lineTo = Math.min(bottom, lineBottom + 6);
    const owner =
      columns.owner === null
        ? { text: '', confidence: 1, inked: false }
        : await this.cells.readCell(columns.owner, lineFrom, lineTo, 'owner');
    const ownerShape =
      columns.owner === null || !owner.inked
        ? null
        : shapeOf(crop(grid.clean, inner(columns.owner, lineFrom, lineTo, 3, 0)));
    const asset = await this.readAsset(top, bottom, bands);
    const date = await this.cells.readCell(columns.date, lineFrom, lineTo, 'date');
    const notification = await this.cells.readCell(columns.notification, lineFrom, lineTo, 'date');
    const printShape = (span: Span, cell: CellReading) =>
      cell.inked ? printShapeOf(crop(grid.clean, inner(span, lineFrom, lineTo, 3, 0))) : null;
    return {
      order,
      region: clampRect(this.image, {
        x: grid.left,
        y: top,
        width: grid.right - grid.left,
        height: bottom - top,
      }),
      owner,
      ownerShape,
      asset,
      assetLines: Math.max(1, bands.filter((band) => band.asset > EMPTY_CELL_INK).length),
      date,
      dateShape: printShape(columns.date, date),
      notification,
      notificationShape: printShape(columns.notification, notification),
      types: this.readMarks(columns.types, top, bottom),
      amounts: this.readMarks(columns.amounts, top, bottom),
      heading,
      notes: [],
    };
  }

  /**
   * A type clearly marked and exactly one amount column clearly marked (a speck in another is
   * not a mark): how a trade's row is marked.
   */
  private markedAsATrade(top: number, bottom: number): boolean {
    const { columns } = this;
    const clear = (shares: readonly number[]) =>
      shares.filter((share) => share >= MARK_SURE && share < FILLED_INK);
    return (
      clear(this.readMarks(columns.types, top, bottom).shares).length > 0 &&
      clear(this.readMarks(columns.amounts, top, bottom).shares).length === 1
    );
  }

  /** Whether no type and no amount cell between two y positions is marked. */
  private unmarked(top: number, bottom: number): boolean {
    const { columns } = this;
    return (
      this.readMarks(columns.types, top, bottom).marked.length === 0 &&
      this.readMarks(columns.amounts, top, bottom).marked.length === 0
    );
  }

  /** Ink in each mark cell between two y positions, and which cells are marked. */
  private readMarks(spans: readonly Span[], top: number, bottom: number): MarkReading {
    // Inside the cell, clear of its borders and of a printed square's outline.
    const shares = spans.map((span) =>
      markInkShare(this.grid.clean, inner(span, top, bottom, 0.24, 0.18), this.layout === 'clerk_form'),
    );
    return judgeMarks(shares);
  }

  private async readAsset(top: number, bottom: number, bands: Band[]): Promise<CellReading> {
    const span = this.columns.asset;
    const inked = bands.filter((band) => band.asset > EMPTY_CELL_INK);
    if (inked.length === 0) return { text: '', confidence: 1, inked: false };
    const parts: CellReading[] = [];
    for (let i = 0; i < inked.length; i++) {
      const band = inked[i] as Band;
      // A little white above and below the letters, never a neighbouring line's descenders. The
      // band was measured on the page cleared by position, where letters standing against a rule
      // lost their tops: the cell is read from the page cleared by shape (grid.text), up to the
      // rules, so those tops are read too.
      const from = Math.max(
        top - TEXT_REACH,
        band.top - 5 - TEXT_REACH,
        (inked[i - 1]?.bottom ?? -Infinity) + 1,
      );
      const to = Math.min(
        bottom + TEXT_REACH,
        band.bottom + 5 + TEXT_REACH,
        (inked[i + 1]?.top ?? Infinity) - 1,
      );
      // Two lines of a wrapped name can touch: a band much taller than a line is read as a block.
      const mode = band.bottom - band.top > this.lineHeight * 1.6 ? 'block' : 'line';
      parts.push(await this.cells.readName(inner(span, from, to, 3, 0), mode, this.lineHeight));
    }
    const words = parts.flatMap((part) => part.words ?? []);
    return {
      text: parts
        .map((part) => part.text)
        .filter((text) => text !== '')
        .join(' '),
      confidence: Math.min(...parts.map((part) => part.confidence)),
      inked: true,
      agreement: Math.min(...parts.map((part) => part.agreement ?? 1)),
      words,
      ...joinedReadings(parts),
    };
  }
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  const right = Math.max(a.x + a.width, b.x + b.width);
  const bottom = Math.max(a.y + a.height, b.y + b.height);
  return { x, y, width: right - x, height: bottom - y };
}

function joinAsset(a: CellReading, b: CellReading): CellReading {
  return {
    text: `${a.text} ${b.text}`.trim(),
    confidence: Math.min(a.confidence, b.confidence),
    inked: a.inked || b.inked,
    ...joinedReadings([a, b]),
  };
}

/**
 * The readings of a name read in parts (its lines), joined scale by scale: the name as each
 * scale read it. A part all of whose readings gave one text counts as its voted reading (the
 * surest of them) at every scale, so that one scale's low score on a line the others read alike
 * does not weigh on the whole name; so does a part without readings.
 */
function joinedReadings(parts: readonly CellReading[]): Pick<CellReading, 'readings'> {
  const count = Math.max(0, ...parts.map((part) => part.readings?.length ?? 0));
  if (count === 0) return {};
  const voted = (part: CellReading): TextReading => ({ text: part.text, words: part.words ?? [] });
  const unanimous = (part: CellReading) =>
    new Set((part.readings ?? []).map((reading) => reading.text)).size <= 1;
  const readings: TextReading[] = [];
  for (let k = 0; k < count; k++) {
    const each = parts.map((part) => (unanimous(part) ? voted(part) : (part.readings?.[k] ?? voted(part))));
    readings.push({
      text: each
        .map((reading) => reading.text)
        .filter((text) => text !== '')
        .join(' '),
      words: each.flatMap((reading) => reading.words),
    });
  }
  return { readings };
}

/** How far apart (pixels) two lines of one name may start: a scan's jitter, not a character. */
const SAME_START = 8;
