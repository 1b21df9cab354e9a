// Turning a page upright. Many paper filings are scanned sideways (the landscape form fed in
// portrait) and some upside down. Two cues, cheapest first:
// - the axis: a form's table is ruled wider than tall, so its longest lines run along the text;
//   when the vertical rules outweigh the horizontal ones, the page lies on its side;
// - the direction: the engine reads a strip of printed text both ways up; the reading it is
//   surer of wins. (Whole-page orientation detection of the engine misjudged these scans.)
import {
  clampRect,
  crop,
  type GrayImage,
  INK_THRESHOLD,
  inkShare,
  type Rect,
  rotateQuarter,
} from './bitmap.js';
import type { OcrEngine } from './engine.js';
import { horizontalLines, textBands, verticalLines } from './lines.js';

export interface Orientation {
  /** Clockwise quarter turns that make the page upright. */
  quarterTurns: number;
  /** How sure the direction test was, 0..1 (1 when the two readings differ widely). */
  certainty: number;
}

/**
 * The length of a page's long rules in each direction: the third longest, so that one stray
 * stroke (a signature, a fold) does not decide.
 */
export function ruledLengths(image: GrayImage): { horizontal: number; vertical: number } {
  const options = { minLength: 200, maxGap: 6 };
  const third = (lines: Array<{ start: number; end: number }>) =>
    lines.map((line) => line.end - line.start).sort((a, b) => b - a)[2] ?? 0;
  return {
    horizontal: third(horizontalLines(image, options)),
    vertical: third(verticalLines(image, options)),
  };
}

/**
 * Whether the text runs along the page's x axis (0) or its y axis (1): a form's table is ruled
 * wider than tall, so its row rules are its longest. Null when the page has no table.
 */
export function textAxis(image: GrayImage): 0 | 1 | null {
  const { horizontal, vertical } = ruledLengths(image);
  if (Math.max(horizontal, vertical) < Math.min(image.width, image.height) * 0.4) return null;
  return vertical > horizontal ? 1 : 0;
}

/**
 * Cells of the page's ruled grid that hold a line of text: between two horizontal rules a text
 * line apart, wide enough for words, with some ink but not filled. Read alone, without the rules
 * around them, they are what the engine reads best, the right way up or not.
 */
export function textCells(image: GrayImage, limit = 4): Rect[] {
  const rows = horizontalLines(image, { minLength: Math.round(image.width * 0.15), maxGap: 6 });
  const columns = verticalLines(image, { minLength: 40, maxGap: 6 });
  const cells: Array<{ rect: Rect; ink: number }> = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const top = rows[i];
    const bottom = rows[i + 1];
    if (!top || !bottom) continue;
    const y0 = top.position + top.thickness / 2 + 3;
    const y1 = bottom.position - bottom.thickness / 2 - 3;
    if (y1 - y0 < 18 || y1 - y0 > 130) continue;
    const edges = columns
      .filter((column) => column.start <= y0 + 4 && column.end >= y1 - 4)
      .map((column) => column.position)
      .filter((x) => x > Math.max(top.start, bottom.start) && x < Math.min(top.end, bottom.end));
    const xs = [Math.max(top.start, bottom.start), ...edges, Math.min(top.end, bottom.end)];
    for (let j = 0; j + 1 < xs.length; j++) {
      const x0 = (xs[j] ?? 0) + 5;
      const x1 = (xs[j + 1] ?? 0) - 5;
      if (x1 - x0 < 200) continue;
      const rect = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
      const ink = inkShare(image, rect);
      if (ink > 0.015 && ink < 0.3) cells.push({ rect, ink });
    }
  }
  return cells
    .sort((a, b) => b.ink - a.ink)
    .slice(0, limit)
    .map((cell) => cell.rect);
}

async function readingScore(engine: OcrEngine, images: GrayImage[]): Promise<number> {
  let score = 0;
  for (const image of images) {
    const result = await engine.read(image, { mode: 'line' });
    // Confident words of three letters or more: text read upside down comes out as short scraps.
    for (const word of result.words) {
      if (/[A-Za-z]{3,}/.test(word.text)) score += word.confidence * word.confidence;
    }
  }
  return score;
}

/**
 * Lines of running text (a form's page of notes has no ruled cells): runs of pixel rows with ink
 * across a good part of the page between runs without, a text line tall, each taken as wide as
 * its ink, the widest first. Turned a quarter from upright, a page's lines cross every pixel row
 * and none is found.
 */
export function textLines(image: GrayImage, limit = 4): Rect[] {
  const { width, height } = image;
  const bands = textBands(
    image,
    { left: 0, right: width, top: 0, bottom: height - 1 },
    { minInk: Math.round(width * TEXT_ROW_INK), mergeGap: 0, minHeight: TEXT_LINE.min },
  );
  const lines: Array<{ rect: Rect; width: number }> = [];
  for (const band of bands) {
    const tall = band.bottom - band.top + 1;
    if (tall > TEXT_LINE.max) continue;
    const columns = inkedColumns(image, { x: 0, y: band.top, width, height: tall });
    if (columns.last - columns.first < 200) continue;
    const rect = {
      x: columns.first - 6,
      y: band.top - 6,
      width: columns.last - columns.first + 12,
      height: tall + 12,
    };
    lines.push({ rect: clampRect(image, rect), width: columns.last - columns.first });
  }
  return lines
    .sort((a, b) => b.width - a.width)
    .slice(0, limit)
    .map((line) => line.rect);
}

