// What reading one page of a House paper PTR yields: each row's cells as read (text with the
// engine's confidence, marks with their ink) and what the page says beside its rows. The reader is
// house-form.ts; document-rows.ts, document-votes.ts and scanned-rows.ts turn these into trades.
import type { Rect } from './bitmap.js';
import type { MarkReading } from './cell-ink.js';
import type { HouseColumns } from './house-columns.js';

export interface CellReading {
  text: string;
  /** The engine's confidence in the text, 0..1 (1 for a cell without ink: nothing to misread). */
  confidence: number;
  /** Whether the cell holds ink at all. */
  inked: boolean;
  /** Share of the cell's readings (at several scales) that gave this text, 0..1. */
  agreement?: number;
  /** The words read, each with the engine's confidence (0..1). */
  words?: Array<{ text: string; confidence: number }>;
  /**
   * A date cell's text as read again from differently prepared (hard black-and-white) images of
   * it: readings that do not share the first ones' rendering, whose agreement is evidence.
   */
  crossReads?: string[];
  /**
   * Every reading of a voted text cell (one per scale and black-and-white version, in the order read), the dissenting ones
   * included: what the others said is evidence on the chosen one.
   */
  readings?: TextReading[];
  /**
   * Marks the engine read between the chosen reading's words that hold no letter or digit ("§"
   * for a "5"), with the word before each: kept with a ruled cell's readings (readTextCell).
   */
  marks?: Array<{ after: string; text: string }>;
}

/**
 * How many of a name cell's readings are of the grey rendering (at three scales): they come
 * first in `readings`, the black-and-white versions after them.
 */
export const GREY_READINGS = 3;

/** One reading of a text cell: its text and words with the engine's confidences. */
export interface TextReading {
  text: string;
  words: Array<{ text: string; confidence: number }>;
}

export interface HouseRow {
  /** Position in the page's reading order, 1-based. */
  order: number;
  /** The row on the upright page (pixels), for the reviewer's crop. */
  region: Rect;
  owner: CellReading;
  /**
   * The owner cell's ink reduced to a 32x12 bit pattern (hex): typed codes look alike across a
   * document, so rows can agree on what one shape says (scanned-rows.ts).
   */
  ownerShape: string | null;
  asset: CellReading;
  /** Lines the asset name occupies (a long name wraps onto a second line). */
  assetLines: number;
  date: CellReading;
  /**
   * The date cells' print, finer than ownerShape (printShapeOf): one text typed by one filer's
   * software prints alike on every row, so rows can agree on what a date's print says
   * (datePrintConsensus). Absent on rows read before it was kept.
   */
  dateShape?: string | null;
  notification: CellReading;
  notificationShape?: string | null;
  types: MarkReading;
  amounts: MarkReading;
  /** The account heading the row sits under, if the filer groups rows by account. */
  heading: string | null;
  /** What made this row unusual (an asset name continued from the next grid row ...). */
  notes: string[];
}

/** A page of a scanned form: whether its table was understood, its rows, and what it says beside them. */
export interface FormPage<Layout extends string, Row, Columns = null> {
  /** Whether a ruled table was found and its columns understood. */
  understood: boolean;
  layout: Layout;
  columns: Columns;
  rows: Row[];
  headings: string[];
  exampleRow: boolean;
  /** The filer wrote that there is nothing to report. */
  nothingToReport: boolean;
  /** The filer points to attached pages ("Please see the attached"). */
  seeAttached: boolean;
  /** Why the number of rows on this page is not certain (a line that is neither row nor heading). */
  uncertain: string[];
  /** The filer's cells the page holds, as read (the OGE 278-T's; see oge-filer.ts). */
  filer?: FilerReading;
}

/** The cells that name a form's filer, each as read, and the receiving office's stamp. */
export type FilerReading = Partial<
  Record<'last' | 'first' | 'middle' | 'full' | 'position' | 'agency' | 'received', CellReading>
>;

/** A page of `layout` with nothing read on it yet (not understood until its table is). */
export function unreadPage<Layout extends string, Row>(layout: Layout): FormPage<Layout, Row> {
  return {
    understood: false,
    layout,
    columns: null,
    rows: [],
    headings: [],
    exampleRow: false,
    nothingToReport: false,
    seeAttached: false,
    uncertain: [],
  };
}

export type HousePage = FormPage<'clerk_form' | 'spreadsheet' | 'none', HouseRow, HouseColumns | null>;
