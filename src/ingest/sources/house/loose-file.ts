// House files as `dcledger parse` and the connector read them: a PTR PDF (it prints "Filing ID #"
// and the Clerk's address) or a yearly index (XML, TXT or the zip the Clerk serves).
import { errorBodyReason } from '../error-body.js';
import {
  formatOf,
  type LooseFileParse,
  type LooseFileReader,
  readPdfReport,
  recognisePdf,
  wrongFormat,
} from '../loose-file.js';
import {
  HouseIndexFormatError,
  type HouseIndexRow,
  parseHouseIndexTxt,
  parseHouseIndexXml,
  parseHouseIndexZip,
} from './index-file.js';
import { parseHousePtrPdf } from './ptr-pdf.js';

const INDEX_XML = /<FinancialDisclosure\b/;
const INDEX_TXT = /^Prefix\tLast\tFirst\t/;

export const houseLooseFiles: LooseFileReader = {
  formats: { pdf: { name: 'a House PTR', missingCue: 'no "Filing ID #"' }, other: ['House index'] },

  async recognise(file) {
    if (file.isZip) return 'likely';
    if (file.isPdf) return recognisePdf(file, /Filing ID\s*#|Clerk of the House/i, /^EO\.Pdf/i);
    const head = file.text.slice(0, 4096);
    return INDEX_XML.test(head) || INDEX_TXT.test(head) ? 'certain' : 'no';
  },

  async read(file) {
    if (file.isPdf) return readPdfReport(file, 'house', 'house_pdf', parseHousePtrPdf);
    if (file.isZip) return index(() => parseHouseIndexZip(file.bytes), 'zip');
    const bodyError = errorBodyReason(file.text);
    if (bodyError) return { kind: 'unreadable', status: 'failed', reason: bodyError };
    const head = file.text.slice(0, 4096);
    if (INDEX_XML.test(head)) return index(() => parseHouseIndexXml(file.text), 'xml');
    if (INDEX_TXT.test(head)) return index(() => parseHouseIndexTxt(file.text), 'txt');
    return wrongFormat('a House PTR PDF or index', formatOf(file));
  },

  documentIdFromName(fileName) {
    // A scan prints no "Filing ID #"; the Clerk serves each PTR as "<document id>.pdf".
    return DOCUMENT_FILE.exec(fileName)?.[1] ?? null;
  },
};

const DOCUMENT_FILE = /^(\d{6,8})\.pdf$/i;

function index(read: () => HouseIndexRow[], format: 'xml' | 'txt' | 'zip'): LooseFileParse {
  let rows: HouseIndexRow[];
  try {
    rows = read();
  } catch (error) {
    if (error instanceof HouseIndexFormatError)
      return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
  const ptrs = rows.filter((row) => row.is_ptr);
  return {
    kind: 'listing',
    source: 'house',
    format,
    what: 'a House index',
    rows,
    summary: {
      kind: `house_index_${format}`,
      rows: rows.length,
      ptrs: ptrs.length,
      paper_ptrs: ptrs.filter((row) => row.is_paper).length,
    },
  };
}
