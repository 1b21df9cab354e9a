// The first row of a spreadsheet page ends its header: a line is taken for the first row when its
// date cell reads a date. A CONSTRUCTED page: the real 8220834's page 2 turned 0.25° (as a scanner
// feeding it a little askew would give it), on which the engine misreads the first row's date
// ("COMCAST CORP", 3/18/2025) as letters where the end of the header is judged, and the row was
// lost to the header. It is found by its notification date, and read as typed.
import { describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes, secIssuers } from '../../test-support/documents.js';
import { rotateSmall } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import { assetLexicon } from './lexicon.js';
import { openRaster } from './rasterize.js';
import { readPage } from './read-scan.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)(
  "a spreadsheet page whose first row's date is misread (constructed from the real 8220834)",
  () => {
    it('reads the first row instead of taking it for the header', {
      timeout: 600_000,
    }, async () => {
      const raster = await openRaster(
        readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220834.pdf')),
      );
      const page = rotateSmall(await raster.render(2), 0.25);
      await raster.close();
      const engine = await TesseractEngine.start('');
      let read: Awaited<ReturnType<typeof readPage>>;
      try {
        read = await readPage(page, 2, engine, { hint: null, kind: 'house_ptr_pdf' });
      } finally {
        await engine.close();
      }
      const issuers = secIssuers(dataDir ?? '');
      const lexicon = await assetLexicon(
        issuers.map(([, name]) => name),
        [],
        issuers,
      );
      const rows = formReader('house_ptr_pdf').rows([read], '2025-04-17', lexicon);
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
  },
);
