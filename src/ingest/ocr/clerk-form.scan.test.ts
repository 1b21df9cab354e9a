import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes, secIssuers } from '../../test-support/documents.js';
import { type GrayImage, rotateQuarter } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import { assetLexicon } from './lexicon.js';
import { distinctRules, horizontalLines, verticalLines } from './lines.js';
import { openRaster } from './rasterize.js';
import { readPage } from './read-scan.js';
import { scannedDocument } from './scanned-document.js';

const dataDir = inject('dataDir');

// The shared typed Clerk forms hold one row (8220747). A CONSTRUCTED page stands in for a filer's
// longer form: the real page with its row copied into the three empty rows under it, each copy's
// ticks moved into other boxes (the row's own pixels, the form's own boxes), so that every row
// says a type and a bracket of its own.

/** Copies a width × height block of `source` at `from` onto `target` at `to`. */
function copyBlock(
  target: GrayImage,
  source: GrayImage,
  from: { x: number; y: number },
  to: { x: number; y: number },
  size: { width: number; height: number },
): void {
  for (let dy = 0; dy < size.height; dy++) {
    const start = (from.y + dy) * source.width + from.x;
    target.data.set(source.data.subarray(start, start + size.width), (to.y + dy) * target.width + to.x);
  }
}

/**
 * The real 8220747 upright (the scan lies sideways: three quarter turns), with the table's last
 * five rules across (row 1's top, then the foot of row 1 and of the three empty rows) and the
 * rules down through row 1, which bound its cells: owner, asset, the four type boxes (Purchase,
 * Sale, Partial Sale, Exchange), the two dates, the amount boxes A to K.
 */
async function realClerkPage(): Promise<{ page: GrayImage; rows: number[]; down: number[] }> {
  const raster = await openRaster(
    readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220747.pdf')),
  );
  const page = rotateQuarter(await raster.render(1), 3);
  await raster.close();
  const across = distinctRules(
    horizontalLines(page, { minLength: Math.round(page.width * 0.4), maxGap: 6 }).map((line) =>
      Math.round(line.position),
    ),
  );
  const rows = across.slice(-5);
  const [top = 0, foot = 0] = rows;
  const down = distinctRules(
    verticalLines(page, { minLength: 40, maxGap: 6 })
      .filter((line) => line.start <= top + 6 && line.end >= foot - 6)
      .map((line) => Math.round(line.position)),
  );
  return { page, rows, down };
}

