// PDF pages to grey images: pdf.js draws each page on an @napi-rs/canvas canvas (the canvas pdf.js
// itself picks in Node). Both are MIT/Apache-licensed; MuPDF, faster, is AGPL and so not an option.
import { openPdfDocument } from '../pdf-text.js';
import type { GrayImage } from './bitmap.js';
import { decodePageImages, isPageImages } from './page-images.js';

/** The House scans are 200 dpi CCITT images: rendering at their own resolution loses nothing. */
export const RENDER_DPI = 200;

/**
 * The most pixels one page may become. A letter page at RENDER_DPI is 3.7 million; a scanner that
 * writes its page size in pixels instead of points makes about 29 million. A page past this is no
 * disclosure form, and drawing it would take gigabytes of memory outside any heap limit.
 */
export const MAX_PAGE_PIXELS = 50_000_000;

export interface RasterDocument {
  pageCount: number;
  /** Page `number` (1-based) as a grey image at `dpi`. */
  render(number: number, dpi?: number): Promise<GrayImage>;
  close(): Promise<void>;
}

interface CanvasLike {
  width: number;
  height: number;
}
interface ContextLike {
  fillStyle: string;
  fillRect(x: number, y: number, width: number, height: number): void;
  getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
}
interface CanvasFactoryLike {
  create(width: number, height: number): { canvas: CanvasLike; context: ContextLike };
  destroy(entry: { canvas: CanvasLike; context: ContextLike }): void;
}

export class RasterError extends Error {}

export async function openRaster(bytes: Uint8Array): Promise<RasterDocument> {
  if (isPageImages(bytes)) return imageRaster(bytes);
  const document = await openPdfDocument(bytes, (message) => new RasterError(message));
  // pdf.js creates its Node canvas factory (@napi-rs/canvas) per document; its type is internal.
  const factory = (document as unknown as { canvasFactory: CanvasFactoryLike }).canvasFactory;
  return {
    pageCount: document.numPages,
    async render(number: number, dpi = RENDER_DPI): Promise<GrayImage> {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.max(1, Math.round(viewport.width));
      const height = Math.max(1, Math.round(viewport.height));
      if (width * height > MAX_PAGE_PIXELS) {
        page.cleanup();
        throw new RasterError(
          `unreadable PDF: page ${number} is ${width}×${height} pixels at ${dpi} dpi, more than the ${MAX_PAGE_PIXELS / 1_000_000} million a page may have`,
        );
      }
      const entry = factory.create(width, height);
      try {
        entry.context.fillStyle = '#ffffff';
        entry.context.fillRect(0, 0, width, height);
        // pdf.js types its canvas parameters as the DOM's; @napi-rs/canvas implements them.
        const parameters = { canvas: entry.canvas, canvasContext: entry.context, viewport };
        await page.render(parameters as unknown as Parameters<typeof page.render>[0]).promise;
        const rgba = entry.context.getImageData(0, 0, width, height).data;
        const gray = new Uint8Array(width * height);
        for (let i = 0, j = 0; j < gray.length; i += 4, j++) {
          // Luma; the scans are grey already, so the weights barely matter.
          gray[j] = ((rgba[i] ?? 255) * 77 + (rgba[i + 1] ?? 255) * 150 + (rgba[i + 2] ?? 255) * 29) >> 8;
        }
        return { width, height, data: gray };
      } finally {
        factory.destroy(entry);
        page.cleanup();
      }
    },
    async close(): Promise<void> {
      await document.destroy();
    },
  };
}

/**
 * A bundle of page images (page-images.ts): each image is a page at its own resolution, so the
 * dpi asked for is not applied (the page's geometry records RENDER_DPI all the same).
 */
async function imageRaster(bytes: Uint8Array): Promise<RasterDocument> {
  let images: Uint8Array[];
  try {
    images = decodePageImages(bytes);
  } catch (error) {
    throw new RasterError(
      `unreadable page images: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  return {
    pageCount: images.length,
    async render(number: number): Promise<GrayImage> {
      let image: Awaited<ReturnType<typeof loadImage>>;
      try {
        image = await loadImage(Buffer.from(images[number - 1] ?? new Uint8Array()));
      } catch (error) {
        throw new RasterError(
          `unreadable page images: page ${number}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const { width, height } = image;
      if (width * height > MAX_PAGE_PIXELS || width === 0 || height === 0) {
        throw new RasterError(
          `unreadable page images: page ${number} is ${width}×${height} pixels, not a page of at most ${MAX_PAGE_PIXELS / 1_000_000} million`,
        );
      }
      const canvas = createCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      context.drawImage(image, 0, 0);
      const rgba = context.getImageData(0, 0, width, height).data;
      const gray = new Uint8Array(width * height);
      for (let i = 0, j = 0; j < gray.length; i += 4, j++) {
        gray[j] = ((rgba[i] ?? 255) * 77 + (rgba[i + 1] ?? 255) * 150 + (rgba[i + 2] ?? 255) * 29) >> 8;
      }
      return { width, height, data: gray };
    },
    async close(): Promise<void> {},
  };
}
