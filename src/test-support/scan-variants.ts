// A rendered page changed as another scanner might have given it (constructed from the real
// page, for the robustness bench and the readers' tests): lighter or darker greys, strokes
// thinner or bolder, blurred.
import type { GrayImage } from '../ingest/ocr/bitmap.js';

/** Each pixel `pick` of itself and the pixels `offsets` after it (those off the page count as paper). */
export function withNeighbours(
  page: GrayImage,
  pick: (...values: number[]) => number,
  offsets: readonly number[],
): GrayImage {
  const { width, data } = page;
  const out = data.map((value, at) =>
    pick(
      value,
      ...offsets.map((offset) => (offset === 1 && (at + 1) % width === 0 ? 255 : (data[at + offset] ?? 255))),
    ),
  );
  return { ...page, data: out };
}

/** Each pixel the mean of the nine around it (those on the page), as a scanner out of focus gives it. */
export function blurred(page: GrayImage): GrayImage {
  const { width, height, data } = page;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let count = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          sum += data[yy * width + xx] ?? 255;
          count++;
        }
      }
      out[y * width + x] = Math.round(sum / count);
    }
  }
  return { ...page, data: out };
}

/** Grey levels up to `black` made black, from `white` on white, those between spread between. */
export function stretched(page: GrayImage, black: number, white: number): GrayImage {
  const data = page.data.map((value) =>
    value <= black ? 0 : value >= white ? 255 : Math.round(((value - black) * 255) / (white - black)),
  );
  return { ...page, data };
}
