// One entry point for "here are the bytes of a document" (`dcledger parse FILE`): which source's
// file it is is recognised by the sources themselves, each through its definition's loose-file
// reader, asked in registry order; a source's own cues win over weaker ones (a PDF producer).
// Connectors never come here: they know their source and call its reader directly.
import { extractPdfText, looksLikePdf, PdfReadError, type PdfText } from '../pdf-text.js';
import type { DocumentKind, FilingInfo, ParsedDocument, TradeSource } from './document.js';
import { errorBodyReason } from './error-body.js';
import {
  hasText,
  type LooseFile,
  type LooseFileParse,
  type LooseFileReader,
  looseFile,
} from './loose-file.js';
import { REGISTRY, type SourceRegistry } from './registry.js';

export type DocumentParse = LooseFileParse;

export interface ParseDocumentOptions {
  /** The source, when known: its reader reads the file (the format is still checked). */
  source?: string;
  /**
   * How PDF text is extracted; the default loads pdf.js in this thread. Long-running processes pass
   * a worker's (see ../pdf-worker.ts) so that pdf.js never touches their globals.
   */
  pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
  /** The sources asked; default the registered ones. */
  registry?: SourceRegistry;
  /**
   * Reads a PDF without a usable text layer (a scan) by OCR; without it such a PDF stays
   * `needs_ocr`. `readScannedDocument` of ../ocr/index.ts fits it.
   */
  ocr?: (bytes: Uint8Array, scan: ScanFound) => Promise<ParsedDocument>;
}

/**
 * What the text readers found a scan to be: a source's reader that recognised its form (an OGE
 * 278-T whose text layer is a scanner's OCR) names it; a PDF nobody recognised is read as the
 * House paper PTR, the scan a loose file most often is.
 */
export interface ScanFound {
  source?: TradeSource;
  kind?: DocumentKind;
  filing?: Partial<FilingInfo>;
}

interface Reader {
  source: string;
  reader: LooseFileReader;
}

/** Every source's loose-file reader, in registry order. */
export async function looseFileReaders(registry: SourceRegistry = REGISTRY): Promise<Reader[]> {
  const readers: Reader[] = [];
  for (const source of registry.sources) {
    const definition = await source.load();
    if (definition.looseFiles) readers.push({ source: source.manifest.name, reader: definition.looseFiles });
  }
  return readers;
}

/**
 * The document id a file's name carries for the trade source whose rows it holds (`column`: the
 * House's "<DocID>.pdf", an eFD "<uuid>.html", an OGE file name); null when that source's files
 * carry none.
 */
export async function documentIdOfFileName(
  column: TradeSource,
  fileName: string,
  registry: SourceRegistry = REGISTRY,
): Promise<string | null> {
  const source = registry.tradeDocuments.find((candidate) => candidate.manifest.column === column);
  const definition = await source?.load();
  return definition?.looseFiles?.documentIdFromName?.(fileName) ?? null;
}

export async function parseDocument(
  bytes: Uint8Array,
  options: ParseDocumentOptions = {},
): Promise<DocumentParse> {
  const parsed = await readLooseFile(bytes, options);
  return options.ocr && looksLikePdf(bytes) ? withOcr(bytes, parsed, options.ocr) : parsed;
}

/**
 * A PDF that needs OCR, read by it, as the form the text readers found it to be (a House PTR when
 * none recognised it). A scan in which OCR finds neither a transactions table nor "nothing to
 * report" (a cover letter, a form no reader knows) keeps its `needs_ocr` answer, with what it saw.
 */
