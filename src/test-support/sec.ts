// Recorded real SEC documents (../shared/data/related) stored through the SEC ingest's own store,
// for tests of routes over insider lines and 13D/G stakes (the trade fixture has none).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { storeSecDocument } from '../ingest/sources/sec/store.js';
import type { Database } from '../storage/schema.js';

/** Accession number, form, and the file's path under related/. */
export type RecordedSecDocument = readonly [string, string, readonly string[]];

/** DraftKings' Form 4 with several disposal lines, and a Schedule 13G. */
export const DKNG_FORM4_AND_13G: readonly RecordedSecDocument[] = [
  [
    '0001104659-25-025206',
    '4',
    ['form4', 'more', 'secform4project', 'draftking_multi_disposal.0001104659-25-025206.submission.txt'],
  ],
  ['0002048490-25-000001', 'SC 13G', ['sc13', 'edgartools', 'schedule13g.xml']],
];

/** Arrowhead's Form 4 (footnoted lines) and the Schedule 13G: one insider line and one stake to price. */
export const ARROWHEAD_FORM4_AND_13G: readonly RecordedSecDocument[] = [
  ['0001242615-25-000006', '4', ['form4', 'go-edgar', 'arrowhead_footnotes.input.xml']],
  ['0002048490-25-000001', 'SC 13G', ['sc13', 'edgartools', 'schedule13g.xml']],
];

/** Three Form 4s and two 13G filings (one amended, nested CUSIP) for the SEC routes' filters and sorts. */
export const SEC_ROUTE_DOCUMENTS: readonly RecordedSecDocument[] = [
  ['0001242615-25-000006', '4', ['form4', 'go-edgar', 'arrowhead_footnotes.input.xml']],
  ['0001127602-25-004598', '4', ['form4', 'edgartools', 'sgml__0001127602-25-004598.nc.txt']],
  ...DKNG_FORM4_AND_13G,
  ['0001425851-26-000001', 'SC 13G/A', ['sc13', 'edgartools', 'schedule13g_nested_cusip.xml']],
];

export async function storeRecordedSecDocuments(
  db: Kysely<Database>,
  documents: readonly RecordedSecDocument[],
  now: Date,
): Promise<void> {
  for (const [accession, form, path] of documents) {
    const text = readFileSync(join(inject('dataDir') ?? '', 'related', ...path), 'utf8');
    await storeSecDocument(
      db,
      { accession_number: accession, form, filed_date: null, url: null, content_hash: null, text },
      now,
    );
  }
}
