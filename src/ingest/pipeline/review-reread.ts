// Reading again the scans whose rows wait for review (`dcledger review reread`). A scan's asset
// names are checked against the companies and trade descriptions the database holds when it is
// read; one read before `dcledger companies import` (a first start fills the database from the
// official sites before anyone imports the company directory) has most of its names waiting for
// a person. Read again from the archive with what the database holds now, a waiting row that is
// now read surely is accepted as read again, recorded as a decision with each changed field's old
// and new value; one still doubtful keeps waiting with what it now reads, its confidences and
// reasons. Nothing else changes: rows already decided keep their decision, trades already served
// are not touched, and a row the new reading does not find where the old one was keeps waiting.
// Every ingest run does the same by itself, once, for the scans read while the database held no
// companies, when it holds some (rereadScansReadWithoutIssuers, called by setup.ts).
import type { Kysely } from 'kysely';
import { findFiling } from '../../storage/repositories/filings.js';
import { holdsIssuerNames } from '../../storage/repositories/ocr-pages.js';
import {
  filingsWaitingReview,
  markFilingReviewed,
  pendingReviewCountOfFiling,
  rereadPendingItem,
  reviewItemsOfFiling,
} from '../../storage/repositories/review.js';
import type { Database } from '../../storage/schema.js';
import { DocumentArchive } from '../fetch/archive.js';
import {
  type OcrWorker,
  OcrWorkerError,
  type ReadScannedOptions,
  readScannedDocument,
} from '../ocr/index.js';
import { isPageImages } from '../ocr/page-images.js';
import type { ParsedDocument, TradeSource } from '../sources/document.js';
import { parseDocument } from '../sources/parse-document.js';
import { ocrWorkerOfDatabase, WITHOUT_ISSUERS, WITHOUT_ISSUERS_MARK } from './ocr-stage.js';
import type { RereadSummary } from './report.js';
import { decideReviewItem, ReviewError } from './review.js';
import { type ReviewEntry, reviewEntriesOf } from './review-items.js';

export interface RereadFiling {
  filing_id: number;
  source: string;
  /** read: the scan was read again; otherwise why it was not (its rows keep waiting as they were). */
  outcome: 'read' | 'not_archived' | 'not_a_scan' | 'failed';
  /** Waiting rows now read surely: accepted, each a trade. */
  accepted: number;
  /** Waiting rows still doubtful: they wait with what they now read. */
  waiting: number;
  /** Waiting rows the new reading did not find at their place (they wait as they were). */
  unmatched: number;
  /** Waiting rows decided by a person while the scan was read again (their decision stands). */
  decided_meanwhile: number;
}

export interface RereadOptions {
  /** Where the documents were archived when ingested (`DCLEDGER_ARCHIVE_DIR`). */
  archiveDir: string;
  /** Who ran the reread: recorded on each row it accepts. */
  by: string;
  /** Only the filings of this source. */
  source?: string;
  /** Only the filings read while the database held no companies (their reason says so). */
  readWithoutIssuers?: boolean;
  /** Stops between filings (a stopping process); the filings not reached keep waiting as they were. */
  signal?: AbortSignal;
  now?: () => Date;
  /** After each filing (for progress): the filings done of the total. */
  onFiling?: (done: RereadFiling, index: number, total: number) => void;
  /** After each page of a filing's scan is read. */
  onPage?: (filingId: number, done: number, total: number, source: string) => void;
}

/**
 * The archived document read again as a scan: a bundle of page images (a Senate paper filing's) as
 * such, a PDF as `dcledger parse` reads one (the source whose reader recognises its form, a House
 * paper PTR when none does). Null when it is no scan the reader knows.
 */
async function readAgain(
  bytes: Uint8Array,
  filing: { source: string; filed_date: string | null },
  options: Pick<ReadScannedOptions, 'worker' | 'progress'>,
): Promise<ParsedDocument | null> {
  const source = filing.source as TradeSource;
  if (isPageImages(bytes))
    return readScannedDocument(bytes, {
      ...options,
      source,
      kind: 'senate_paper_ptr_images',
      filing: { filed_date: filing.filed_date },
    });
  const parsed = await parseDocument(bytes, {
    ocr: (scan, found) =>
      readScannedDocument(scan, {
        ...options,
        ...found,
        source,
        filing: { ...found.filing, filed_date: filing.filed_date ?? found.filing?.filed_date ?? null },
      }),
  });
  const [document] = parsed.kind === 'reports' ? parsed.documents : [];
  return document?.ocr ? document : null;
}

/** A waiting row's place and the new reading's row there: the same row of the document. */
function samePlace(entry: ReviewEntry, item: { page: number; region: string }): boolean {
  const before = JSON.parse(item.region) as { y: number; height: number };
  const now = entry.region;
  return entry.row.page === item.page && Math.abs(now.y - before.y) <= Math.max(4, before.height / 2);
}

