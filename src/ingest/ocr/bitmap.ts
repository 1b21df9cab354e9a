// Page images as plain arrays: one byte per pixel, 0 black to 255 white. Everything the form reader
// does to a page (turn it upright, straighten it, find the ruling lines, measure ink in a cell) is
// a pure function over this shape, so it runs in a worker thread and is tested without a PDF.

export interface GrayImage {
  width: number;
  height: number;
  /** Row-major, `width * height` bytes, 0 = black, 255 = white. */
  data: Uint8Array;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pixels darker than this are ink. The scans are 1-bit; rendering blurs edges a little. */
export const INK_THRESHOLD = 160;

export function blankImage(width: number, height: number, value = 255): GrayImage {
  return { width, height, data: new Uint8Array(width * height).fill(value) };
}

export function isInk(image: GrayImage, x: number, y: number): boolean {
  return (image.data[y * image.width + x] ?? 255) < INK_THRESHOLD;
}

/** The image turned clockwise by `quarterTurns` × 90°. */
export function rotateQuarter(image: GrayImage, quarterTurns: number): GrayImage {
  const turns = ((quarterTurns % 4) + 4) % 4;
  if (turns === 0) return image;
  const { width, height, data } = image;
  const outWidth = turns === 2 ? width : height;
  const outHeight = turns === 2 ? height : width;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const value = data[row + x] ?? 255;
      let ox: number;
      let oy: number;
      if (turns === 1) {
        ox = height - 1 - y;
        oy = x;
      } else if (turns === 2) {
        ox = width - 1 - x;
        oy = height - 1 - y;
      } else {
        ox = y;
        oy = width - 1 - x;
      }
      out[oy * outWidth + ox] = value;
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}

/**
 * The image turned by a small angle (degrees, clockwise positive) about its centre, same size. A
 * black-and-white scan stays black and white (each pixel the nearest of the page as scanned): its
 * edges are steps a pixel high already, and the readers' ink thresholds were set on such pages. A
 * grey scan's pixel is weighed from the nearest four, by nearness: the nearest alone gives its
 * letters' edges such steps, which the engine reads worse.
 */
export function rotateSmall(image: GrayImage, degrees: number): GrayImage {
  if (Math.abs(degrees) < 0.01) return image;
  const { width, height, data } = image;
  const out = new Uint8Array(width * height).fill(255);
  const angle = (-degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = width / 2;
  const cy = height / 2;
  const bilevel = data.every((value) => value === 0 || value === 255);
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= width || y >= height ? 255 : (data[y * width + x] ?? 255);
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const sx = cx + dx * cos - dy * sin;
      const sy = cy + dx * sin + dy * cos;
      if (bilevel) {
        out[y * width + x] = at(Math.round(sx), Math.round(sy));
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, data: out };
}

export function clampRect(image: GrayImage, rect: Rect): Rect {
  const x = Math.max(0, Math.min(image.width, Math.round(rect.x)));
  const y = Math.max(0, Math.min(image.height, Math.round(rect.y)));
  const right = Math.max(x, Math.min(image.width, Math.round(rect.x + rect.width)));
  const bottom = Math.max(y, Math.min(image.height, Math.round(rect.y + rect.height)));
  return { x, y, width: right - x, height: bottom - y };
}

export function crop(image: GrayImage, rect: Rect): GrayImage {
  const r = clampRect(image, rect);
  const out = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y++) {
    const from = (r.y + y) * image.width + r.x;
    out.set(image.data.subarray(from, from + r.width), y * r.width);
  }
  return { width: r.width, height: r.height, data: out };
}

/** Share of ink pixels inside a rectangle, in [0, 1]. */
export function inkShare(image: GrayImage, rect: Rect): number {
  const r = clampRect(image, rect);
  if (r.width === 0 || r.height === 0) return 0;
  let ink = 0;
  for (let y = r.y; y < r.y + r.height; y++) {
    const row = y * image.width;
    for (let x = r.x; x < r.x + r.width; x++) if ((image.data[row + x] ?? 255) < INK_THRESHOLD) ink++;
  }
  return ink / (r.width * r.height);
}

/** The image with a white margin of `pad` pixels on every side (the engine reads glyphs at an edge badly). */
export function pad(image: GrayImage, margin: number): GrayImage {
  const out = blankImage(image.width + 2 * margin, image.height + 2 * margin);
  for (let y = 0; y < image.height; y++) {
    out.data.set(
      image.data.subarray(y * image.width, (y + 1) * image.width),
      (y + margin) * out.width + margin,
    );
  }
  return out;
}

/** Integer upscaling (nearest): small typed cells read better at twice their scanned size. */
export function upscale(image: GrayImage, factor: number): GrayImage {
  if (factor <= 1) return image;
  const width = image.width * factor;
  const height = image.height * factor;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const source = Math.floor(y / factor) * image.width;
    for (let x = 0; x < width; x++) out[y * width + x] = image.data[source + Math.floor(x / factor)] ?? 255;
  }
  return { width, height, data: out };
}

