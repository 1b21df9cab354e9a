// OGE 278-T PDFs as `dcledger parse` and the connector read them (the form names the Office of
// Government Ethics; mirrors' files are often made with iText).
import { formatOf, type LooseFileReader, readPdfReport, recognisePdf, wrongFormat } from '../loose-file.js';
import { parseOge278Pdf } from './t278-pdf.js';

export const ogeLooseFiles: LooseFileReader = {
  formats: { pdf: { name: 'an OGE report', missingCue: 'no OGE form header' } },

  async recognise(file) {
    if (!file.isPdf) return 'no';
    return recognisePdf(file, /Government Ethics|Govemment Ethics|OGE Form 278/i, /iText/i);
  },

  async read(file) {
    if (!file.isPdf) return wrongFormat('an OGE 278-T PDF', formatOf(file));
    return readPdfReport(file, 'oge', 'oge_pdf', parseOge278Pdf);
  },

  // A 278-T does not print a document id: the file name is its id (as in the listing).
  documentIdFromName: (fileName) => fileName,
};
