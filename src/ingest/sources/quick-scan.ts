// What a document says at a glance, before its full parse: the tickers it names and its largest
// amount. The disclosure.detected event carries this so subscribers learn what a filing holds
// before its rows are read, checked and stored. The full parse stays the authority; this only
// looks for ticker-shaped groups ("(AAPL)") and amount brackets anywhere in the text.
import { parseAmountRange } from '../../domain/amount.js';
import { stripTags } from '../../domain/asset.js';
import { NO_TICKER } from '../../domain/ticker.js';
import { looksLikePdf, type PdfText } from '../pdf-text.js';
import { PdfWorkerError } from '../pdf-worker.js';
import { splitTicker } from './asset-text.js';
import { documentLines } from './text-lines.js';

export interface QuickScan {
  /** Distinct tickers in the order the document names them. */
  tickers: string[];
  /**
   * The largest upper bound of the amount brackets the document prints; an open bracket
   * ("Over $50,000,000") counts as its lower bound. Null when no bracket was found.
   */
  estAmountHigh: number | null;
}

export const NOTHING_SCANNED: QuickScan = { tickers: [], estAmountHigh: null };

/** Scans lines of text (a PDF's text layer, or an HTML page's text). Pure. */
export function scanText(lines: readonly string[]): QuickScan {
  const tickers = new Set<string>();
  for (const line of lines) {
    for (const group of line.matchAll(/\(\s*([A-Za-z0-9.\-/]{1,10})\s*\)/g)) {
      // The asset-name rule decides what is a ticker (shape, "(ADR)" and "(units)" are not).
      const { ticker } = splitTicker(group[0], true);
      if (ticker !== NO_TICKER) tickers.add(ticker);
    }
  }
  // Brackets wrap across lines ("$1,001 -" / "$15,000"): the lower bound identifies them.
  const text = lines.join(' ');
  let estAmountHigh: number | null = null;
  const take = (printed: string) => {
    const bracket = parseAmountRange(printed);
    if (!bracket) return;
    const top = bracket.high ?? bracket.low;
    if (estAmountHigh === null || top > estAmountHigh) estAmountHigh = top;
  };
  for (const match of text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+|\d{4,})\s*[-–]/g)) take(`$${match[1]} -`);
  for (const match of text.matchAll(/over\s*\$\s?([\d,]+)/gi)) take(`Over $${match[1]}`);
  for (const match of text.matchAll(/\$\s?([\d,]+)\s*\+/g)) take(`$${match[1]} +`);
  return { tickers: [...tickers], estAmountHigh };
}

/**
 * Scans a fetched document: a PDF through its text layer (the extraction the full parse then
 * reuses), anything else as HTML text. A PDF that cannot be read scans as nothing; its full
 * parse says why.
 */
export async function scanDocument(
  bytes: Uint8Array,
  pdfText: (bytes: Uint8Array) => Promise<PdfText>,
): Promise<QuickScan> {
  if (!looksLikePdf(bytes)) {
    const html = new TextDecoder('utf-8').decode(bytes);
    return scanText(html.split(/<\/(?:tr|p|div|li)>|\n/i).map(stripTags));
  }
  try {
    return scanText(documentLines(await pdfText(bytes)).map((line) => line.text));
  } catch (error) {
    // The worker dying is the run's problem; anything else is the full parse's to report.
    if (error instanceof PdfWorkerError) throw error;
    return NOTHING_SCANNED;
  }
}

/** `pdfText` that extracts each byte array once, so the quick scan and the full parse share it. */
export function extractOnce(
  pdfText: (bytes: Uint8Array) => Promise<PdfText>,
): (bytes: Uint8Array) => Promise<PdfText> {
  const done = new WeakMap<Uint8Array, Promise<PdfText>>();
  return (bytes) => {
    const known = done.get(bytes);
    if (known) return known;
    const extraction = pdfText(bytes);
    done.set(bytes, extraction);
    return extraction;
  };
}
