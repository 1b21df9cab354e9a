// The lines of text of a House form's table (bands) and the intervals between its row rules that
// hold them: which lines are dated, which are account headings, and how several dated lines
// between two rules are parted into rows.
import { EMPTY_CELL_INK } from './cell-ink.js';

export interface Band {
  top: number;
  bottom: number;
  /** Ink in each cell of interest on this band (clean page). */
  owner: number;
  asset: number;
  date: number;
  notification: number;
  /** Share of the mark columns that are filled black: a heading band of a spreadsheet. */
  filled: number;
}

export interface Interval {
  top: number;
  bottom: number;
  bands: Band[];
}

/**
 * A band with ink in its date cell, the line a row is anchored on. Not a blacked-out band (an
 * account heading of a spreadsheet): its date cell is filled, not written.
 */
export function isDated(band: Band): boolean {
  return band.date > EMPTY_CELL_INK && band.filled <= HEADING_FILL;
}

/** Share of a band's mark cells filled black from which it is an account heading. */
export const HEADING_FILL = 0.3;

/**
 * An interval with several dated lines as one interval per dated line: an undated line joins the
 * one below it (the first line of a wrapped name) or, at the end, the one above. Each reaches
 * halfway to its neighbours: marks sit a little above or below their row's text.
 */
export function splitByAnchors(interval: Interval): Interval[] {
  const groups = groupByAnchors(interval.bands);
  return groups.map((group, g) => {
    const previous = groups[g - 1];
    const next = groups[g + 1];
    const first = group[0]?.top ?? interval.top;
    const last = group[group.length - 1]?.bottom ?? interval.bottom;
    const top = previous ? ((previous[previous.length - 1]?.bottom ?? first) + first) / 2 : interval.top;
    const bottom = next ? (last + (next[0]?.top ?? last)) / 2 : interval.bottom;
    return { top: Math.round(top), bottom: Math.round(bottom), bands: group };
  });
}

/** Bands between two rules split into rows at each dated band; undated bands join the next row. */
function groupByAnchors(bands: readonly Band[]): Band[][] {
  const groups: Band[][] = [];
  let pending: Band[] = [];
  for (const band of bands) {
    pending.push(band);
    if (isDated(band)) {
      groups.push(pending);
      pending = [];
    }
  }
  if (pending.length > 0) {
    const last = groups[groups.length - 1];
    if (last) last.push(...pending);
    else groups.push(pending);
  }
  return groups;
}