describe.skipIf(!dataDir)('a typed Clerk form of several rows (constructed from the real 8220747)', () => {
  it('reads every row, each with the type and bracket its ticks are in, and serves them', {
    timeout: 600_000,
  }, async () => {
    const { page, rows, down } = await realClerkPage();
    const [top = 0] = rows;
    expect(down).toHaveLength(20);
    const box = (cell: number) => ({ left: (down[cell] ?? 0) + 3, right: (down[cell + 1] ?? 0) - 3 });
    const TYPE = { Purchase: 2, Sale: 3, 'Sale (Partial)': 4, Exchange: 5 } as const;
    const AMOUNT = (letter: string) => 8 + letter.charCodeAt(0) - 'A'.charCodeAt(0);

    const built: GrayImage = { ...page, data: new Uint8Array(page.data) };
    const height = Math.min(...rows.slice(1).map((rule, index) => rule - (rows[index] ?? 0))) - 4;
    const copies: Array<{ type: keyof typeof TYPE; amount: string }> = [
      { type: 'Purchase', amount: 'C' },
      { type: 'Exchange', amount: 'K' },
      { type: 'Sale (Partial)', amount: 'F' },
    ];
    copies.forEach((copy, index) => {
      const y = (rows[index + 1] ?? 0) + 2;
      const from = top + 2;
      copyBlock(built, page, { x: 0, y: from }, { x: 0, y }, { width: page.width, height });
      // Row 1's Sale and A ticks out (the empty row's own boxes back), and into the copy's boxes.
      for (const [ticked, moved] of [
        [TYPE.Sale, TYPE[copy.type]],
        [AMOUNT('A'), AMOUNT(copy.amount)],
      ] as const) {
        const empty = box(ticked);
        const target = box(moved);
        const width = Math.min(empty.right - empty.left, target.right - target.left);
        copyBlock(built, page, { x: empty.left, y }, { x: empty.left, y }, { width, height });
        copyBlock(built, page, { x: empty.left, y: from }, { x: target.left, y }, { width, height });
      }
    });

    const engine = await TesseractEngine.start();
    const read = await readPage(built, 1, engine).finally(() => engine.close());
    expect(read.form).toMatchObject({ layout: 'clerk_form', uncertain: [] });
    const issuers = secIssuers(dataDir ?? '');
    const lexicon = await assetLexicon(
      issuers.map(([, name]) => name),
      [],
      issuers,
    );
    const trades = formReader('house_ptr_pdf').rows([read], '2025-02-06', lexicon);
    expect(
      trades.map((trade) => ({
        type: trade.trade_type,
        bracket: trade.amount?.range,
        asset: trade.asset_description,
        date: trade.transaction_date,
        owner: trade.owner,
        needs_review: trade.needs_review,
      })),
    ).toEqual(
      [
        { type: 'Sell', bracket: '$1,001 - $15,000' },
        { type: 'Buy', bracket: '$50,001 - $100,000' },
        { type: 'Exchange', bracket: 'Over $1,000,000' },
        { type: 'Sell (Partial)', bracket: '$500,001 - $1,000,000' },
      ].map((row) => ({
        ...row,
        asset: 'GE Vernova LLC',
        date: '2025-01-27',
        owner: 'Dependent Child',
        needs_review: false,
      })),
    );
  });
});

// A filer with no transaction to report files the form all the same and says so on it. No such
// scan is in the shared data: a CONSTRUCTED page stands in, the real 8220747 with its row blanked
// (the empty row under it copied over it) and "Nothing to report" typed into the asset cell.
describe.skipIf(!dataDir)(
  'a Clerk form that says "Nothing to report" (constructed from the real 8220747)',
  () => {
    it('is a parsed filing with no rows, not a scan that waits for review', {
      timeout: 600_000,
    }, async () => {
      const { page, rows: across, down } = await realClerkPage();
      const [top = 0, foot = 0, second = 0] = across;
      const built: GrayImage = { ...page, data: new Uint8Array(page.data) };
      const height = Math.min(foot - top, second - foot) - 4;
      copyBlock(built, page, { x: 0, y: foot + 2 }, { x: 0, y: top + 2 }, { width: page.width, height });

      // The asset cell is the second from the left (owner, asset, the type boxes ...).
      const left = (down[1] ?? 0) + 8;
      const width = (down[2] ?? 0) - 8 - left;
      const canvas = createCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      context.fillStyle = '#000000';
      context.font = `${Math.round(height * 0.45)}px "Liberation Sans"`;
      context.fillText('Nothing to report', 4, Math.round(height * 0.7));
      const rgba = context.getImageData(0, 0, width, height).data;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          built.data[(top + 2 + y) * built.width + left + x] = rgba[(y * width + x) * 4] ?? 255;

      const engine = await TesseractEngine.start();
      const read = await readPage(built, 1, engine).finally(() => engine.close());
      expect(read.form).toMatchObject({
        layout: 'clerk_form',
        nothingToReport: true,
        rows: [],
        uncertain: [],
      });
      const rows = formReader('house_ptr_pdf').rows([read], '2025-02-06', await assetLexicon());
      expect(rows).toEqual([]);
      const document = scannedDocument([read], rows, { source: 'house_clerk', kind: 'house_ptr_pdf' });
      expect(document).toMatchObject({ status: 'parsed', trades: [], rejected: [] });
      expect(document.reason).toBe('the filer reports nothing (scan read by OCR)');
    });
  },
);
