// eFD files as `dcledger parse` and the connector read them: report pages (HTML, one or several
// saved back to back) and search answers (JSON).
import { errorBodyReason } from '../error-body.js';
import { formatOf, type LooseFileParse, type LooseFileReader, wrongFormat } from '../loose-file.js';
import { parseSenatePtrPages } from './ptr-page.js';
import { isSenateSearchJson, parseSenateSearchResults, SenateSearchFormatError } from './search-results.js';

const EFD_PAGE = /efd|Financial Disclosure|Periodic Transaction Report/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const isHtml = (head: string) => /<html/i.test(head) || /<!DOCTYPE html/i.test(head);
const isJson = (head: string) => /^\s*[[{]/.test(head);

export const senateLooseFiles: LooseFileReader = {
  formats: { html: 'a Senate eFD report', json: 'eFD search results' },

  async recognise(file) {
    if (file.isPdf || file.isZip) return 'no';
    const head = file.text.slice(0, 4096);
    if (isHtml(head)) return EFD_PAGE.test(file.text) ? 'certain' : 'no';
    if (isJson(head)) return isSenateSearchJson(parseJson(file.text)) ? 'certain' : 'no';
    return 'no';
  },

  async read(file) {
    if (file.isPdf) return wrongFormat('an eFD page (HTML)', 'a PDF');
    if (file.isZip) return wrongFormat('an eFD page (HTML)', 'a zip archive');
    const bodyError = errorBodyReason(file.text);
    if (bodyError) return { kind: 'unreadable', status: 'failed', reason: bodyError };
    const head = file.text.slice(0, 4096);
    if (isHtml(head)) {
      if (!EFD_PAGE.test(file.text))
        return { kind: 'unreadable', status: 'failed', reason: 'HTML page that is not a Senate eFD report' };
      return {
        kind: 'reports',
        source: 'senate',
        format: 'senate_html',
        documents: parseSenatePtrPages(file.text),
      };
    }
    if (isJson(head)) return searchResults(file.text);
    return wrongFormat('an eFD page (HTML) or eFD search results', formatOf(file));
  },

  documentIdFromName(fileName) {
    // eFD pages do not print their report id; a file saved as "<uuid>.html" carries it.
    return UUID.exec(fileName)?.[0]?.toLowerCase() ?? null;
  },
};

function searchResults(text: string): LooseFileParse {
  const json = parseJson(text);
  if (json === undefined) return { kind: 'unreadable', status: 'failed', reason: 'malformed JSON' };
  if (!isSenateSearchJson(json))
    return { kind: 'unreadable', status: 'failed', reason: 'JSON that is not eFD search results' };
  try {
    const page = parseSenateSearchResults(json);
    return {
      kind: 'listing',
      source: 'senate',
      format: 'senate_search',
      what: 'eFD search results',
      rows: page.rows,
      summary: { kind: 'senate_search', records_total: page.records_total, rows: page.rows.length },
    };
  } catch (error) {
    if (error instanceof SenateSearchFormatError)
      return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
