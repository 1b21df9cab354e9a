// Content-addressed documents: the names (a source's document ids, the URLs of pages) each source
// served a document under, with the SHA-256 of its bytes. The bytes themselves are in the archive
// under that hash; a second name of the same bytes is recorded here and its document stored once.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface DocumentName {
  source: string;
  name: string;
  sha256: string;
  url: string | null;
  bytes: number;
}

/** Records (or refreshes) the bytes a name served. */
export async function recordDocumentName(
  db: Kysely<Database>,
  document: DocumentName,
  now: string,
): Promise<void> {
  await db
    .insertInto('document_names')
    .values({ ...document, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) =>
      oc.columns(['source', 'name']).doUpdateSet({
        sha256: document.sha256,
        url: document.url,
        bytes: document.bytes,
        last_seen_at: now,
      }),
    )
    .execute();
}

/** The first name other than `name` under which the source served these bytes, if any. */
export async function otherNameOfContent(
  db: Kysely<Database>,
  source: string,
  sha256: string,
  name: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('document_names')
    .select('name')
    .where('source', '=', source)
    .where('sha256', '=', sha256)
    .where('name', '<>', name)
    .orderBy('first_seen_at', 'asc')
    .orderBy('name', 'asc')
    .executeTakeFirst();
  return row?.name ?? null;
}

/** Every name of the bytes a source served, first seen first. */
export async function namesOfContent(
  db: Kysely<Database>,
  source: string,
  sha256: string,
): Promise<DocumentName[]> {
  return db
    .selectFrom('document_names')
    .select(['source', 'name', 'sha256', 'url', 'bytes'])
    .where('source', '=', source)
    .where('sha256', '=', sha256)
    .orderBy('first_seen_at', 'asc')
    .orderBy('name', 'asc')
    .execute();
}
