// SEC documents as `dcledger parse` reads them (Forms 3/4/5, Schedules 13D/13G, as XML, HTML or an
// EDGAR submission): the parsed filing as JSON in the field names the interface fixed, or the
// reason it cannot be read.
import type { LooseFileParse, LooseFileReader } from '../loose-file.js';
import type { OwnershipDocument } from './ownership.js';
import { looksLikeSecDocument, parseSecDocument, type SecParse } from './parse-sec.js';
import type { ScheduleDocument } from './schedule13.js';
import type { SubmissionHeader } from './submission.js';

export const secLooseFiles: LooseFileReader = {
  formats: { other: ['SEC Form 3/4/5 or Schedule 13D/G'] },

  // SEC filings are text (XML, HTML or an EDGAR envelope); a PDF never is one.
  async recognise(file) {
    if (file.isPdf || file.isZip) return 'no';
    return looksLikeSecDocument(file.text.slice(0, 200_000)) ? 'certain' : 'no';
  },

  async read(file) {
    const text = file.isPdf || file.isZip ? new TextDecoder('utf-8').decode(file.bytes) : file.text;
    return readSecText(text);
  },
};

export function readSecText(text: string): LooseFileParse {
  const result = parseSecDocument(text);
  const base = { kind: 'record', source: 'sec', what: 'an SEC filing' } as const;
  if (result.kind === 'unsupported' || result.kind === 'failed') {
    const words = result.kind === 'unsupported' ? 'unsupported' : 'cannot read';
    return {
      ...base,
      format: 'sec',
      json: null,
      summary: { kind: 'sec', status: result.kind, form: result.form, reason: result.reason },
      failure: `${words}: ${result.reason}`,
    };
  }
  return {
    ...base,
    format: result.kind === 'ownership' ? 'sec_ownership' : 'sec_schedule13',
    json:
      result.kind === 'ownership'
        ? ownershipJson(result.header, result.document)
        : scheduleJson(result.header, result.document),
    summary: summaryOf(result),
    failure: null,
  };
}

export function ownershipJson(header: SubmissionHeader, document: OwnershipDocument) {
  return {
    form: document.form,
    accession_number: header.accession_number,
    filed_date: header.filed_date,
    period_of_report: document.period_of_report,
    is_amendment: document.is_amendment,
    aff_10b5_one: document.aff_10b5_one,
    issuer: document.issuer,
    owners: document.owners,
    transactions: document.transactions,
    holdings: document.holdings,
    remarks: document.remarks,
  };
}

export function scheduleJson(header: SubmissionHeader, document: ScheduleDocument) {
  return {
    form: document.form,
    accession_number: header.accession_number,
    filed_date: header.filed_date,
    issuer: document.issuer,
    event_date: document.event_date,
    amendment_number: document.amendment_number,
    class_title: document.class_title,
    filer_cik: document.filer_cik,
    format: document.format,
    persons: document.persons,
  };
}

function summaryOf(result: Extract<SecParse, { kind: 'ownership' | 'schedule13' }>) {
  if (result.kind === 'ownership') {
    return {
      kind: 'sec_ownership',
      status: 'parsed',
      form: result.document.form,
      issuer: result.document.issuer.name,
      owners: result.document.owners.length,
      transactions: result.document.transactions.length,
      holdings: result.document.holdings.length,
    };
  }
  return {
    kind: 'sec_schedule13',
    status: 'parsed',
    form: result.document.form,
    issuer: result.document.issuer.name,
    persons: result.document.persons.length,
  };
}
