// The one report a connector expects in a fetched document, or why the bytes are not one. Each
// connector names its source, so nothing is guessed: the source's own parser runs, and bytes of
// another format are refused with a reason that says what they are instead.
import type { SourceName } from '../../domain/sources.js';
import type { ListedDocument, ParseOptions } from './connector.js';
import { emptyFiling, type ParsedDocument, unreadDocument } from './document.js';
import { parseDocument } from './parse-document.js';

export async function readReport(
  source: SourceName,
  listed: ListedDocument,
  bytes: Uint8Array,
  options: ParseOptions,
): Promise<ParsedDocument> {
  const fail = (reason: string) => unreadDocument(listed.source, 'unknown', 'failed', reason);
  const result = await parseDocument(bytes, { source, pdfText: options.pdfText });
  if (result.kind === 'unreadable') {
    return unreadDocument(
      listed.source,
      'unknown',
      result.status,
      result.reason,
      emptyFiling({ is_paper: listed.isPaper }),
    );
  }
  if (result.kind !== 'reports')
    return fail(
      `expected a report, got ${result.kind === 'house_index' ? 'a House index' : 'eFD search results'}`,
    );
  const [document, ...others] = result.documents;
  if (!document) return fail('the document holds no report');
  if (others.length > 0) return fail(`expected one report, the document holds ${result.documents.length}`);
  return document;
}
