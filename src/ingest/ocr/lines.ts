// Ruling lines of a page: the long straight runs of ink that draw a form's table. The form reader
// locates cells by these lines, not by where the engine found text, because handwriting and
// stamps wander over cell borders while the printed grid does not.
import { type GrayImage, INK_THRESHOLD } from './bitmap.js';

/** A straight ruling line: `position` across it, `start`..`end` along it (pixels). */
export interface RulingLine {
  position: number;
  thickness: number;
  start: number;
  end: number;
  /**
   * Share of ink along the line's best scan line, 0..1: a printed rule is solid; a stack of
   * checkbox edges, bridged across the gaps between the boxes, is not.
   */
  coverage: number;
  /** Interruptions of three pixels or more along it: a stack of boxes has one between each two. */
  breaks: number;
}

export interface LineOptions {
  /** Shortest run of ink that counts as a line (pixels). */
  minLength: number;
  /** Gaps of white inside a line up to this length are bridged (broken scan lines, crossing text). */
  maxGap: number;
}

/** Two rules closer than this are one (a doubled border, a rule and a box edge beside it). */
export const SAME_RULE = 12;

/** Rule positions in order, without those closer than SAME_RULE to the one kept before them. */
export function distinctRules(positions: readonly number[]): number[] {
  const kept: number[] = [];
  for (const position of positions) {
    const last = kept[kept.length - 1];
    if (last === undefined || position - last >= SAME_RULE) kept.push(position);
  }
  return kept;
}

/** Printed rules are a few pixels thick at 200 dpi; anything thicker is a filled area. */
const MAX_LINE_THICKNESS = 14;

interface Run {
  at: number;
  start: number;
  end: number;
  /** Ink pixels in the run (the rest are bridged gaps). */
  ink: number;
}

/** Horizontal ruling lines, top to bottom. */
export function horizontalLines(image: GrayImage, options: LineOptions): RulingLine[] {
  const runs = inkRuns(
    image,
    { length: image.width, step: 1 },
    { count: image.height, step: image.width },
    options,
  );
  return withCoverage(runs, (along, across) => isDark(image, along, across));
}

/** Vertical ruling lines, left to right. */
export function verticalLines(image: GrayImage, options: LineOptions): RulingLine[] {
  const runs = inkRuns(
    image,
    { length: image.height, step: image.width },
    { count: image.width, step: 1 },
    options,
  );
  return withCoverage(runs, (along, across) => isDark(image, across, along));
}

/**
 * The runs of ink along each scan line of one axis, merged into lines. Pixels are addressed by
 * their steps in the image's data (1 along a row, the width down a column): this loop reads every
 * pixel of the page, once per axis, so it skips isDark's bounds checks.
 */
function inkRuns(
  image: GrayImage,
  along: { length: number; step: number },
  across: { count: number; step: number },
  options: LineOptions,
): RulingLine[] {
  const runs: Run[] = [];
  for (let line = 0; line < across.count; line++) {
    const offset = line * across.step;
    collectRuns(
      (position) => (image.data[offset + position * along.step] ?? 255) < INK_THRESHOLD,
      along.length,
      line,
      options,
      runs,
    );
  }
  return mergeRuns(runs);
}

function isDark(image: GrayImage, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return false;
  return (image.data[y * image.width + x] ?? 255) < INK_THRESHOLD;
}

/**
 * Each line's share of positions along it with ink within two pixels of it: a slanted rule,
 * which no single scan line holds along its whole length, still counts as solid.
 */
function withCoverage(lines: RulingLine[], dark: (along: number, across: number) => boolean): RulingLine[] {
  return lines.map((line) => {
    const from = Math.floor(line.position - line.thickness / 2) - 2;
    const to = Math.ceil(line.position + line.thickness / 2) + 2;
    let inked = 0;
    let blank = 0;
    let breaks = 0;
    for (let along = line.start; along <= line.end; along++) {
      let hit = false;
      for (let across = from; across <= to && !hit; across++) hit = dark(along, across);
      if (hit) {
        inked++;
        if (blank >= 3) breaks++;
        blank = 0;
      } else blank++;
    }
    return { ...line, coverage: inked / (line.end - line.start + 1), breaks };
  });
}

