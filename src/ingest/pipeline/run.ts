// The one ingest loop. Every source's run, whatever it reads, goes through it:
//   1. list: read the source's listing from `since` (the caller's date, else the job's own window
//      for sources that diff by document id, else the cursor the last completed run left, else
//      the source's first-run rule) and keep the documents this database has not seen (the job's
//      `unseen`: the seam where detection happens); an index's new documents are remembered
//      before any is fetched, an API's pages are stored as they come;
//   2. fetch each document owed, within the source's size limit (a larger one fails with its
//      reason and is read again only under a larger limit), archive it by its SHA-256 and record
//      its name under that hash: bytes another name of the source already served are that
//      document, kept once;
//   3. parse it with the source's parser (a parser fault, or a PDF reader that runs out of memory,
//      fails that document alone), hand a document without usable text to the OCR stage;
//   4. store it with its events in one transaction, so a run stopped at any point resumes with the
//      next document and a second run writes and emits nothing.
// What differs between sources is the job's (job.ts); nothing is dropped silently.
import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../../domain/dates.js';
import { otherNameOfContent, recordDocumentName } from '../../storage/repositories/document-names.js';
import { readIngestState, recordRunEnd, recordRunStart } from '../../storage/repositories/ingest.js';
import type { Database } from '../../storage/schema.js';
import { inRetriedTransaction } from '../../storage/transaction.js';
import type { DocumentArchive } from '../fetch/archive.js';
import { DocumentTooLargeError, FetchError } from '../fetch/http-client.js';
import type { PdfText } from '../pdf-text.js';
import { PdfWorkerError } from '../pdf-worker.js';
import { ConnectorError } from '../sources/connector.js';
import type { ParsedDocument } from '../sources/document.js';
import { RecordSourceError } from '../sources/record-connector.js';
import type { Content, Fetched, JobDocument, OcrStage, RunOutcome, SourceJob } from './job.js';
import { NO_OCR, OcrStageError } from './job.js';
import type { RunReport } from './report.js';

export interface IngestProgress {
  /** A source starts storing `total` documents (null: as many as its pages bring). */
  start(source: string, total: number | null): void;
  advance(source: string, done: number, total: number | null): void;
  /** The OCR stage read a page of a document: pages done of the document's total. */
  page?(source: string, document: string, done: number, total: number): void;
  /** The source's run ended (or it was skipped). */
  finish(report: RunReport): void;
}

export interface PipelineOptions {
  archive: DocumentArchive;
  /** PDF text extraction (a reader process's in long-running processes). */
  pdfText: (bytes: Uint8Array) => Promise<PdfText>;
  /** Where documents without usable text go; default: stored as they are (needs_ocr). */
  ocr?: OcrStage;
  /** Read listings from this date (YYYY-MM-DD); default: the source's cursor, else its first-run rule. */
  since?: string;
  clock?: () => Date;
  progress?: IngestProgress;
  /** Stops the run between documents; what is stored stays stored and the rest resumes next run. */
  signal?: AbortSignal;
}

/** An error of the site or of what it served, as opposed to a fault of this program. */
export function isSourceError(error: unknown): error is Error {
  return error instanceof FetchError || error instanceof ConnectorError || error instanceof RecordSourceError;
}

export async function runJob<D extends JobDocument, P, R>(
  db: Kysely<Database>,
  job: SourceJob<D, P, R>,
  options: PipelineOptions,
): Promise<R> {
  const clock = options.clock ?? (() => new Date());
  const started = clock();
  const today = todayUtc(started);
  await recordRunStart(db, job.stateKey, started.toISOString());
  const state = await readIngestState(db, job.stateKey);
  const [since, sinceFrom]: [string, RunOutcome['sinceFrom']] = options.since
    ? [options.since, 'option']
    : job.listFrom
      ? [job.listFrom(today), 'first run']
      : state?.cursor
        ? [state.cursor, 'cursor']
        : [job.firstSince(today), 'first run'];
  const outcome: RunOutcome = { status: 'completed', since, sinceFrom, error: null };
  const run = new DocumentRun(db, job, options, clock);
  try {
    outcome.error = await run.list(since);
    if (job.listing === 'index') await run.storeOwed();
    if (!options.signal?.aborted) await job.finish(false);
    if (options.signal?.aborted) outcome.status = 'aborted';
    else if (outcome.error) outcome.status = 'failed';
  } catch (error) {
    outcome.status = 'failed';
    outcome.error = error instanceof Error ? error.message : String(error);
  }
  // The next run starts where the source's rule says, unless this one missed part of its listing.
  const cursor = outcome.status === 'completed' ? job.nextCursor(today) : undefined;
  await recordRunEnd(
    db,
    job.stateKey,
    { status: outcome.status, cursor, error: outcome.error ?? undefined },
    clock().toISOString(),
  );
  return job.report(outcome);
}

