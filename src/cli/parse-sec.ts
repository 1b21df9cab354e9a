// `dcledger parse FILE` for SEC documents (Forms 3/4/5, Schedules 13D/13G): the parsed filing as
// JSON in the field names the issue fixed as the interface; exit 1 with the reason otherwise.
import { basename } from 'node:path';
import type { OwnershipDocument } from '../ingest/sources/sec/ownership.js';
import { looksLikeSecDocument, parseSecDocument, type SecParse } from '../ingest/sources/sec/parse-sec.js';
import type { ScheduleDocument } from '../ingest/sources/sec/schedule13.js';
import type { SubmissionHeader } from '../ingest/sources/sec/submission.js';
import { CommandError, printJson } from './output.js';

export { looksLikeSecDocument };

export function printSecDocument(file: string, text: string, summary: boolean): void {
  const result = parseSecDocument(text);
  const name = basename(file);
  if (result.kind === 'unsupported' || result.kind === 'failed') {
    if (summary)
      printJson({ file: name, kind: 'sec', status: result.kind, form: result.form, reason: result.reason });
    const words = result.kind === 'unsupported' ? 'unsupported' : 'cannot read';
    throw new CommandError(`${name}: ${words}: ${result.reason}`);
  }
  if (summary) {
    printJson(summaryOf(name, result));
    return;
  }
  printJson(
    result.kind === 'ownership'
      ? ownershipJson(result.header, result.document)
      : scheduleJson(result.header, result.document),
  );
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

function summaryOf(file: string, result: Extract<SecParse, { kind: 'ownership' | 'schedule13' }>) {
  if (result.kind === 'ownership') {
    return {
      file,
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
    file,
    kind: 'sec_schedule13',
    status: 'parsed',
    form: result.document.form,
    issuer: result.document.issuer.name,
    persons: result.document.persons.length,
  };
}
