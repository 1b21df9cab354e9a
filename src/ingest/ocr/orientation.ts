// Turning a page upright. Many paper filings are scanned sideways (the landscape form fed in
// portrait) and some upside down. Two cues, cheapest first:
// - the axis: a form's table is ruled wider than tall, so its longest lines run along the text;
//   when the vertical rules outweigh the horizontal ones, the page lies on its side;
// - the direction: the engine reads a strip of printed text both ways up; the reading it is
//   surer of wins. (Whole-page orientation detection of the engine misjudged these scans.)
import { crop, type GrayImage, inkShare, type Rect, rotateQuarter } from './bitmap.js';
import type { OcrEngine } from './engine.js';
import { horizontalLines, verticalLines } from './lines.js';

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
 * The turn that makes the page upright. `hint` (the previous page's turn) is tried first: pages
 * of one filing are usually scanned alike.
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
  const scores: Array<{ turns: number; score: number }> = [];
  // Candidates come in pairs half a turn apart: one set of cells, read both ways up.
  for (const turns of candidates.filter((turn) => !candidates.includes(turn - 2))) {
    const upright = rotateQuarter(image, turns);
    const found = textCells(upright);
    const rects = found.length > 0 ? found : fallbackSamples(upright);
    const cells = rects.map((rect) => crop(upright, rect));
    scores.push({ turns, score: await readingScore(engine, cells) });
    scores.push({
      turns: (turns + 2) % 4,
      score: await readingScore(
        engine,
        cells.map((cell) => rotateQuarter(cell, 2)),
      ),
    });
  }
  scores.sort((a, b) => b.score - a.score);
  const best = scores[0] ?? { turns: 0, score: 0 };
  const second = scores[1]?.score ?? 0;
  const certainty = best.score <= 0 ? 0 : Math.min(1, (best.score - second) / best.score);
  return { quarterTurns: best.turns, certainty };
}