function collectRuns(
  ink: (i: number) => boolean,
  length: number,
  at: number,
  options: LineOptions,
  out: Run[],
): void {
  let start = -1;
  let lastInk = -1;
  let count = 0;
  for (let i = 0; i <= length; i++) {
    const dark = i < length && ink(i);
    if (dark) {
      if (start < 0) {
        start = i;
        count = 0;
      }
      lastInk = i;
      count++;
      continue;
    }
    if (start >= 0 && (i === length || i - lastInk > options.maxGap)) {
      if (lastInk - start + 1 >= options.minLength) out.push({ at, start, end: lastInk, ink: count });
      start = -1;
    }
  }
}

/** Runs on neighbouring scan lines that overlap along their length are one thick line. */
function mergeRuns(runs: Run[]): RulingLine[] {
  interface Open {
    first: number;
    last: number;
    start: number;
    end: number;
    /** The extent of the latest run: a slanted or thick line is followed run by run. */
    lastRun: { start: number; end: number };
    weight: number;
    sum: number;
    /** Best share of ink along one scan line of the line. */
    coverage: number;
  }
  const done: Open[] = [];
  let open: Open[] = [];
  let current = -1;
  let next: Open[] = [];
  const flush = (upTo: number) => {
    for (const line of open) {
      if (line.last < upTo - 1) done.push(line);
      else next.push(line);
    }
    open = next;
    next = [];
  };
  for (const run of runs) {
    if (run.at !== current) {
      flush(run.at);
      current = run.at;
    }
    const match = open.find((line) => line.last >= run.at - 1 && overlap(line.lastRun, run) > 0.5);
    if (match) {
      match.last = run.at;
      match.lastRun = { start: run.start, end: run.end };
      match.start = Math.min(match.start, run.start);
      match.end = Math.max(match.end, run.end);
      const length = run.end - run.start + 1;
      match.weight += length;
      match.sum += run.at * length;
      match.coverage = Math.max(match.coverage, run.ink / length);
    } else {
      const length = run.end - run.start + 1;
      open.push({
        coverage: run.ink / length,
        first: run.at,
        last: run.at,
        start: run.start,
        end: run.end,
        lastRun: { start: run.start, end: run.end },
        weight: length,
        sum: run.at * length,
      });
    }
  }
  done.push(...open);
  const lines: Array<RulingLine & { weight: number }> = [];
  for (const line of done) {
    const thickness = line.last - line.first + 1;
    if (thickness <= MAX_LINE_THICKNESS) {
      lines.push({
        position: line.sum / line.weight,
        thickness,
        start: line.start,
        end: line.end,
        coverage: line.coverage,
        breaks: 0,
        weight: line.weight,
      });
      continue;
    }
    // Thicker than a rule: a filled band (a black heading row). Its two edges bound cells as
    // rules do; its inside is no line.
    const length = line.end - line.start + 1;
    for (const edge of [line.first + 1, line.last - 1]) {
      lines.push({
        position: edge,
        thickness: 3,
        start: line.start,
        end: line.end,
        coverage: line.coverage,
        breaks: 0,
        weight: length * 3,
      });
    }
  }
  return consolidate(lines);
}

