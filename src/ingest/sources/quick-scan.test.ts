// The quick scan behind disclosure.detected, checked against the full parse of the same real
// House PTRs: it must name every ticker the parse finds and the same largest amount.
import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { congressPath, loadPdf, readBytes } from '../../test-support/documents.js';
import { extractPdfText } from '../pdf-text.js';
import { parseHousePtrPdf } from './house/ptr-pdf.js';
import { extractOnce, NOTHING_SCANNED, scanDocument, scanText } from './quick-scan.js';

const dataDir = inject('dataDir');

describe('scanText', () => {
  it('finds parenthesized tickers and the largest bracket, even wrapped across lines', () => {
    expect(
      scanText([
        'SP Apple Inc. - Common Stock (AAPL) [ST] P 01/02/2025 01/03/2025 $1,001 -',
        '$15,000',
        'JT Microsoft Corporation (MSFT) [OP] S (partial) 01/05/2025 01/06/2025 $500,001 -',
        'Common Stock $1,000,000',
        'Acme ADR (ADR) (units) Description: Call option, strike of $160 expires 9/16/2022',
      ]),
    ).toEqual({ tickers: ['AAPL', 'MSFT'], estAmountHigh: 1_000_000 });
  });

  it('counts an open bracket as its lower bound, and finds nothing in text without brackets', () => {
    expect(scanText(['Spouse/DC Over $1,000,000', 'Over $50,000,000']).estAmountHigh).toBe(50_000_001);
    expect(scanText(['Filing ID #20026590', 'strike of $160', '$224.00'])).toEqual(NOTHING_SCANNED);
  });

  it('reads an HTML page as text and a broken PDF as nothing, without throwing', async () => {
    const html = new TextEncoder().encode(
      '<table><tr><td>AAPL</td><td>Apple Inc. (AAPL)</td><td>$15,001 - $50,000</td></tr></table>',
    );
    await expect(scanDocument(html, extractPdfText)).resolves.toEqual({
      tickers: ['AAPL'],
      estAmountHigh: 50_000,
    });
    const broken = new TextEncoder().encode('%PDF-1.7\nnot really a pdf');
    await expect(scanDocument(broken, extractPdfText)).resolves.toEqual(NOTHING_SCANNED);
  });

  it('extracts a document once for the scan and the parse', async () => {
    let calls = 0;
    const once = extractOnce(async () => {
      calls += 1;
      return { producer: null, creator: null, pages: [] };
    });
    const bytes = new Uint8Array([1, 2, 3]);
    await once(bytes);
    await once(bytes);
    expect(calls).toBe(1);
    await once(new Uint8Array([1, 2, 3]));
    expect(calls).toBe(2);
  });
});

describe.skipIf(!dataDir)('the quick scan of the real House PTRs', () => {
  const folders = ['efiled-2025', 'pelosi-2021-2022'];
  const files = dataDir
    ? folders.flatMap((folder) =>
        readdirSync(congressPath(dataDir, 'raw-house', 'ptr-pdfs', folder))
          .filter((name) => name.endsWith('.pdf'))
          .map((name) => [folder, name] as const),
      )
    : [];

  it.each(files)('%s/%s: every parsed ticker and the largest parsed amount', async (folder, name) => {
    const path = congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', folder, name);
    const pdf = await loadPdf(path);
    const parsed = parseHousePtrPdf(pdf);
    const scan = await scanDocument(readBytes(path), async () => pdf);
    const parsedTickers = new Set(
      parsed.trades.map((trade) => trade.ticker).filter((ticker) => ticker !== 'N/A'),
    );
    for (const ticker of parsedTickers) expect(scan.tickers, `${name} misses ${ticker}`).toContain(ticker);
    const tops = parsed.trades.map((trade) => trade.amount_high ?? trade.amount_low);
    expect(scan.estAmountHigh).toBe(tops.length === 0 ? null : Math.max(...tops));
  });

  it('fills the Pelosi filing 20026590 the way disclosure.detected now reports it', async () => {
    const path = congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'efiled-2025', '20026590.pdf');
    const scan = await scanDocument(readBytes(path), extractPdfText);
    expect(scan.tickers.length).toBeGreaterThan(0);
    expect(scan.estAmountHigh).toBeGreaterThanOrEqual(1_000_000);
  });
});