/**
 * Share of a page's width a pixel row of text inks at least (pixels with ink beside them): more
 * than a few rules crossing it.
 */
const TEXT_ROW_INK = 0.011;
/** Heights of a printed text line in pixel rows at the render resolution, descenders included. */
const TEXT_LINE = { min: 14, max: 70 };

function inkedColumns(image: GrayImage, band: Rect): { first: number; last: number } {
  let first = band.x + band.width;
  let last = band.x - 1;
  for (let y = band.y; y < band.y + band.height; y++) {
    const row = y * image.width;
    for (let x = band.x; x < band.x + band.width; x++) {
      if ((image.data[row + x] ?? 255) >= INK_THRESHOLD) continue;
      if (x < first) first = x;
      if (x > last) last = x;
    }
  }
  return { first, last };
}

/** Samples to read when the page has no ruled text cells: bands of its upper and lower part. */
function fallbackSamples(image: GrayImage): Rect[] {
  const height = Math.round(image.height * 0.06);
  return [0.05, 0.12, 0.85].map((top) => ({
    x: Math.round(image.width * 0.05),
    y: Math.round(image.height * top),
    width: Math.round(image.width * 0.9),
    height,
  }));
}

/**
 * The samples read first: the page's ruled text cells, else bands across it. `ruled` collects
 * the turns whose page had cells, for `furtherSamples`.
 */
function firstSamples(ruled: Set<number>): SamplePicker {
  return (upright, turns) => {
    const cells = textCells(upright);
    if (cells.length === 0) return fallbackSamples(upright);
    ruled.add(turns);
    return cells;
  };
}

/**
 * What else is read when the first samples said too little: the page's lines of running text,
 * and the bands when they were not read first (the turns in `ruled`). The lines come second: on
 * a page turned a degree or more a ruled form's lines slope across several pixel rows and run
 * together, and read first they took a skewed spreadsheet for upside down.
 */
function furtherSamples(ruled: ReadonlySet<number>): SamplePicker {
  return (upright, turns) =>
    ruled.has(turns)
      ? [...textLines(upright, RULED_PAGE_LINES), ...fallbackSamples(upright)]
      : textLines(upright);
}

/**
 * Lines read of a ruled page, besides its bands: a spreadsheet's rows are lines as wide as the
 * page, each a long read, and most of its pages get this far (their inkiest cells are figures).
 */
const RULED_PAGE_LINES = 2;

/** The rectangles to read of a page turned `turns` quarters, `upright` the page turned so. */
type SamplePicker = (upright: GrayImage, turns: number) => Rect[];

/**
 * A direction score this high is full evidence: about five words of three letters or more read
 * surely. Below it the difference between the two readings says little (a cell of amounts holds no
 * such word either way up, and one scrap read from it upside down would decide).
 */
const FULL_EVIDENCE = 4;

/** Each candidate turn's score, from the samples `pick` chooses on the page turned so. */
async function directionScores(
  image: GrayImage,
  engine: OcrEngine,
  candidates: readonly number[],
  pick: SamplePicker,
): Promise<Map<number, number>> {
  const scores = new Map<number, number>();
  // Candidates come in pairs half a turn apart: one set of cells, read both ways up.
  for (const turns of candidates.filter((turn) => !candidates.includes(turn - 2))) {
    const upright = rotateQuarter(image, turns);
    const cells = pick(upright, turns).map((rect) => crop(upright, rect));
    scores.set(turns, await readingScore(engine, cells));
    scores.set(
      (turns + 2) % 4,
      await readingScore(
        engine,
        cells.map((cell) => rotateQuarter(cell, 2)),
      ),
    );
  }
  return scores;
}

/**
 * The turn that makes the page upright. `hint` (the previous page's turn) is tried first: pages
 * of one filing are usually scanned alike. The certainty is the surer reading's lead over the
 * other, counted against full evidence when the readings hold less.
 */
export async function detectOrientation(
  image: GrayImage,
  engine: OcrEngine,
  hint: number | null = null,
): Promise<Orientation> {
  const axis = textAxis(image);
  const candidates = axis === null ? [0, 1, 2, 3] : axis === 1 ? [1, 3] : [0, 2];
  if (hint !== null && candidates.includes(hint)) {
    candidates.sort((a, b) => (a === hint ? -1 : b === hint ? 1 : 0));
  }
  const ruled = new Set<number>();
  const scores = await directionScores(image, engine, candidates, firstSamples(ruled));
  if (Math.max(...scores.values()) < FULL_EVIDENCE) {
    // The samples held too few words to go by (ruled cells of figures): the page's other text
    // is read as well.
    const more = await directionScores(image, engine, candidates, furtherSamples(ruled));
    for (const [turns, score] of more) scores.set(turns, (scores.get(turns) ?? 0) + score);
  }
  // Map order is the candidates' (the hint first), and a stable sort keeps it among equals.
  const ranked = [...scores].map(([turns, score]) => ({ turns, score }));
  ranked.sort((a, b) => b.score - a.score);
  const best = ranked[0] ?? { turns: 0, score: 0 };
  const second = ranked[1]?.score ?? 0;
  const certainty =
    best.score <= 0 ? 0 : Math.min(1, (best.score - second) / Math.max(best.score, FULL_EVIDENCE));
  return { quarterTurns: best.turns, certainty };
}
