// EDGAR wraps a filing's documents in one of two envelopes: the full `.txt` submission
// (`<SEC-DOCUMENT>` with a `<SEC-HEADER>` of "KEY: value" lines) and the `.nc` format
// (`<SUBMISSION>` with one-line SGML tags such as `<ACCESSION-NUMBER>0001127602-25-004598`).
// Both carry each document inside `<DOCUMENT>…<TEXT>…</TEXT>`, an XML one inside `<XML>…</XML>`.

export interface SubmissionHeader {
  accession_number: string | null;
  form_type: string | null;
  filed_date: string | null;
  period_of_report: string | null;
  /** The subject company (issuer) as the header names it, when it does. */
  issuer_cik: string | null;
  issuer_name: string | null;
}

export interface SubmissionDocument {
  type: string | null;
  filename: string | null;
  /** The document's body: the XML inside `<XML>` when there is one, otherwise the `<TEXT>`. */
  body: string;
  is_xml: boolean;
}

export interface Submission {
  envelope: 'sec_document' | 'nc' | 'none';
  header: SubmissionHeader;
  documents: SubmissionDocument[];
}

const EMPTY_HEADER: SubmissionHeader = {
  accession_number: null,
  form_type: null,
  filed_date: null,
  period_of_report: null,
  issuer_cik: null,
  issuer_name: null,
};

export function isSubmissionEnvelope(text: string): boolean {
  const head = text.slice(0, 4000);
  return /<SEC-DOCUMENT>|<SEC-HEADER>|<SUBMISSION>|<ACCESSION-NUMBER>|<ACCEPTANCE-DATETIME>|^ACCESSION NUMBER:/m.test(
    head,
  );
}

/** Splits an envelope into its header and documents; a bare document comes back as itself. */
export function readSubmission(text: string): Submission {
  if (!isSubmissionEnvelope(text)) {
    return { envelope: 'none', header: EMPTY_HEADER, documents: [bareDocument(text)] };
  }
  // The `.nc` style writes the header as one-line tags; the `.txt` style as "KEY: value" lines.
  const envelope = /<ACCESSION-NUMBER>/.test(text.slice(0, 4000)) ? 'nc' : 'sec_document';
  const header = envelope === 'nc' ? ncHeader(text) : secHeader(text);
  return { envelope, header, documents: documentsOf(text) };
}

function bareDocument(text: string): SubmissionDocument {
  return { type: null, filename: null, body: text, is_xml: /^\s*<\?xml|^\s*<[A-Za-z]/.test(text) };
}

function secHeader(text: string): SubmissionHeader {
  const end = text.indexOf('</SEC-HEADER>');
  const header = end > 0 ? text.slice(0, end) : text.slice(0, 8000);
  const subject =
    /(?:SUBJECT COMPANY|ISSUER):\s*[\s\S]*?COMPANY CONFORMED NAME:\s*([^\n]+)\n\s*CENTRAL INDEX KEY:\s*(\d+)/.exec(
      header,
    );
  return {
    accession_number: line(header, 'ACCESSION NUMBER'),
    form_type: line(header, 'CONFORMED SUBMISSION TYPE'),
    filed_date: compactDate(line(header, 'FILED AS OF DATE')),
    period_of_report: compactDate(line(header, 'CONFORMED PERIOD OF REPORT')),
    issuer_cik: subject?.[2] ?? null,
    issuer_name: subject?.[1]?.trim() ?? null,
  };
}

function line(header: string, key: string): string | null {
  const match = new RegExp(`^\\s*${key}:[ \\t]*([^\\n]*)$`, 'm').exec(header);
  const value = match?.[1]?.trim();
  return value ? value : null;
}

function ncHeader(text: string): SubmissionHeader {
  const issuer =
    /<ISSUER>[\s\S]*?<CONFORMED-NAME>([^<\n]+)[\s\S]*?<CIK>(\d+)/.exec(text) ??
    /<SUBJECT-COMPANY>[\s\S]*?<CONFORMED-NAME>([^<\n]+)[\s\S]*?<CIK>(\d+)/.exec(text);
  return {
    accession_number: tag(text, 'ACCESSION-NUMBER'),
    form_type: tag(text, 'TYPE'),
    filed_date: compactDate(tag(text, 'FILING-DATE')),
    period_of_report: compactDate(tag(text, 'PERIOD')),
    issuer_cik: issuer?.[2] ?? null,
    issuer_name: issuer?.[1]?.trim() ?? null,
  };
}

function tag(text: string, name: string): string | null {
  const match = new RegExp(`<${name}>([^<\\n]*)`).exec(text);
  const value = match?.[1]?.trim();
  return value ? value : null;
}

function compactDate(value: string | null): string | null {
  const match = value ? /^(\d{4})(\d{2})(\d{2})/.exec(value) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function documentsOf(text: string): SubmissionDocument[] {
  const documents: SubmissionDocument[] = [];
  const pattern = /<DOCUMENT>([\s\S]*?)(?:<\/DOCUMENT>|$)/g;
  for (const match of text.matchAll(pattern)) {
    const chunk = match[1] ?? '';
    const xml = /<XML>([\s\S]*?)<\/XML>/.exec(chunk);
    const body = xml ? (xml[1] ?? '') : textPart(chunk);
    documents.push({
      type: tag(chunk, 'TYPE'),
      filename: tag(chunk, 'FILENAME'),
      body,
      is_xml: Boolean(xml),
    });
  }
  return documents;
}

function textPart(chunk: string): string {
  const start = chunk.indexOf('<TEXT>');
  if (start < 0) return chunk;
  const end = chunk.indexOf('</TEXT>', start);
  return chunk.slice(start + '<TEXT>'.length, end < 0 ? undefined : end);
}
