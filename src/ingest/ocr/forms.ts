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

/**
 * Skew below this is left alone on a House form: turning a 1-bit scan costs sharpness, and the
 * reader reads pages as scanned up to it (the real scans' pages lie at 0 to 0.35 degrees). Above
 * it a rule drifts by more than 15 pixels across a page, near where its pieces stop being one
 * rule (SAME_RULE).
 */
export const MIN_SKEW = 0.4;

/**
 * The same for a form ruled around every cell (ruled-table.ts: the OGE 278-T, the Senate paper
 * PTR): a row's rule is found as one run of ink along a pixel row over most of the table's width,
 * and a thin rule leaves its pixel row within a few hundred pixels at 0.3 degrees: the whole
 * table is then lost. The estimate's own step is 0.05 degrees.
 */
export const RULED_FORM_MIN_SKEW = 0.1;

interface FormReader {
  /** Skew (degrees) below which a page of this form is read as scanned, not turned back. */
  minSkew: number;
  readPage(image: GrayImage, engine: OcrEngine): Promise<FormPage>;
  rows(
    pages: ReadonlyArray<{ number: number; form: FormPage }>,
    filedDate: string | null,
    lexicon?: Lexicon,
  ): ScannedRow[];
}

/** A form's reader: the pages of its layout are judged together, any other page left out. */
function readerOfForm<Page extends FormPage>(
  minSkew: number,
  readPage: (image: GrayImage, engine: OcrEngine) => Promise<Page>,
  isPage: (form: FormPage) => form is Page,
  rowsOf: (
    pages: ReadonlyArray<{ number: number; form: Page }>,
    filedDate: string | null,
    lexicon?: Lexicon,
  ) => ScannedRow[],
): FormReader {
  return {
    minSkew,
    readPage,
    rows: (pages, filedDate, lexicon) =>
      rowsOf(
        pages.flatMap((page) => (isPage(page.form) ? [{ number: page.number, form: page.form }] : [])),
        filedDate,
        lexicon,
      ),
  };
}

const HOUSE = readerOfForm(MIN_SKEW, readHousePage, isHousePage, rowsOfScan);
const OGE_278T = readerOfForm(RULED_FORM_MIN_SKEW, readOge278tPage, isOgePage, ogeRowsOfScan);
const SENATE_PAPER = readerOfForm(RULED_FORM_MIN_SKEW, readSenatePaperPage, isSenatePage, senateRowsOfScan);

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

function isSenatePage(form: FormPage): form is SenatePage {
  return form.layout === 'senate_paper_ptr';
}
