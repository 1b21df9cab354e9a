// The one report a connector expects in a fetched document, or why the bytes are not one: the
// source's own reader (its parser) has read them; anything else than exactly one report becomes an
// unread document whose status and reason say why.
import type { ListedDocument } from './connector.js';
import { emptyFiling, type ParsedDocument, unreadDocument } from './document.js';
import type { LooseFileParse } from './loose-file.js';

export function oneReport(listed: ListedDocument, result: LooseFileParse): ParsedDocument {
  const fail = (reason: string) => unreadDocument(listed.source, 'unknown', 'failed', reason);
  if (result.kind === 'unreadable') {
    return unreadDocument(
      listed.source,
      'unknown',
      result.status,
      result.reason,
      emptyFiling({ is_paper: listed.isPaper }),
    );
  }
  if (result.kind !== 'reports') return fail(`expected a report, got ${result.what}`);
  const [document, ...others] = result.documents;
  if (!document) return fail('the document holds no report');
  if (others.length > 0) return fail(`expected one report, the document holds ${result.documents.length}`);
  return document;
}
