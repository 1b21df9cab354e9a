// The picture of one row on its page, for the person who checks what the OCR stage read: the page
// rendered and turned upright again from its stored geometry, the row's rectangle with a margin of
// the rows around it, as PNG (@napi-rs/canvas, the canvas pdf.js draws on).
import { createCanvas } from '@napi-rs/canvas';
import { crop, type GrayImage, type Rect } from './bitmap.js';
import { type PageGeometry, renderUpright } from './read-scan.js';

/** Page-heights of context above and below the row (a name may run over two lines). */
const MARGIN = 0.02;

export async function rowCropPng(
  bytes: Uint8Array,
  page: number,
  geometry: PageGeometry,
  region: Rect,
): Promise<Buffer> {
  const image = await renderUpright(bytes, page, geometry);
  const margin = Math.round(image.height * MARGIN);
  const part = crop(image, {
    x: region.x - margin,
    y: region.y - margin,
    width: region.width + 2 * margin,
    height: region.height + 2 * margin,
  });
  return grayPng(part);
}

export function grayPng(image: GrayImage): Buffer {
  const canvas = createCanvas(Math.max(1, image.width), Math.max(1, image.height));
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(canvas.width, canvas.height);
  for (let i = 0; i < image.data.length; i++) {
    const value = image.data[i] ?? 255;
    pixels.data[i * 4] = value;
    pixels.data[i * 4 + 1] = value;
    pixels.data[i * 4 + 2] = value;
    pixels.data[i * 4 + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return canvas.toBuffer('image/png');
}
