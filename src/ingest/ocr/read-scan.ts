// One scanned document, page by page: rasterize, turn upright, straighten, read the form. Each
// page's result is self-contained (a plain object), so a caller can store it as it comes and,
// after a crash, hand the stored pages back to skip them.

import type { DocumentKind } from '../sources/document.js';
import { type GrayImage, rotateQuarter, rotateSmall } from './bitmap.js';
import type { OcrEngine } from './engine.js';
import { type FormPage, formReader, MIN_SKEW } from './forms.js';
import { estimateSkew } from './lines.js';
import { detectOrientation } from './orientation.js';
import { openRaster, RENDER_DPI } from './rasterize.js';

export interface PageGeometry {
  /** Clockwise quarter turns applied to the rendered page. */
  quarterTurns: number;
  /** Degrees the upright page was turned back by (its skew). */
  skew: number;
  dpi: number;
}

export interface ScannedPage extends PageGeometry {
  number: number;
  orientationCertainty: number;
  form: FormPage;
  /** CPU time spent on the page in the thread that read it (ms). */
  cpuMs: number;
}

export interface ReadScanOptions {
  /** Pages already read (from an interrupted run), by number: not read again. */
  done?: ReadonlyMap<number, ScannedPage>;
  /** Called after each page with the page's result. */
  onPage?: (page: ScannedPage, total: number) => void | Promise<void>;
  signal?: AbortSignal;
  /** Only these page numbers are read (and returned); absent, every page. */
  pages?: ReadonlySet<number>;
  /** The kind of document, which names the form its pages are read as (a House paper PTR when absent). */
  kind?: DocumentKind;
}

export async function readScan(
  bytes: Uint8Array,
  engine: OcrEngine,
  options: ReadScanOptions = {},
): Promise<ScannedPage[]> {
  const raster = await openRaster(bytes);
  const pages: ScannedPage[] = [];
  try {
    let hint: number | null = null;
    for (let number = 1; number <= raster.pageCount; number++) {
      if (options.signal?.aborted) break;
      if (options.pages && !options.pages.has(number)) continue;
      const stored = options.done?.get(number);
      if (stored) {
        pages.push(stored);
        hint = stored.quarterTurns;
        continue;
      }
      const started = process.cpuUsage();
      const page = await readPage(await raster.render(number), number, engine, {
        hint,
        kind: options.kind,
        started,
      });
      hint = page.quarterTurns;
      pages.push(page);
      await options.onPage?.(page, raster.pageCount);
    }
  } finally {
    await raster.close();
  }
  return pages;
}

/**
 * One rendered page read: turned upright and straightened, then read as the form of `kind` (a
 * House paper PTR when absent). `hint` is the quarter turns of the page before, if any; `started`
 * the CPU reading the page's time counts from (its rendering, when the caller rendered it).
 */
export async function readPage(
  rendered: GrayImage,
  number: number,
  engine: OcrEngine,
  options: { hint?: number | null; kind?: DocumentKind | undefined; started?: NodeJS.CpuUsage } = {},
): Promise<ScannedPage> {
  const started = options.started ?? process.cpuUsage();
  const reader = formReader(options.kind ?? 'house_ptr_pdf');
  const { image, geometry, certainty } = await uprightPage(
    rendered,
    engine,
    options.hint ?? null,
    reader.minSkew,
  );
  const form = await reader.readPage(image, engine);
  const used = process.cpuUsage(started);
  return {
    number,
    ...geometry,
    orientationCertainty: certainty,
    form,
    cpuMs: Math.round((used.user + used.system) / 1000),
  };
}

/**
 * The page turned upright and straightened, with what was done to it: a skew below `minSkew`
 * degrees (the form's, forms.ts) is left as scanned.
 */
export async function uprightPage(
  rendered: GrayImage,
  engine: OcrEngine,
  hint: number | null,
  minSkew = MIN_SKEW,
): Promise<{ image: GrayImage; geometry: PageGeometry; certainty: number }> {
  const orientation = await detectOrientation(rendered, engine, hint);
  let image = rotateQuarter(rendered, orientation.quarterTurns);
  const skew = estimateSkew(image);
  const applied = Math.abs(skew) >= minSkew ? skew : 0;
  if (applied === 0) {
    return {
      image,
      geometry: { quarterTurns: orientation.quarterTurns, skew: 0, dpi: RENDER_DPI },
      certainty: orientation.certainty,
    };
  }
  image = rotateSmall(image, -applied);
  // Which way up was judged on the skewed page, whose cells read poorly (a spreadsheet turned
  // 0.7 degrees was taken for upside down); the straight page is judged again, and its answer
  // wins when it is at least as sure. A quarter turn and a small one about the centre commute, so
  // the geometry still says how to make the page again (renderUpright).
  const again = await detectOrientation(image, engine, 0);
  if (again.quarterTurns === 0 || again.certainty < orientation.certainty) {
    return {
      image,
      geometry: { quarterTurns: orientation.quarterTurns, skew: applied, dpi: RENDER_DPI },
      certainty: orientation.certainty,
    };
  }
  return {
    image: rotateQuarter(image, again.quarterTurns),
    geometry: {
      quarterTurns: (orientation.quarterTurns + again.quarterTurns) % 4,
      skew: applied,
      dpi: RENDER_DPI,
    },
    certainty: again.certainty,
  };
}

/** The upright page again from its geometry (for the reviewer's crop), without the engine. */
export async function renderUpright(
  bytes: Uint8Array,
  number: number,
  geometry: PageGeometry,
): Promise<GrayImage> {
  const raster = await openRaster(bytes);
  try {
    let image = rotateQuarter(await raster.render(number, geometry.dpi), geometry.quarterTurns);
    if (geometry.skew !== 0) image = rotateSmall(image, -geometry.skew);
    return image;
  } finally {
    await raster.close();
  }
}
