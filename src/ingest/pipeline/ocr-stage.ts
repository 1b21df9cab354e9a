// The OCR stage of `dcledger ingest` and serve's schedule: a document the source's parser found
// no usable text in goes to the OCR reader (ingest/ocr/), whose worker thread does the reading, so
// the process's event loop (the API's, under `serve --role all`) only passes bytes and results.
// Each page read is kept in the database until the document is read whole: a run stopped
// mid-document (a crash, a restart) reads only the pages left. The reader knows the House paper
// PTR forms, the OGE 278-T and the Senate paper PTR's page images (ocr/forms.ts); other scans keep
// their `needs_ocr` answer.
import type { Kysely } from 'kysely';
import {
  dropOcrPages,
  issuerListings,
  ocrPagesOf,
  saveOcrPage,
  tradeDescriptions,
} from '../../storage/repositories/ocr-pages.js';
import type { Database } from '../../storage/schema.js';
import { READABLE_KINDS } from '../ocr/forms.js';
import {
  OcrReadError,
  OcrUnreadableError,
  OcrWorker,
  OcrWorkerError,
  type PageCheckpoint,
  readScannedDocument,
} from '../ocr/index.js';
import type { ScannedPage } from '../ocr/read-scan.js';
import { READ_BY_OCR } from '../ocr/scanned-document.js';
import type { ParsedDocument } from '../sources/document.js';
import { type OcrStage, OcrStageError, type TextlessDocument } from './job.js';

export interface IngestOcr {
  stage: OcrStage;
  /** Stops the worker thread (it holds the engine and its model in memory). */
  close(): Promise<void>;
}

/**
 * Said on a scan read while the database held no companies; its first words find such filings
 * again (review-reread.ts), so they stay as they are.
 */
export const WITHOUT_ISSUERS_MARK = 'its asset names were checked against no issuer names';
export const WITHOUT_ISSUERS = `${WITHOUT_ISSUERS_MARK} (the database held no companies: once \`dcledger companies import\` has run, the next ingest run reads it again, \`dcledger review reread\` at once)`;

/**
 * A reader thread that checks asset names against the companies and the trades' descriptions the
 * database holds now, and whether it holds no company (the names then wait for review).
 */
export async function ocrWorkerOfDatabase(
  db: Kysely<Database>,
  heapMb?: number,
): Promise<{ worker: OcrWorker; withoutIssuers: boolean }> {
  const [issuers, descriptions] = await Promise.all([issuerListings(db), tradeDescriptions(db)]);
  return { worker: new OcrWorker({ issuers, descriptions }, heapMb), withoutIssuers: issuers.length === 0 };
}

export function openIngestOcr(
  db: Kysely<Database>,
  clock: () => Date = () => new Date(),
  /** The reader thread's heap limit in MB (the reader's default when unset). */
  heapMb?: number,
): IngestOcr {
  let worker: Promise<OcrWorker> | undefined;
  let withoutIssuers = false;
  // The database's names are loaded once per worker.
  const started = () => {
    worker ??= ocrWorkerOfDatabase(db, heapMb).then((started) => {
      withoutIssuers = started.withoutIssuers;
      return started.worker;
    });
    return worker;
  };
  const stage = async (document: TextlessDocument): Promise<ParsedDocument> => {
    const { parsed } = document;
    if (!READABLE_KINDS.has(parsed.kind)) return parsed;
    const keys = new Set<string>();
    const checkpoint: PageCheckpoint = {
      async load(key) {
        keys.add(key);
        return (await ocrPagesOf(db, key)).map((data) => JSON.parse(data) as ScannedPage);
      },
      save: (key, page) => saveOcrPage(db, key, page.number, JSON.stringify(page), clock().toISOString()),
    };
    let read: ParsedDocument;
    try {
      read = await readScannedDocument(document.bytes, {
        source: parsed.source,
        kind: parsed.kind,
        filing: parsed.filing,
        worker: await started(),
        checkpoint,
        ...(document.pageProgress ? { progress: document.pageProgress } : {}),
      });
    } catch (error) {
      // Bytes the rasterizer cannot open stay a scan nobody has read, and so does a document that
      // took the thread past its heap limit (reading it again would end the same way; the next
      // document gets a fresh thread). A reader that threw or a thread that crashed fails this
      // document for this run: it stays owed, its pages kept, and counts an attempt. A thread closed
      // by its owner (the process stopping) stops the run.
      if ((error instanceof OcrWorkerError && error.failure === 'crashed') || error instanceof OcrReadError) {
        throw new OcrStageError(`the OCR reader failed: ${error.message}`);
      }
      if (error instanceof OcrWorkerError && error.failure === 'out_of_memory') {
        for (const key of keys) await dropOcrPages(db, key);
        return {
          ...parsed,
          reason: `${parsed.reason ?? 'scanned document'}; OCR stopped: it needed more memory than the reader may use`,
        };
      }
      if (!(error instanceof OcrUnreadableError)) throw error;
      return {
        ...parsed,
        reason: `${parsed.reason ?? 'scanned document'}; OCR could not open it: ${error.message}`,
      };
    }
    for (const key of keys) await dropOcrPages(db, key);
    // Without issuer names most asset names read wait for review (an issuer's own word looks
    // like a misread): the filing says why.
    return withoutIssuers && read.status === 'needs_review'
      ? { ...read, reason: `${read.reason ?? READ_BY_OCR}; ${WITHOUT_ISSUERS}` }
      : read;
  };
  return {
    stage,
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await (await running).close();
    },
  };
}

/** Runs `work` with the OCR stage when `enabled`, closing its worker whatever happens. */
export async function withIngestOcr<T>(
  db: Kysely<Database>,
  enabled: boolean,
  work: (stage: OcrStage | undefined) => Promise<T>,
): Promise<T> {
  if (!enabled) return work(undefined);
  const ocr = openIngestOcr(db);
  try {
    return await work(ocr.stage);
  } finally {
    await ocr.close();
  }
}
