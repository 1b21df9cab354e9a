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

/**
 * The SEC's list of companies (what `dcledger companies import` puts in the database), each as its
 * listed symbol and name: the issuers the OCR reader checks asset names against in ingest.
 */
export function secIssuers(dataDir: string): Array<[string, string]> {
  const file = join(dataDir, 'market', 'companies', 'sec_company_tickers.json');
  const entries = Object.values(
    JSON.parse(readFileSync(file, 'utf8')) as Record<string, { ticker: string; title: string }>,
  );
  return entries.map((entry): [string, string] => [entry.ticker, entry.title]);
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

/** A constructed one-page PDF, blank, with the given MediaBox in points (1/72 inch). */
export function blankPdf(widthPt: number, heightPt: number): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${widthPt} ${heightPt}] /Contents 4 0 R /Resources << >> >>`,
    '<< /Length 0 >>\nstream\n\nendstream',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}