/** Pieces of one printed line (its ragged edges, a stretch where it thins) become that line. */
function consolidate(lines: Array<RulingLine & { weight: number }>): RulingLine[] {
  type Piece = {
    start: number;
    end: number;
    low: number;
    high: number;
    weight: number;
    sum: number;
    inked: number;
  };
  let pieces: Piece[] = lines.map((line) => ({
    start: line.start,
    end: line.end,
    inked: line.coverage * (line.end - line.start + 1),
    low: line.position - line.thickness / 2,
    high: line.position + line.thickness / 2,
    weight: line.weight,
    sum: line.position * line.weight,
  }));
  const touches = (a: Piece, b: Piece) =>
    a.low <= b.high + 3 && a.high >= b.low - 3 && a.start <= b.end + 8 && a.end >= b.start - 8;
  // Merging can make a piece reach one it did not touch before: repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    const merged: Piece[] = [];
    for (const piece of pieces) {
      const match = merged.find((other) => touches(piece, other));
      if (!match) {
        merged.push({ ...piece });
        continue;
      }
      changed = true;
      // Side by side (a rule's ragged edge) the better piece counts; end to end, both do.
      const shared = Math.min(match.end, piece.end) - Math.max(match.start, piece.start);
      const shorter = Math.min(match.end - match.start, piece.end - piece.start) + 1;
      match.inked = shared > shorter / 2 ? Math.max(match.inked, piece.inked) : match.inked + piece.inked;
      match.start = Math.min(match.start, piece.start);
      match.end = Math.max(match.end, piece.end);
      match.low = Math.min(match.low, piece.low);
      match.high = Math.max(match.high, piece.high);
      match.weight += piece.weight;
      match.sum += piece.sum;
    }
    pieces = merged;
  }
  return pieces
    .map((piece) => ({
      position: piece.sum / piece.weight,
      thickness: Math.max(1, Math.round(piece.high - piece.low)),
      start: piece.start,
      end: piece.end,
      coverage: Math.min(1, piece.inked / (piece.end - piece.start + 1)),
      breaks: 0,
    }))
    .sort((a, b) => a.position - b.position || a.start - b.start);
}

function overlap(a: { start: number; end: number }, b: { start: number; end: number }): number {
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (shared <= 0) return 0;
  return shared / Math.max(a.end - a.start + 1, b.end - b.start + 1);
}

/**
 * The page's skew in degrees (clockwise positive): the angle at which the ink, projected onto
 * rows, is most concentrated — ruling lines and text lines then fall into single rows.
 */
export function estimateSkew(image: GrayImage, maxDegrees = 3, step = 0.05): number {
  const points: number[] = [];
  // A sample of ink pixels: every other column, but every row. A skewed line on a 1-bit scan is a
  // staircase of level runs one row apart; sampling every other row keeps whole runs in alternate
  // rows, which concentrates them at 0 degrees more than the true angle does (a page turned by
  // 1.6 degrees was read as straight).
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width;
    for (let x = 0; x < image.width; x += 2) {
      if ((image.data[row + x] ?? 255) < INK_THRESHOLD) points.push(x, y);
    }
  }
  if (points.length < 200) return 0;
  const bins = new Float64Array(image.height + 2 * image.width);
  const offset = image.width;
  let bestAngle = 0;
  let bestScore = -1;
  for (let degrees = -maxDegrees; degrees <= maxDegrees + 1e-9; degrees += step) {
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < points.length; i += 2) {
      const x = points[i] ?? 0;
      const y = points[i + 1] ?? 0;
      const bin = Math.round(y - x * slope) + offset;
      bins[bin] = (bins[bin] ?? 0) + 1;
    }
    let score = 0;
    for (const count of bins) score += count * count;
    if (score > bestScore) {
      bestScore = score;
      bestAngle = degrees;
    }
  }
  return Math.round(bestAngle * 100) / 100;
}

/** Whether a pixel of the image is ink; outside the image nothing is. */
function inkAt(image: GrayImage): (x: number, y: number) => boolean {
  const { width, height, data } = image;
  return (x, y) =>
    x >= 0 && y >= 0 && x < width && y < height && (data[y * width + x] ?? 255) < INK_THRESHOLD;
}

/**
 * Clears one rule of a page: `inked` and `clear` take a position along the rule and one across
 * it, so that one function serves horizontal and vertical rules; `limit` is the page's extent
 * along the rule.
 */