/** Cells lower than this are read twice their size: the engine expects letters 20-30 pixels high. */
const SMALL_TYPE_HEIGHT = 34;

/** A cell as the engine is given it: small type enlarged (upscale), other cells as they are. */
export function enlargedForReading(cell: GrayImage): GrayImage {
  return cell.height < SMALL_TYPE_HEIGHT ? upscale(cell, 2) : cell;
}

/** Binary PGM (P5): the engine reads it without an image codec. */
export function toPgm(image: GrayImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header, 0);
  out.set(image.data, header.length);
  return out;
}

/** Scaled by any factor with bilinear interpolation: grey edges give the engine sub-pixel shape. */
export function scale(image: GrayImage, factor: number): GrayImage {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const out = new Uint8Array(width * height);
  const at = (x: number, y: number) => image.data[y * image.width + x] ?? 255;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, y / factor);
    const y0 = Math.floor(sy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const wy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, x / factor);
      const x0 = Math.floor(sx);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const wx = sx - x0;
      const top = at(x0, y0) * (1 - wx) + at(x1, y0) * wx;
      const bottom = at(x0, y1) * (1 - wx) + at(x1, y1) * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return { width, height, data: out };
}

/**
 * Every pixel made black or white at `threshold`: a second preparation of the same cell, whose
 * hard edges (thinner strokes at a dark threshold, bolder at a light one) differ from the grey
 * rendering the engine reads first.
 */
export function binarise(image: GrayImage, threshold: number): GrayImage {
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i++) out[i] = (image.data[i] ?? 255) < threshold ? 0 : 255;
  return { width: image.width, height: image.height, data: out };
}

/**
 * The image with its greys darkened so that `level` falls at INK_THRESHOLD (what was darker than
 * `level` is ink), black kept black and white kept white: a light scan's pale lines become ink.
 */
export function darkened(image: GrayImage, level: number): GrayImage {
  const map = new Uint8Array(256);
  for (let value = 0; value < 256; value++)
    map[value] =
      value < level
        ? Math.round((value * INK_THRESHOLD) / level)
        : Math.round(INK_THRESHOLD + ((value - level) * (255 - INK_THRESHOLD)) / (255 - level));
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i++) out[i] = map[image.data[i] ?? 255] ?? 255;
  return { width: image.width, height: image.height, data: out };
}

/** A connected piece of ink: its bounding box and its pixels (indexes into the area, row-major). */
export interface InkPiece {
  left: number;
  right: number;
  top: number;
  bottom: number;
  pixels: number[];
}