/** One source's documents through steps 1 to 4. */
class DocumentRun<D extends JobDocument, P, R> {
  private done = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly job: SourceJob<D, P, R>,
    private readonly options: PipelineOptions,
    private readonly clock: () => Date,
  ) {}

  /** Step 1; an index's documents are remembered, a page's are stored at once. The listing's error, if any. */
  async list(since: string): Promise<string | null> {
    const { job, options } = this;
    if (job.listing === 'pages') options.progress?.start(job.name, null);
    try {
      for await (const batch of job.list(since, this.clock(), options.signal)) {
        const fresh = await job.unseen(batch.documents);
        for (const document of fresh) {
          if (job.listing === 'index') await job.record(document);
          else await this.storeDocument(document, null);
        }
        if (options.signal?.aborted) break;
      }
    } catch (error) {
      if (options.signal?.aborted) return null;
      const message = job.listingFailed(error);
      if (message === null) throw error;
      return message;
    }
    return null;
  }

  /** Steps 2 to 4 for every document an index listed, by this run or an earlier one. */
  async storeOwed(): Promise<void> {
    const { job, options } = this;
    const owed = await job.owed();
    options.progress?.start(job.name, owed.length);
    for (const document of owed) {
      if (options.signal?.aborted) return;
      await this.storeDocument(document, owed.length);
    }
  }

  private async storeDocument(document: D, total: number | null): Promise<void> {
    await this.process(document);
    this.done += 1;
    this.options.progress?.advance(this.job.name, this.done, total);
  }

  private async process(document: D): Promise<void> {
    const { job, options } = this;
    const known = await job.known(document);
    if (known !== null) return this.store(document, known, null);
    const fetched = job.prefetched(document) ?? (await this.fetch(document));
    if (fetched === null) return;
    const content: Content = { sha256: options.archive.put(fetched.bytes), bytes: fetched.bytes.length };
    for (const part of fetched.parts ?? []) options.archive.put(part);
    const first = await otherNameOfContent(this.db, job.name, content.sha256, document.name);
    if (first !== null && (await job.duplicate(document, first, content))) {
      await recordDocumentName(this.db, this.nameOf(document, content), this.clock().toISOString());
      return;
    }
    const parsed = await this.read(document, fetched);
    if (parsed === null) return;
    await this.store(document, parsed, content);
  }

  /** Step 2: the bytes, or null when the document failed here (recorded by the job) or the run stops. */
  private async fetch(document: D): Promise<Fetched | null> {
    const { job, options } = this;
    try {
      return await job.fetch(document, options.signal);
    } catch (error) {
      if (options.signal?.aborted) return null;
      if (error instanceof DocumentTooLargeError) {
        await job.refused(document, error);
        return null;
      }
      if (!isSourceError(error)) throw error;
      await job.fetchFailed(document, error);
      return null;
    }
  }

  /** Step 3: the source's parser, a reader that stops kept to this document, then the OCR stage. */
  private async read(document: D, fetched: Fetched): Promise<P | null> {
    const { job, options } = this;
    let parsed: P | null;
    try {
      parsed = await job.read(document, fetched, options.pdfText);
    } catch (error) {
      if (!(error instanceof PdfWorkerError) || error.failure === 'closed') throw error;
      parsed = await job.readFailed(document, error);
    }
    if (parsed === null) return null;
    const textless = job.textless(parsed);
    if (textless === null) return parsed;
    const ocr = options.ocr ?? NO_OCR;
    let result: ParsedDocument;
    try {
      result = await ocr({
        source: job.name,
        name: document.name,
        url: document.url,
        bytes: new Uint8Array(fetched.bytes),
        parsed: textless,
        signal: options.signal,
        pageProgress: (done, total) => options.progress?.page?.(job.name, document.name, done, total),
      });
    } catch (error) {
      if (!(error instanceof OcrStageError)) throw error;
      return job.ocrFailed(document, parsed, error);
    }
    return job.withText(parsed, result);
  }

  /** Step 4: the parse and the document's name, in one transaction. */
  private async store(document: D, parsed: P, content: Content | null): Promise<void> {
    const { db, job } = this;
    const prepared = await job.prepare(document, parsed);
    const tally = await inRetriedTransaction(db, async (trx) => {
      const counted = await job.store(trx, document, prepared, content);
      if (content) await recordDocumentName(trx, this.nameOf(document, content), this.clock().toISOString());
      return counted;
    });
    tally();
  }

  private nameOf(document: D, content: Content) {
    return { source: this.job.name, name: document.name, url: document.url, ...content };
  }
}

/** The cursor rule of most sources: re-read `days` before the day a completed run started. */
export function overlapCursor(days: number): (today: string) => string {
  return (today) => addDays(today, -days);
}

/** Where a source's first run starts unless it says otherwise: January 1 of last year. */
export function startOfLastYear(today: string): string {
  return `${Number(today.slice(0, 4)) - 1}-01-01`;
}
