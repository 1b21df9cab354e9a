// Which reader reads which kind of scanned document: the page reader that finds its form's table
// and the judge that turns the pages read into rows with their confidences. One table, so the
// worker thread, the stage and `dcledger parse` agree on what each kind is read as.
import type { DocumentKind } from '../sources/document.js';
import type { GrayImage } from './bitmap.js';
import { rowsOfScan } from './document-rows.js';
import type { OcrEngine } from './engine.js';
import { readHousePage } from './house-form.js';
import type { HousePage } from './house-page.js';
import type { Lexicon } from './lexicon.js';
import { type OgePage, readOge278tPage } from './oge-form.js';
import { ogeRowsOfScan } from './oge-rows.js';
import type { ScannedRow } from './scanned-rows.js';
import { readSenatePaperPage, type SenatePage } from './senate-form.js';
import { senateRowsOfScan } from './senate-rows.js';

/** What reading one page yields, whichever form it is. */
export type FormPage = HousePage | OgePage | SenatePage;

interface FormReader {
  readPage(image: GrayImage, engine: OcrEngine): Promise<FormPage>;
  rows(
    pages: ReadonlyArray<{ number: number; form: FormPage }>,
    filedDate: string | null,
    lexicon?: Lexicon,
  ): ScannedRow[];
}

const HOUSE: FormReader = {
  readPage: readHousePage,
  rows: (pages, filedDate, lexicon) =>
    rowsOfScan(
      pages.flatMap((page) => (isHousePage(page.form) ? [{ number: page.number, form: page.form }] : [])),
      filedDate,
      lexicon,
    ),
};

const OGE_278T: FormReader = {
  readPage: readOge278tPage,
  rows: (pages, filedDate, lexicon) =>
    ogeRowsOfScan(
      pages.flatMap((page) => (isOgePage(page.form) ? [{ number: page.number, form: page.form }] : [])),
      filedDate,
      lexicon,
    ),
};

const SENATE_PAPER: FormReader = {
  readPage: readSenatePaperPage,
  rows: (pages, filedDate, lexicon) =>
    senateRowsOfScan(
      pages.flatMap((page) =>
        page.form.layout === 'senate_paper_ptr' ? [{ number: page.number, form: page.form }] : [],
      ),
      filedDate,
      lexicon,
    ),
};

const READERS: Partial<Record<DocumentKind, FormReader>> = {
  house_ptr_pdf: HOUSE,
  oge_278t_pdf: OGE_278T,
  senate_paper_ptr_images: SENATE_PAPER,
};

/** The kinds of document the OCR stage reads. */
export const READABLE_KINDS: ReadonlySet<DocumentKind> = new Set(Object.keys(READERS) as DocumentKind[]);

/** The reader of a kind; a kind without one is read as a House paper PTR (`dcledger parse` of a bare scan). */
export function formReader(kind: DocumentKind): FormReader {
  return READERS[kind] ?? HOUSE;
}

export function isOgePage(form: FormPage): form is OgePage {
  return form.layout === 'oge_278t';
}

function isHousePage(form: FormPage): form is HousePage {
  return form.layout !== 'oge_278t' && form.layout !== 'senate_paper_ptr';
}