export async function rereadWaitingScans(
  db: Kysely<Database>,
  options: RereadOptions,
): Promise<RereadFiling[]> {
  const now = options.now ?? (() => new Date());
  const filings = await filingsWaitingReview(db, {
    ...(options.source ? { source: options.source } : {}),
    ...(options.readWithoutIssuers ? { reasonIncludes: WITHOUT_ISSUERS_MARK } : {}),
  });
  if (filings.length === 0) return [];
  const archive = new DocumentArchive(options.archiveDir);
  // One reader thread for the whole reread, with the names the database holds now.
  const { worker, withoutIssuers } = await ocrWorkerOfDatabase(db);
  const done: RereadFiling[] = [];
  try {
    for (const [index, { filing_id, source }] of filings.entries()) {
      if (options.signal?.aborted) break;
      const outcome = await rereadFiling(db, filing_id, source, {
        archive,
        worker,
        withoutIssuers,
        by: options.by,
        now,
        ...(options.onPage ? { onPage: options.onPage } : {}),
      });
      done.push(outcome);
      options.onFiling?.(outcome, index + 1, filings.length);
    }
  } finally {
    await worker.close();
  }
  return done;
}

/**
 * The scans read while the database held no companies, read again once it holds some: what a run of
 * ingest does after its sources (a first start reads the official sites before anyone imports the
 * company directory). Nothing while the database still holds none, or no such scan waits; a filing
 * read again no longer says it was read without issuers, so each is read again once.
 */
export async function rereadScansReadWithoutIssuers(
  db: Kysely<Database>,
  options: Omit<RereadOptions, 'readWithoutIssuers' | 'source'>,
): Promise<RereadFiling[]> {
  if (!(await holdsIssuerNames(db))) return [];
  return rereadWaitingScans(db, { ...options, readWithoutIssuers: true });
}

/** What a reread came to, over its filings. */
export function rereadSummary(filings: readonly RereadFiling[]): RereadSummary {
  return {
    filings: filings.length,
    accepted: filings.reduce((sum, filing) => sum + filing.accepted, 0),
    waiting: filings.reduce((sum, filing) => sum + filing.waiting + filing.unmatched, 0),
    unread: filings.filter((filing) => filing.outcome !== 'read').length,
  };
}

async function rereadFiling(
  db: Kysely<Database>,
  filingId: number,
  source: string,
  context: {
    archive: DocumentArchive;
    worker: OcrWorker;
    /** The database holds no companies yet: the filing keeps saying it was read without them. */
    withoutIssuers: boolean;
    by: string;
    now: () => Date;
    onPage?: (filingId: number, done: number, total: number, source: string) => void;
  },
): Promise<RereadFiling> {
  const outcome: RereadFiling = {
    filing_id: filingId,
    source,
    outcome: 'read',
    accepted: 0,
    waiting: 0,
    unmatched: 0,
    decided_meanwhile: 0,
  };
  const filing = await findFiling(db, filingId);
  const bytes = filing?.raw_sha256 ? context.archive.get(filing.raw_sha256) : undefined;
  // The filing says why its rows were not read again (and no run tries it again for having been
  // read without issuer names).
  const unread = async (why: Exclude<RereadFiling['outcome'], 'read'>, words: string) => {
    await markFilingReviewed(
      db,
      filingId,
      `scan not read again: ${words}; its rows wait for review as first read`,
      context.now().toISOString(),
      false,
    );
    return { ...outcome, outcome: why };
  };
  if (!filing || !bytes) return unread('not_archived', 'the document is not in the archive');
  let parsed: ParsedDocument | null;
  try {
    parsed = await readAgain(new Uint8Array(bytes), filing, {
      worker: context.worker,
      ...(context.onPage
        ? { progress: (done, total) => context.onPage?.(filingId, done, total, source) }
        : {}),
    });
  } catch (error) {
    // The reader thread closed by its owner stops the reread. Any other failure is this filing's
    // (the next document gets a fresh thread): a document that fails every time must not stop
    // every ingest run after it.
    if (error instanceof OcrWorkerError && error.failure === 'closed') throw error;
    return unread('failed', `reading it failed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!parsed) return unread('not_a_scan', 'the archived document is no scan the reader knows');
  const pending = (await reviewItemsOfFiling(db, filingId)).filter((item) => item.status === 'pending');
  // The document's id is the first part of every key of its rows ("<document id>#<row>").
  const docId = pending[0]?.source_key.replace(/#[^#]*$/, '') ?? '';
  const entries = new Map(reviewEntriesOf(parsed, docId).map((entry) => [entry.sourceKey, entry]));
  for (const item of pending) {
    const entry = entries.get(item.source_key);
    if (!entry || !samePlace(entry, item)) {
      outcome.unmatched += 1;
      continue;
    }
    if (entry.row.needs_review) {
      const updated = await rereadPendingItem(db, item.id, {
        fields: JSON.stringify(entry.fields),
        confidence: JSON.stringify(entry.row.confidence),
        reasons: JSON.stringify(entry.row.reasons),
        region: JSON.stringify(entry.region),
      });
      if (updated) outcome.waiting += 1;
      else outcome.decided_meanwhile += 1;
      continue;
    }
    try {
      await decideReviewItem(
        db,
        item.id,
        {
          action: 'accept',
          by: context.by,
          reread: { fields: entry.fields, confidence: entry.row.confidence },
        },
        context.now(),
      );
      outcome.accepted += 1;
    } catch (error) {
      if (!(error instanceof ReviewError)) throw error;
      outcome.decided_meanwhile += 1;
    }
  }
  const left = await pendingReviewCountOfFiling(db, filingId);
  if (left > 0)
    await markFilingReviewed(
      db,
      filingId,
      context.withoutIssuers
        ? `scan read again by OCR: ${left} row(s) wait for review; ${WITHOUT_ISSUERS}`
        : `scan read again by OCR with the companies the database holds: ${left} row(s) wait for review`,
      context.now().toISOString(),
      false,
    );
  return outcome;
}
