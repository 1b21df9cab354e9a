// One entry point for an SEC document's text: a bare ownership or Schedule 13D/G XML, a legacy
// 13D/G HTML page, or either inside an EDGAR envelope (`.txt` submission or `.nc`). What cannot be
// read comes back with a status and a reason, never dropped: a Form 4 from before XML (2003) is
// `unsupported`.
import {
  isOwnershipXml,
  type OwnershipDocument,
  OwnershipFormatError,
  parseOwnershipXml,
} from './ownership.js';
import {
  isScheduleText,
  isScheduleXml,
  parseScheduleText,
  parseScheduleXml,
  type ScheduleDocument,
  ScheduleFormatError,
} from './schedule13.js';
import { isSubmissionEnvelope, readSubmission, type SubmissionHeader } from './submission.js';
import { XmlFormatError } from './xml.js';

export type SecParse =
  | { kind: 'ownership'; header: SubmissionHeader; document: OwnershipDocument }
  | { kind: 'schedule13'; header: SubmissionHeader; document: ScheduleDocument }
  | { kind: 'unsupported'; header: SubmissionHeader; form: string | null; reason: string }
  | { kind: 'failed'; header: SubmissionHeader; form: string | null; reason: string };

const OWNERSHIP_FORMS = /^(3|4|5)(\/A)?$/i;
const SCHEDULE_FORMS = /^(SC|SCHEDULE)\s*13[DG](\/A)?$/i;

/** Whether the text looks like an SEC document this module reads (used by `dcledger parse`). */
export function looksLikeSecDocument(text: string): boolean {
  return isSubmissionEnvelope(text) || isOwnershipXml(text) || isScheduleXml(text) || isScheduleText(text);
}

export function parseSecDocument(text: string): SecParse {
  const submission = readSubmission(text.replace(/^\uFEFF/, ''));
  const header = submission.header;
  const formType = header.form_type;
  for (const document of submission.documents) {
    const parsed = parseOne(document.body, document.type ?? formType, header);
    if (parsed) return parsed;
  }
  if (submission.envelope !== 'none' && submission.documents.length === 0) {
    return { kind: 'unsupported', header, form: formType, reason: 'an EDGAR header without any document' };
  }
  if (formType && OWNERSHIP_FORMS.test(formType)) {
    return {
      kind: 'unsupported',
      header,
      form: formType,
      reason: `Form ${formType} without an ownershipDocument XML (a text filing from before 2003)`,
    };
  }
  if (formType && !SCHEDULE_FORMS.test(formType)) {
    return {
      kind: 'unsupported',
      header,
      form: formType,
      reason: `form ${formType} is not a Form 3/4/5 or Schedule 13D/G`,
    };
  }
  return {
    kind: 'unsupported',
    header,
    form: formType,
    reason: 'not a Form 3/4/5 ownership document or a Schedule 13D/13G',
  };
}

function parseOne(body: string, type: string | null, header: SubmissionHeader): SecParse | null {
  try {
    if (isOwnershipXml(body)) return { kind: 'ownership', header, document: parseOwnershipXml(body) };
    if (isScheduleXml(body)) return { kind: 'schedule13', header, document: parseScheduleXml(body) };
    if ((type === null || SCHEDULE_FORMS.test(type)) && isScheduleText(body)) {
      return { kind: 'schedule13', header, document: parseScheduleText(body, type) };
    }
  } catch (error) {
    if (
      error instanceof OwnershipFormatError ||
      error instanceof ScheduleFormatError ||
      error instanceof XmlFormatError
    ) {
      return { kind: 'failed', header, form: type, reason: error.message };
    }
    throw error;
  }
  return null;
}
