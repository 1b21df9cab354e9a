// The first row of a spreadsheet page ends its header: a line is taken for the first row when its
// date cell reads a date. Two CONSTRUCTED pages from the real 8220834's page 2, whose first row is
// "COMCAST CORP" (3/18/2025, 4/5/2025):
// - turned 0.25° (as a scanner feeding it a little askew would give it): the engine misreads the
//   row's date as letters where the end of the header is judged, and the row was lost to the
//   header. It is found by its notification date, and read as typed.
// - with both its date cells whitened (a filer who left them blank): the row was lost to the
//   header, and the page said nothing of it. It is marked as a trade is (a type, one amount
//   column), so it starts the body: read without dates, for review, on a page said uncertain.
import { describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes, secIssuers } from '../../test-support/documents.js';
import { type GrayImage, rotateSmall } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import { assetLexicon } from './lexicon.js';
import { openRaster } from './rasterize.js';
import { readPage } from './read-scan.js';

const dataDir = inject('dataDir');

async function pageTwo(): Promise<GrayImage> {
  const raster = await openRaster(
    readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220834.pdf')),
  );
  try {
    return await raster.render(2);
  } finally {
    await raster.close();
  }
}

async function lexicon() {
  const issuers = secIssuers(dataDir ?? '');
  return assetLexicon(
    issuers.map(([, name]) => name),
    [],
    issuers,
  );
}

describe.skipIf(!dataDir)(
  "a spreadsheet page whose first row's date is misread (constructed from the real 8220834)",
  () => {
    it('reads the first row instead of taking it for the header', {
      timeout: 600_000,
    }, async () => {
      const page = rotateSmall(await pageTwo(), 0.25);
      const engine = await TesseractEngine.start('');
      let read: Awaited<ReturnType<typeof readPage>>;
      try {
        read = await readPage(page, 2, engine, { hint: null, kind: 'house_ptr_pdf' });
      } finally {
        await engine.close();
      }
      const rows = formReader('house_ptr_pdf').rows([read], '2025-04-17', await lexicon());
      // Page 2 of the scan lists 21 trades, COMCAST CORP first.
      expect(rows).toHaveLength(21);
      // Read as typed: the row's own reading of its date (several reads) gets it right.
      expect(rows[0]).toMatchObject({
        asset_description: 'COMCAST CORP',
        owner: 'Spouse',
        trade_type: 'Buy',
        amount: { range: '$15,001 - $50,000' },
        transaction_date: '2025-03-18',
        notification_date: '2025-04-05',
      });
    });

    it('keeps a first row whose dates were left blank, for review, and says the page is uncertain', {
      timeout: 600_000,
    }, async () => {
      const page = await pageTwo();
      const engine = await TesseractEngine.start('');
      try {
        const names = await lexicon();
        const asScanned = await readPage(page, 2, engine, { hint: null, kind: 'house_ptr_pdf' });
        const columns = asScanned.form.columns;
        const comcast = formReader('house_ptr_pdf')
          .rows([asScanned], '2025-04-17', names)
          .find((row) => row.asset_description === 'COMCAST CORP');
        if (!columns || !comcast) throw new Error('page 2 as scanned: no columns, or no COMCAST CORP row');
        // Whiten the inside of the row's two date cells.
        const blanked = { ...page, data: new Uint8Array(page.data) };
        for (const span of [columns.date, columns.notification]) {
          for (let y = comcast.region.y + 3; y < comcast.region.y + comcast.region.height - 2; y++)
            for (let x = Math.ceil(span.left) + 4; x < span.right - 4; x++)
              blanked.data[y * page.width + x] = 255;
        }
        const read = await readPage(blanked, 2, engine, { hint: null, kind: 'house_ptr_pdf' });
        const rows = formReader('house_ptr_pdf').rows([read], '2025-04-17', names);
        expect(rows).toHaveLength(21);
        // Its B mark is read (beside a speck of the rule above it in G, which leaves the bracket
        // to the reviewer too).
        expect(rows[0]).toMatchObject({
          asset_description: 'COMCAST CORP',
          owner: 'Spouse',
          trade_type: 'Buy',
          transaction_date: null,
          notification_date: null,
          needs_review: true,
          read: { amounts: expect.stringMatching(/^B\b/) },
        });
        expect(read.form.uncertain).toEqual(['a line with marks but no date: "COMCAST CORP"']);
        expect(rows.slice(1).map((row) => row.asset_description)).toEqual(
          formReader('house_ptr_pdf')
            .rows([asScanned], '2025-04-17', names)
            .filter((row) => row.asset_description !== '')
            .slice(1)
            .map((row) => row.asset_description),
        );
      } finally {
        await engine.close();
      }
    });
  },
);
