// The only module that touches the PDF library: bytes in, positioned text out. Parsers work on
// the positions (columns of the House and OGE tables), so they stay pure and testable.
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js is loaded on first use, not at import: its legacy build (the one that runs on Node 20)
 * installs core-js polyfills that replace globals such as JSON.parse, which a process that never
 * reads a PDF (the API server) should not pay for.
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/** The opened document; a PDF the library cannot open becomes `failure("unreadable PDF: ...")`. */
export async function openPdfDocument(
  bytes: Uint8Array,
  failure: (message: string) => Error,
): Promise<PdfDocument> {
  const { getDocument } = await loadPdfJs();
  // pdf.js takes ownership of (detaches) the buffer it is given, so hand it a copy.
  const task = getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy();
    throw failure(`unreadable PDF: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface PdfTextItem {
  text: string;
  /** Left edge in points, from the left of the page as displayed (rotation applied). */
  x: number;
  /** Baseline in points, from the top of the page as displayed. */
  y: number;
  width: number;
  /** Font size in points. */
  size: number;
}

export interface PdfTextPage {
  number: number;
  width: number;
  height: number;
  items: PdfTextItem[];
}

export interface PdfText {
  producer: string | null;
  creator: string | null;
  pages: PdfTextPage[];
}

/** The bytes are not a PDF the library can open (an HTML or XML error body, a truncated file). */
export class PdfReadError extends Error {}

/** A PDF starts with "%PDF-" (some writers put a few bytes of junk before it). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  if (!looksLikePdf(bytes)) throw new PdfReadError('not a PDF (no %PDF- header)');
  const { Util } = await loadPdfJs();
  const document = await openPdfDocument(bytes, (message) => new PdfReadError(message));
  try {
    const { info } = await document.getMetadata();
    const pages: PdfTextPage[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: PdfTextItem[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        // Landscape pages (OGE) are stored rotated; the viewport transform turns them upright.
        const [a, b, , , x, y] = Util.transform(viewport.transform, item.transform);
        items.push({
          text: item.str,
          x: x ?? 0,
          y: y ?? 0,
          width: item.width,
          size: Math.hypot(a ?? 0, b ?? 0),
        });
      }
      pages.push({ number, width: viewport.width, height: viewport.height, items });
      page.cleanup();
    }
    return { producer: metadataText(info, 'Producer'), creator: metadataText(info, 'Creator'), pages };
  } finally {
    await document.destroy();
  }
}

function metadataText(info: unknown, key: string): string | null {
  if (typeof info !== 'object' || info === null) return null;
  const value: unknown = (info as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