/** The 8-connected pieces of ink of a `width` x `height` area, `inked` saying which pixels are ink. */
export function inkPieces(
  width: number,
  height: number,
  inked: (x: number, y: number) => boolean,
): InkPiece[] {
  const seen = new Uint8Array(width * height);
  const pieces: InkPiece[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !inked(start % width, Math.floor(start / width))) continue;
    const piece: InkPiece = { left: width, right: 0, top: height, bottom: 0, pixels: [start] };
    seen[start] = 1;
    for (let next = 0; next < piece.pixels.length; next++) {
      const at = piece.pixels[next] ?? 0;
      const x = at % width;
      const y = (at - x) / width;
      piece.left = Math.min(piece.left, x);
      piece.right = Math.max(piece.right, x);
      piece.top = Math.min(piece.top, y);
      piece.bottom = Math.max(piece.bottom, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const near = ny * width + nx;
          if (!seen[near] && inked(nx, ny)) {
            seen[near] = 1;
            piece.pixels.push(near);
          }
        }
    }
    pieces.push(piece);
  }
  return pieces;
}

/**
 * The image with every connected piece of ink (8-connected) that touches its edge and holds fewer
 * than `minPixels` pixels whitened: the broken end of a rule cleared around a cell, or a speck cut
 * by the crop. Pieces inside the image (a date's dots and dashes) are kept, however small.
 */
export function withoutEdgeSpecks(image: GrayImage, minPixels: number): GrayImage {
  const { width, height } = image;
  const data = image.data.slice();
  const inked = (x: number, y: number) => (data[y * width + x] ?? 255) < INK_THRESHOLD;
  for (const piece of inkPieces(width, height, inked)) {
    const touches =
      piece.left === 0 || piece.top === 0 || piece.right === width - 1 || piece.bottom === height - 1;
    if (touches && piece.pixels.length < minPixels) for (const at of piece.pixels) data[at] = 255;
  }
  return { width, height, data };
}

/**
 * The image with a thin stripe of ink above or below its text whitened: rows of ink at most
 * `maxHeight` tall, apart from the text by at least `minGap` blank rows, with a row holding at
 * least `minInk` dark pixels (a rule's remnant the page's rule finder missed, not a letter's dot
 * or accent). The text itself (the tallest run of inked rows) is never touched.
 */
export function withoutStrayStripes(
  image: GrayImage,
  { maxHeight, minGap, minInk }: { maxHeight: number; minGap: number; minInk: number },
): GrayImage {
  const { width, height } = image;
  const ink = Array.from({ length: height }, (_, y) => {
    let count = 0;
    for (let x = 0; x < width; x++) if ((image.data[y * width + x] ?? 255) < INK_THRESHOLD) count++;
    return count;
  });
  const runs: Array<{ top: number; bottom: number; most: number }> = [];
  for (let y = 0; y < height; y++) {
    if ((ink[y] ?? 0) === 0) continue;
    const last = runs.at(-1);
    if (last && last.bottom === y - 1) {
      last.bottom = y;
      last.most = Math.max(last.most, ink[y] ?? 0);
    } else runs.push({ top: y, bottom: y, most: ink[y] ?? 0 });
  }
  if (runs.length < 2) return image;
  const tallest = runs.reduce((best, run) => (run.bottom - run.top > best.bottom - best.top ? run : best));
  const stray = (run: { top: number; bottom: number; most: number } | undefined, gap: number) =>
    run !== undefined &&
    run !== tallest &&
    run.bottom - run.top + 1 <= maxHeight &&
    gap >= minGap &&
    run.most >= minInk;
  const cleared: Array<{ top: number; bottom: number }> = [];
  const first = runs[0];
  const second = runs[1];
  if (first && second && stray(first, second.top - first.bottom - 1)) cleared.push(first);
  const last = runs[runs.length - 1];
  const before = runs[runs.length - 2];
  if (last && before && stray(last, last.top - before.bottom - 1)) cleared.push(last);
  if (cleared.length === 0) return image;
  const data = image.data.slice();
  for (const run of cleared) data.fill(255, run.top * width, (run.bottom + 1) * width);
  return { width, height, data };
}
