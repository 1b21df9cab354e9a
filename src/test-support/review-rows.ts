// A real scan in an archive with a constructed paper filing and constructed review-queue rows on
// its first page (the values are made up for tests; the page and its geometry are the scan's).
import type { Kysely } from 'kysely';
import { createAccount } from '../accounts/admin.js';
import { startSession } from '../accounts/sessions.js';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import { setOperator } from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';
import { insertTestMember } from './constructed-rows.js';
import { congressPath, readBytes } from './documents.js';

const FILED = new Date('2025-04-01T00:00:00Z');

/** What the OCR stage says of a scan it read no row from (ingest/ocr/scanned-document.ts). */
export const NO_ROW_READ =
  'scan read by OCR: 0 of 0 row(s) wait for review (no transaction rows were read from the scan)';

/**
 * Puts the House scan `docId` of the shared data into the archive at `archiveDir` (or, with
 * `archived: false`, leaves it out) and records its filing, waiting for review; the filing's id.
 */
export async function scanFiling(
  db: Kysely<Database>,
  options: {
    dataDir: string;
    archiveDir: string;
    docId: string;
    archived?: boolean;
    /** The filing's parse reason ("constructed" when absent). */
    reason?: string;
    /** The member it is filed under (a test member when absent). */
    politicianId?: number;
  },
): Promise<number> {
  const sha =
    options.archived === false
      ? 'f'.repeat(64)
      : new DocumentArchive(options.archiveDir).put(
          Buffer.from(
            readBytes(
              congressPath(options.dataDir, 'raw-house', 'ptr-pdfs', 'scanned-2025', `${options.docId}.pdf`),
            ),
          ),
        );
  const stamp = FILED.toISOString();
  const member =
    options.politicianId ??
    (await db.selectFrom('politicians').select('id').where('slug', '=', 'test-filer').executeTakeFirst())
      ?.id ??
    (await insertTestMember(db, { slug: 'test-filer', name: 'Test Filer', chamber: 'House' }, FILED));
  const filing = await db
    .insertInto('filings')
    .values({
      source: 'house_clerk',
      source_doc_id: options.docId,
      kind: 'PTR',
      politician_id: member,
      filer_name: 'Test Filer',
      filed_date: '2025-03-13',
      url: null,
      is_paper: 1,
      raw_sha256: sha,
      parse_status: 'needs_review',
      parse_reason: options.reason ?? 'constructed',
      trade_count: 0,
      amends_filing_id: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return filing.id;
}

/** A constructed row waiting for review on page 1 of the filing's scan (its owner is doubtful); its id. */
export async function waitingRow(
  db: Kysely<Database>,
  filingId: number,
  docId: string,
  row: number,
  fields: Record<string, string | null>,
): Promise<number> {
  const item = await db
    .insertInto('review_items')
    .values({
      filing_id: filingId,
      source: 'house_clerk',
      source_key: `${docId}#${row}`,
      page: 1,
      row,
      status: 'pending',
      fields: JSON.stringify(fields),
      confidence: JSON.stringify({ transaction_date: 0.9, owner: 0.4, trade_type: 0.95, amount_range: 0.9 }),
      reasons: JSON.stringify(['owner: the code is unclear']),
      region: JSON.stringify({ x: 100, y: 600, width: 1400, height: 60, quarterTurns: 0, skew: 0, dpi: 100 }),
      trade_id: null,
      created_at: FILED.toISOString(),
      decided_at: null,
      decided_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return item.id;
}

/** A signed-in account of the review pages' tests: its id, session cookie token and CSRF token. */
export interface SignedIn {
  id: number;
  token: string;
  csrf: string;
}

/**
 * An operator and an account that is none, each on the max plan and signed in; with the
 * operator's API key (for GET /filings/{id}).
 */
export async function operatorAndMember(
  db: Kysely<Database>,
  now: Date,
): Promise<{ operator: SignedIn; member: SignedIn; apiKey: string }> {
  const signIn = async (email: string, isOperator: boolean) => {
    const created = await createAccount(db, { email, plan: 'max', paid: true }, now);
    await setOperator(db, created.account_id, isOperator, now.toISOString());
    const session = await startSession(db, created.account_id, now);
    return {
      account: { id: created.account_id, token: session.token, csrf: session.csrfToken },
      apiKey: created.key.api_key,
    };
  };
  const operator = await signIn('operator@example.org', true);
  const member = await signIn('member@example.org', false);
  return { operator: operator.account, member: member.account, apiKey: operator.apiKey };
}