async function withOcr(
  bytes: Uint8Array,
  parsed: DocumentParse,
  ocr: NonNullable<ParseDocumentOptions['ocr']>,
): Promise<DocumentParse> {
  const recognised =
    parsed.kind === 'reports' && parsed.documents.length === 1 && parsed.documents[0]?.status === 'needs_ocr'
      ? parsed.documents[0]
      : null;
  if (!recognised && !(parsed.kind === 'unreadable' && parsed.status === 'needs_ocr')) return parsed;
  const found: ScanFound = recognised
    ? { source: recognised.source, kind: recognised.kind, filing: recognised.filing }
    : { source: 'house_clerk', kind: 'house_ptr_pdf' };
  const document = await ocr(bytes, found);
  const understood =
    document.ocr?.pages.some((page) => page.layout !== 'none' || page.rows > 0 || page.nothing_to_report) ??
    false;
  if (!understood) {
    const reason = parsed.kind === 'unreadable' ? parsed.reason : (recognised?.reason ?? 'scanned PDF');
    const form = recognised ? 'transactions table' : 'House PTR table';
    return { kind: 'unreadable', status: 'needs_ocr', reason: `${reason}; OCR found no ${form} in it` };
  }
  if (parsed.kind === 'reports') return { ...parsed, documents: [document] };
  return { kind: 'reports', source: 'house', format: 'house_pdf', documents: [document] };
}

async function readLooseFile(bytes: Uint8Array, options: ParseDocumentOptions): Promise<DocumentParse> {
  const readers = await looseFileReaders(options.registry);
  const file = looseFile(bytes, options.pdfText ?? extractPdfText);
  if (options.source) {
    const chosen = readers.find((candidate) => candidate.source === options.source);
    if (!chosen)
      return { kind: 'unreadable', status: 'failed', reason: `no source "${options.source}" reads files` };
    return chosen.reader.read(file);
  }
  if (!file.isPdf && !file.isZip) {
    const bodyError = errorBodyReason(file.text);
    if (bodyError) return { kind: 'unreadable', status: 'failed', reason: bodyError };
  }
  const found = await recognised(file, readers);
  if (found) return found.reader.read(file);
  return unrecognised(file, readers);
}

/** The reader sure of the file, else the first one that finds it likely. */
async function recognised(file: LooseFile, readers: readonly Reader[]): Promise<Reader | null> {
  let likely: Reader | null = null;
  for (const candidate of readers) {
    const recognition = await candidate.reader.recognise(file);
    if (recognition === 'certain') return candidate;
    if (recognition === 'likely') likely ??= candidate;
  }
  return likely;
}

/** Why no source reads the file, in the words of the formats the sources do read. */
async function unrecognised(file: LooseFile, readers: readonly Reader[]): Promise<DocumentParse> {
  const formats = readers.map(({ reader }) => reader.formats);
  if (file.isPdf) {
    let pdf: PdfText;
    try {
      pdf = await file.pdf();
    } catch (error) {
      if (error instanceof PdfReadError)
        return { kind: 'unreadable', status: 'failed', reason: error.message };
      throw error;
    }
    if (!hasText(pdf)) {
      return {
        kind: 'unreadable',
        status: 'needs_ocr',
        reason: `scanned PDF without a text layer (${pdf.pages.length} page(s)): its transactions need OCR`,
      };
    }
    const pdfs = formats.flatMap((format) => (format.pdf ? [format.pdf] : []));
    return {
      kind: 'unreadable',
      status: 'failed',
      reason: `PDF is neither ${pdfs.map((format) => format.name).join(' nor ')} (${pdfs.map((format) => format.missingCue).join(', ')})`,
    };
  }
  const head = file.text.slice(0, 4096);
  if (/<html/i.test(head) || /<!DOCTYPE html/i.test(head)) {
    const pages = formats.flatMap((format) => (format.html ? [format.html] : []));
    return { kind: 'unreadable', status: 'failed', reason: `HTML page that is not ${pages.join(' or ')}` };
  }
  if (/^\s*[[{]/.test(head)) {
    try {
      JSON.parse(file.text);
    } catch {
      return { kind: 'unreadable', status: 'failed', reason: 'malformed JSON' };
    }
    const answers = formats.flatMap((format) => (format.json ? [format.json] : []));
    return { kind: 'unreadable', status: 'failed', reason: `JSON that is not ${answers.join(' or ')}` };
  }
  const known = [
    'a PDF',
    ...formats.flatMap((format) => [
      ...(format.html ? [format.html] : []),
      ...(format.json ? [format.json] : []),
      ...(format.other ?? []),
    ]),
  ];
  return {
    kind: 'unreadable',
    status: 'failed',
    reason: `unrecognized document: not ${known.slice(0, -1).join(', ')} or ${known.at(-1)}`,
  };
}