type RuleClearing = (
  line: RulingLine,
  limit: number,
  inked: (along: number, across: number) => boolean,
  clear: (along: number, across: number) => void,
) => void;

/** A copy of the image with each of its rules cleared by `clearRule`. */
function clearedRules(
  image: GrayImage,
  horizontal: readonly RulingLine[],
  vertical: readonly RulingLine[],
  clearRule: RuleClearing,
): GrayImage {
  const { width, height } = image;
  const data = image.data.slice();
  const dark = inkAt(image);
  for (const line of horizontal)
    clearRule(
      line,
      width,
      (x, y) => dark(x, y),
      (x, y) => {
        if (y >= 0 && y < height) data[y * width + x] = 255;
      },
    );
  for (const line of vertical)
    clearRule(
      line,
      height,
      (y, x) => dark(x, y),
      (y, x) => {
        if (x >= 0 && x < width) data[y * width + x] = 255;
      },
    );
  return { width, height, data };
}

/**
 * A copy of the image without its ruling lines. Across a rule's band (its thickness plus two
 * pixels each side, for ragged edges) the ink is cleared, except where a stroke crosses the rule:
 * ink just outside the band on both sides. Text that only touches a rule loses the rows it shares
 * with it; text that crosses one keeps its stroke.
 */
export function withoutRules(
  image: GrayImage,
  horizontal: readonly RulingLine[],
  vertical: readonly RulingLine[],
): GrayImage {
  return clearedRules(image, horizontal, vertical, (line, limit, inked, clear) => {
    const bandStart = Math.floor(line.position - line.thickness / 2) - 2;
    const bandEnd = Math.ceil(line.position + line.thickness / 2) + 2;
    for (let along = Math.max(0, line.start - 2); along <= Math.min(limit - 1, line.end + 2); along++) {
      if (inked(along, bandStart - 1) && inked(along, bandEnd + 1)) continue;
      for (let across = bandStart; across <= bandEnd; across++) clear(along, across);
    }
  });
}

/** Length (pixels) of the stretch of a rule whose own rows are measured at once. */
const RULE_STRETCH = 24;
/** Lines beside a rule's solid ones cleared with it (its blurred, ragged edge), as withoutRules. */
const RULE_EDGE = 2;
/** How many stretches on either side say where the rule runs through a stretch. */
const RULE_NEIGHBOURS = 5;
/** A row (or column) of a stretch this much inked is the rule's own; text rarely fills one. */
const RULE_ROW_INK = 0.8;

/**
 * The page without its long rules, cleared as withoutRules clears them except where a letter
 * stands against a rule: there only the rule's solid scan lines go (those that ink nearly the
 * whole of a stretch of the rule, where the stretches around it put them, and a half-inked edge
 * line), and the letter keeps what lies on its side of them. On dark scans bold capitals touch
 * the thick row rule above them and their top strokes are measured as part of the rule: cleared
 * by position, half their height goes. For reading text; the ink measures keep withoutRules.
 */
