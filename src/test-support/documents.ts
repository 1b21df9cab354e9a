// Reading the shared raw documents in tests: paths under `<dataDir>/congress` and a per-file
// cache of extracted PDF text (several tests read the same PDFs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractPdfText, type PdfText } from '../ingest/pdf-text.js';
import type { ParsedDocument, ParsedTrade } from '../ingest/sources/document.js';

export function congressPath(dataDir: string, ...parts: string[]): string {
  return join(dataDir, 'congress', ...parts);
}

export function readBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}

const pdfCache = new Map<string, Promise<PdfText>>();

export function loadPdf(path: string): Promise<PdfText> {
  let pending = pdfCache.get(path);
  if (!pending) {
    pending = extractPdfText(readBytes(path));
    pdfCache.set(path, pending);
  }
  return pending;
}

/** The trade of a parsed document with this row number (its "#" column or row order). */
export function row(document: ParsedDocument, number: number): ParsedTrade {
  const trade = document.trades.find((candidate) => candidate.row === number);
  if (!trade) throw new Error(`row ${number} missing`);
  return trade;
}
