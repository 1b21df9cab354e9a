// A document handed over as a file (`dcledger parse FILE`), not fetched from a listing: which
// source's it is has to be recognised from the bytes. Each source that has loose files says how
// it recognises and reads them (its definition's `looseFiles`); parse-document.ts asks them in
// registry order.
import { looksLikePdf, PdfReadError, type PdfText } from '../pdf-text.js';
import type { ParsedDocument } from './document.js';
import { cleanItemText } from './text-lines.js';

export type LooseFileParse =
  /** Transaction reports: one PDF, or one or more eFD pages. */
  | { kind: 'reports'; source: string; format: string; documents: ParsedDocument[] }
  /** An index or search answer of a source: its rows, and what `--summary` prints of it. */
  | {
      kind: 'listing';
      source: string;
      format: string;
      /** "a House index": what it is, for refusals. */
      what: string;
      rows: unknown[];
      summary: Record<string, unknown>;
    }
  /**
   * A record the source stores in its own tables (an SEC form): printed as `json`, or refused with
   * `failure` (printed on stderr, exit 1).
   */
  | {
      kind: 'record';
      source: string;
      format: string;
      what: string;
      json: unknown;
      summary: Record<string, unknown>;
      failure: string | null;
    }
  /** Nothing could be read; `status` says whether OCR would help. */
  | { kind: 'unreadable'; status: 'needs_ocr' | 'failed'; reason: string };

/** How a loose file looks to the readers: its bytes, its text (decoded once), its PDF text on demand. */
export interface LooseFile {
  readonly bytes: Uint8Array;
  readonly isPdf: boolean;
  readonly isZip: boolean;
  /** UTF-8 without a byte-order mark; empty for a PDF or a zip. */
  readonly text: string;
  /** The PDF's positioned text, extracted once for every reader (PdfReadError when unreadable). */
  pdf(): Promise<PdfText>;
}

/** The file as the readers see it; `pdfText` extracts a PDF's text (a worker's, or pdf.js in this thread). */
export function looseFile(bytes: Uint8Array, pdfText: (bytes: Uint8Array) => Promise<PdfText>): LooseFile {
  const isPdf = looksLikePdf(bytes);
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  let text: string | undefined;
  let pdf: Promise<PdfText> | undefined;
  return {
    bytes,
    isPdf,
    isZip,
    get text() {
      text ??= isPdf || isZip ? '' : new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
      return text;
    },
    pdf() {
      pdf ??= pdfText(bytes);
      return pdf;
    },
  };
}

/**
 * Reads a PDF's text and hands it to `read`; a PDF that cannot be read (PdfReadError) is unreadable
 * with its reason. A failure of the reader itself (its worker stopping) is the caller's.
 */
export async function withPdfText(
  file: LooseFile,
  read: (pdf: PdfText) => LooseFileParse,
): Promise<LooseFileParse> {
  let pdf: PdfText;
  try {
    pdf = await file.pdf();
  } catch (error) {
    if (error instanceof PdfReadError) return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
  return read(pdf);
}

/** The PDF's text, or null when it cannot be read (for recognition only: reading says why). */
export async function pdfTextOrNull(file: LooseFile): Promise<PdfText | null> {
  try {
    return await file.pdf();
  } catch (error) {
    if (error instanceof PdfReadError) return null;
    throw error;
  }
}

/** A PDF is certainly a source's when it prints one of its cues, likely when the program that made it is the source's usual one. */
export async function recognisePdf(file: LooseFile, printed: RegExp, producer: RegExp): Promise<Recognition> {
  const pdf = await pdfTextOrNull(file);
  if (!pdf) return 'no';
  if (printed.test(pdfWords(pdf))) return 'certain';
  return pdf.producer && producer.test(pdf.producer) ? 'likely' : 'no';
}

/** A PDF that is one report of `source`, read by the source's parser. */
export function readPdfReport(
  file: LooseFile,
  source: string,
  format: string,
  parse: (pdf: PdfText) => ParsedDocument,
): Promise<LooseFileParse> {
  return withPdfText(file, (pdf) => ({ kind: 'reports', source, format, documents: [parse(pdf)] }));
}

/** Every text item of the PDF, cleaned and joined: for recognising printed cues. */
export function pdfWords(pdf: PdfText): string {
  return pdf.pages.flatMap((page) => page.items.map((item) => cleanItemText(item.text))).join(' ');
}

/** How sure a reader is that a file is its source's. */
export type Recognition = 'certain' | 'likely' | 'no';

/** The formats a source's files come in, as messages name them. */
export interface LooseFileFormats {
  /** "a House PTR": what a PDF of this source is, and the cue it lacks ('no "Filing ID #"'). */
  pdf?: { name: string; missingCue: string };
  /** "an eFD page": what an HTML file of this source is. */
  html?: string;
  /** "eFD search results". */
  json?: string;
  /** "House index": other text or zip formats. */
  other?: string[];
}

export interface LooseFileReader {
  readonly formats: LooseFileFormats;
  /**
   * Whether the file is this source's: `certain` on the source's own cues (a PDF's printed form
   * name), `likely` on weaker ones (the PDF producer), `no` otherwise.
   */
  recognise(file: LooseFile): Promise<Recognition>;
  /** Reads the file with the source's parser; a file of another format is refused with a reason. */
  read(file: LooseFile): Promise<LooseFileParse>;
  /** The document id a file name carries when the document does not print its own (eFD UUIDs, OGE file names). */
  documentIdFromName?(fileName: string): string | null;
}

/** "expected an eFD page (HTML), got a PDF". */
export function wrongFormat(expected: string, got: string): LooseFileParse {
  return { kind: 'unreadable', status: 'failed', reason: `expected ${expected}, got ${got}` };
}

/** What a file looks like, for refusals. */
export function formatOf(file: LooseFile): string {
  if (file.isPdf) return 'a PDF';
  if (file.isZip) return 'a zip archive';
  if (/<html/i.test(file.text.slice(0, 4096)) || /<!DOCTYPE html/i.test(file.text.slice(0, 4096)))
    return 'an HTML page';
  if (/^\s*[[{]/.test(file.text.slice(0, 4096))) return 'JSON';
  return 'a text file';
}

/** Whether the page's text layer holds any text at all. */
export function hasText(pdf: PdfText): boolean {
  return pdf.pages.some((page) => page.items.some((item) => item.text.trim() !== ''));
}
