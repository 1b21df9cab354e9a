// How a scanned 278-T's filer is judged from its pages' readings. The readings are constructed
// (the shapes the reader keeps); the real scan's are checked in oge-form.scan.test.ts.
import { describe, expect, it } from 'vitest';
import { type CellReading, type FilerReading, unreadPage } from './house-page.js';
import { filingOfFiler, judgedFiler, labelOf } from './oge-filer.js';
import type { OgePage, OgeRow } from './oge-form.js';
import type { ScannedPage } from './read-scan.js';
import { scannedDocument } from './scanned-document.js';

/** A cell read alike at every scale (`agreement` 1) unless told otherwise. */
function cell(text: string, confidence = 0.95, agreement = 1): CellReading {
  return { text, confidence, inked: true, agreement };
}

function pages(...filers: Array<FilerReading | undefined>) {
  return filers.map((filer, index) => ({ number: index + 1, form: filer ? { filer } : {} }));
}

const PAGE_ONE: FilerReading = {
  last: cell('Trump', 0.95, 1 / 3),
  first: cell('Donald'),
  middle: cell('J'),
  position: cell('President of the United States of America'),
  agency: { text: '', confidence: 1, inked: false },
  received: cell('OGE RECEIVED 11/17/2025', 0.92),
};

describe('labelOf', () => {
  it("names the filer's labels as the engine reads them, and nothing longer", () => {
    // Readings of the real scan's label cells, a letter lost or changed at a rule.
    expect(
      ['Last Namo', 'First Name', 'Mi', '| = i EL Pasition', 'Agency', "Filer's N amo B"].map(labelOf),
    ).toEqual(['last', 'first', 'middle', 'position', 'agency', 'full']);
    expect(labelOf("Filer's Information")).toBeNull();
    expect(labelOf('Agency Ethics Officials Opinion On the basis of information')).toBeNull();
    expect(labelOf('Signature:')).toBeNull();
    expect(labelOf('')).toBeNull();
  });
});

describe('judgedFiler', () => {
  it('uses a name two pages agree on, however unsure each reading is alone', () => {
    const filer = judgedFiler(pages(PAGE_ONE, { full: cell('Donald J Trump', 0.77, 1 / 3) }));
    expect(filer).toMatchObject({
      name: 'Donald J Trump',
      first_name: 'Donald',
      last_name: 'Trump',
      printed: 'Donald J Trump',
      position: 'President of the United States of America',
      agency: null,
      received_date: '2025-11-17',
    });
    expect(filer?.notes.join('; ')).toMatch(
      /page 1 reads "Trump, Donald J", page 2 reads "Donald J Trump", alike/,
    );
  });

  it('lets one page leave the middle initial out, or print it with a period', () => {
    expect(judgedFiler(pages(PAGE_ONE, { full: cell('Donald Trump', 0.6, 0.5) }))?.name).toBe(
      'Donald J Trump',
    );
    // The fuller reading names the filer; between two as full, the first page's.
    expect(judgedFiler(pages(PAGE_ONE, { full: cell('Donald J. Trump', 0.6, 0.5) }))?.name).toBe(
      'Donald J Trump',
    );
  });

  it('uses no name when the pages read different middle initials', () => {
    expect(judgedFiler(pages(PAGE_ONE, { full: cell('Donald K Trump', 0.6, 0.5) }))?.name).toBeNull();
  });

  it('uses no name when the pages disagree, even if one reads surely', () => {
    const filer = judgedFiler(
      pages({ ...PAGE_ONE, last: cell('Trump') }, { full: cell('Donald J Tramp', 0.7, 1 / 3) }),
    );
    expect(filer).toMatchObject({ name: null, first_name: null, last_name: null, printed: null });
    expect(filer?.notes.join('; ')).toMatch(/not used: .*which do not agree/);
  });

  it('uses one page alone only when every part of the name was read surely', () => {
    expect(judgedFiler(pages({ ...PAGE_ONE, last: cell('Trump') }))).toMatchObject({
      name: 'Donald J Trump',
      printed: 'Trump, Donald J',
    });
    // Read differently at another scale, or below the threshold, or not shaped as a name.
    expect(judgedFiler(pages(PAGE_ONE))?.name).toBeNull();
    expect(judgedFiler(pages({ full: cell('Donald J Trump', 0.7) }))?.name).toBeNull();
    expect(judgedFiler(pages({ full: cell('Donald J Trump Nn|') }))?.name).toBeNull();
    expect(judgedFiler(pages({ full: cell('Donald J Trump') }))?.name).toBe('Donald J Trump');
  });

  it('reads the received stamp as a date only when sure and real', () => {
    const stamp = (text: string, confidence = 0.92, agreement = 1) =>
      judgedFiler(pages({ received: cell(text, confidence, agreement) }))?.received_date;
    expect(stamp('OGE RECEIVED 11/17/2025')).toBe('2025-11-17');
    expect(stamp('RECEIVED: 2/3/2024')).toBe('2024-02-03');
    expect(stamp('OGE RECEIVED 13/17/2025')).toBeNull();
    expect(stamp('OGE RECEIVED 11/17/2025', 0.6)).toBeNull();
    expect(stamp('OGE RECEIVED 11/17/2025', 0.92, 0.5)).toBeNull();
    expect(stamp('OGE RECEIVED 11/17/25')).toBeNull();
  });

  it('is absent when no page names a filer', () => {
    expect(judgedFiler(pages(undefined, undefined))).toBeNull();
  });
});

describe('a scan whose pages name their filer', () => {
  const scanned = (filer: FilerReading | undefined, number: number): ScannedPage => ({
    number,
    quarterTurns: 0,
    skew: 0,
    dpi: 200,
    orientationCertainty: 1,
    cpuMs: 0,
    form: { ...unreadPage<'oge_278t', OgeRow>('oge_278t'), ...(filer ? { filer } : {}) } satisfies OgePage,
  });

  it('fills the filing fields the index left empty, and keeps the ones it gave', () => {
    const read = [scanned(PAGE_ONE, 1), scanned({ full: cell('Donald J Trump', 0.77, 1 / 3) }, 2)];
    const context = { source: 'oge', kind: 'oge_278t_pdf' } as const;
    const document = scannedDocument(read, [], { ...context, filing: { filed_date: null, agency: null } });
    expect(document.filing).toMatchObject(filingOfFiler(judgedFiler(read) ?? expect.fail('no filer')));
    expect(document.filing).toMatchObject({ filer_display_name: 'Donald J Trump', filed_date: '2025-11-17' });
    expect(document.ocr?.filer?.name).toBe('Donald J Trump');
    const listed = scannedDocument(read, [], { ...context, filing: { filed_date: '2025-11-14' } });
    expect(listed.filing.filed_date).toBe('2025-11-14');
    const house = scannedDocument([scanned(undefined, 1)], [], {
      source: 'house_clerk',
      kind: 'house_ptr_pdf',
    });
    expect(house.filing.filer_name).toBeNull();
    expect(house.ocr?.filer).toBeUndefined();
  });
});