export function withoutRulesByShape(
  image: GrayImage,
  horizontal: readonly RulingLine[],
  vertical: readonly RulingLine[],
): GrayImage {
  /**
   * Where a letter standing against the rule on the `step` side begins, counted from the rule's
   * last solid line `solid`: a stroke running out past the band's `edge`, or two inked lines in
   * a row within the edge (a letter's top bar, not a speck of the rule's ragged edge). Past the
   * edge when no letter stands there.
   */
  const letterFrom = (
    inked: (along: number, across: number) => boolean,
    along: number,
    solid: number,
    edge: number,
    step: 1 | -1,
  ): number => {
    if (inked(along, edge + step)) return solid + step;
    for (let across = solid + step; across !== edge + step; across += step)
      if (inked(along, across) && inked(along, across + step)) return across;
    return edge + step;
  };
  const clearStretches: RuleClearing = (line, limit, inked, clear) => {
    const from = Math.floor(line.position - line.thickness / 2) - 4;
    const to = Math.ceil(line.position + line.thickness / 2) + 4;
    const stretches: Array<{ start: number; end: number; shares: number[]; solid: [number, number] | null }> =
      [];
    for (
      let start = Math.max(0, line.start - 2);
      start <= Math.min(limit - 1, line.end + 2);
      start += RULE_STRETCH
    ) {
      const end = Math.min(limit - 1, line.end + 2, start + RULE_STRETCH - 1);
      const shares: number[] = [];
      for (let across = from; across <= to; across++) {
        let ink = 0;
        for (let along = start; along <= end; along++) if (inked(along, across)) ink++;
        shares.push(ink / (end - start + 1));
      }
      const solid = shares.flatMap((share, index) => (share >= RULE_ROW_INK ? [from + index] : []));
      stretches.push({
        start,
        end,
        shares,
        solid: solid.length === 0 ? null : [Math.min(...solid), Math.max(...solid)],
      });
    }
    stretches.forEach((stretch, index) => {
      // The rule's solid rows here are those of the stretches around it: a stretch where the top
      // strokes of a line of capitals also fill a row, or where the rule is broken, is not
      // believed on its own. Where no stretch around has any, the rule is cleared by position.
      const around = stretches
        .slice(Math.max(0, index - RULE_NEIGHBOURS), index + RULE_NEIGHBOURS + 1)
        .flatMap((other) => (other.solid ? [other.solid] : []));
      const first = around.length === 0 ? from + 2 : median(around.map((band) => band[0]));
      const last = around.length === 0 ? to - 2 : median(around.map((band) => band[1]));
      // Two lines more each side, as withoutRules: a rule's ragged, blurred edge.
      const bandStart = first - RULE_EDGE;
      const bandEnd = last + RULE_EDGE;
      for (let along = stretch.start; along <= stretch.end; along++) {
        // A stroke crossing the rule is kept whole, as withoutRules keeps it.
        if (inked(along, bandStart - 1) && inked(along, bandEnd + 1)) continue;
        const keepFrom = letterFrom(inked, along, last, bandEnd, 1);
        const keepTo = letterFrom(inked, along, first, bandStart, -1);
        for (let across = bandStart; across <= bandEnd; across++) {
          if (across >= keepFrom || across <= keepTo) continue;
          clear(along, across);
        }
      }
    });
  };
  return clearedRules(image, horizontal, vertical, clearStretches);
}

/** Runs of rows with ink between `top` and `bottom` within `left`..`right`: the text lines. */
export function textBands(
  image: GrayImage,
  area: { left: number; right: number; top: number; bottom: number },
  options: { minInk: number; mergeGap: number; minHeight: number },
): Array<{ top: number; bottom: number }> {
  const bands: Array<{ top: number; bottom: number }> = [];
  const top = Math.max(0, Math.ceil(area.top));
  const bottom = Math.min(image.height - 1, Math.floor(area.bottom));
  const left = Math.max(0, Math.ceil(area.left));
  const right = Math.min(image.width, Math.floor(area.right));
  let start = -1;
  let last = -1;
  for (let y = top; y <= bottom + 1; y++) {
    let ink = 0;
    if (y <= bottom) {
      const row = y * image.width;
      // Ink with ink beside it: a rule's one-pixel remnant running down the page is no text.
      let previous = false;
      for (let x = left; x < right; x++) {
        const dark = (image.data[row + x] ?? 255) < INK_THRESHOLD;
        if (dark && previous) ink++;
        previous = dark;
      }
    }
    if (ink >= options.minInk) {
      if (start < 0) start = y;
      last = y;
      continue;
    }
    if (start >= 0 && y - last > options.mergeGap) {
      if (last - start + 1 >= options.minHeight) bands.push({ top: start, bottom: last });
      start = -1;
    }
  }
  if (start >= 0 && last - start + 1 >= options.minHeight) bands.push({ top: start, bottom: last });
  return bands;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
