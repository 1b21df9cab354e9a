// The job of a records source for the one loop (run.ts). Two shapes of listing:
//   - pages (LDA, USAspending, congress.gov, Voteview): each page of an API arrives with its bytes
//     and the records its parser read; it is archived, then its records are stored in one
//     transaction with the events of the new ones. Upserts are keyed by the source's own ids and
//     compare a content hash, so a second run over the same pages writes and emits nothing;
//   - an index (EDGAR's daily indexes): documents are listed in the source's own table first, then
//     fetched, parsed and stored one by one; a document that cannot be fetched is recorded as such
//     and tried again by later runs.
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { ListingValidators } from '../fetch/conditional.js';
import type { DocumentTooLargeError } from '../fetch/http-client.js';
import type { RecordPage, RecordStore, StoredRecord } from '../sources/record-connector.js';
import type { RecordFeed, RecordIndex } from '../sources/source-definition.js';
import type {
  Content,
  Fetched,
  JobDocument,
  ListingBatch,
  OcrStageError,
  RunOutcome,
  SourceJob,
  Tally,
} from './job.js';
import type { RecordsReport } from './report.js';
import { isSourceError } from './run.js';

type Listed = { id: string; url: string | null };

/** A page (with its records) or an indexed document (records read once fetched). */
export type RecordDocument<R, D extends Listed> = JobDocument &
  ({ page: RecordPage<R>; listed?: undefined } | { page?: undefined; listed: D });

export interface RecordsJobOptions<R, D extends Listed> {
  name: string;
  stateKey: string;
  feed: RecordFeed<R, D>;
  store: RecordStore<R>;
  maxDocumentBytes: number;
  firstSince: (today: string) => string;
  nextCursor: (today: string) => string;
  /** Where every run lists from instead of the cursor (sources diffed by id, see RecordsDefinition). */
  listFrom?: (today: string) => string;
  /** The validators the source's listings last answered with (conditional polling). */
  validators?: ListingValidators;
  clock: () => Date;
}

export class RecordsJob<R, D extends Listed> implements SourceJob<RecordDocument<R, D>, R[], RecordsReport> {
  readonly listing: 'index' | 'pages';
  readonly name: string;
  readonly stateKey: string;
  readonly maxDocumentBytes: number;
  readonly firstSince: (today: string) => string;
  readonly nextCursor: (today: string) => string;
  readonly listFrom?: (today: string) => string;
  private readonly index: RecordIndex<D, R> | null;
  private readonly unmatched = new Set<string>();
  private readonly tally: RecordsReport;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: RecordsJobOptions<R, D>,
  ) {
    this.name = options.name;
    this.stateKey = options.stateKey;
    this.maxDocumentBytes = options.maxDocumentBytes;
    this.firstSince = options.firstSince;
    this.nextCursor = options.nextCursor;
    if (options.listFrom) this.listFrom = options.listFrom;
    this.index = 'index' in options.feed ? options.feed.index : null;
    this.listing = this.index ? 'index' : 'pages';
    this.tally = {
      source: options.name,
      status: 'completed',
      since: '',
      sinceFrom: 'option',
      pages: 0,
      records: 0,
      new: 0,
      updated: 0,
      unchanged: 0,
      events: 0,
      skipped: [],
      unmatchedNames: [],
      listed: 0,
      batches: 0,
      notModified: 0,
      failed: 0,
      duplicates: [],
      details: {},
      error: null,
    };
  }

  async *list(
    since: string,
    now: Date,
    signal?: AbortSignal,
  ): AsyncIterable<ListingBatch<RecordDocument<R, D>>> {
    const feed = this.options.feed;
    const validators = this.options.validators;
    validators?.listingFrom(since);
    if ('pages' in feed) {
      for await (const page of feed.pages(since, now, signal, validators)) {
        this.tally.batches += 1;
        this.tally.notModified = validators?.notModified ?? 0;
        this.tally.skipped.push(...page.skipped);
        // A page that brought nothing (a set not published yet) has only its skipped rows to tell.
        if (page.bytes.length === 0 && page.records.length === 0) continue;
        yield { documents: [{ name: page.label, url: page.label, page }] };
      }
    } else {
      for await (const batch of feed.index.list(since, now, signal, validators)) {
        this.tally.batches += 1;
        this.tally.notModified = validators?.notModified ?? 0;
        this.tally.listed += batch.documents.length;
        yield {
          documents: batch.documents.map((listed) => ({ name: listed.id, url: listed.url, listed })),
        };
      }
    }
    this.tally.notModified = validators?.notModified ?? 0;
    // Reached once every listed record is stored or remembered (not when the run stopped first):
    // only then may the next poll take a 304 for "nothing new".
    await validators?.commit(this.options.clock().toISOString());
  }

  listingFailed(error: unknown): string | null {
    return isSourceError(error) ? error.message : null;
  }

  async unseen(documents: readonly RecordDocument<R, D>[]): Promise<RecordDocument<R, D>[]> {
    if (!this.index) return [...documents];
    const listed = documents.flatMap((document) => (document.listed ? [document.listed] : []));
    const fresh = new Set(await this.index.unseen(this.db, listed));
    return documents.filter((document) => document.listed && fresh.has(document.listed));
  }

  async record(document: RecordDocument<R, D>): Promise<void> {
    if (this.index && document.listed)
      await this.index.record(this.db, document.listed, this.options.clock());
  }

  async owed(): Promise<RecordDocument<R, D>[]> {
    if (!this.index) return [];
    return (await this.index.owed(this.db)).map((listed) => ({ name: listed.id, url: listed.url, listed }));
  }

  async known(): Promise<R[] | null> {
    return null;
  }

  prefetched(document: RecordDocument<R, D>): Fetched | null {
    return document.page ? { bytes: document.page.bytes, parts: document.page.documents } : null;
  }

  async fetch(document: RecordDocument<R, D>, signal?: AbortSignal): Promise<Fetched> {
    if (!this.index || !document.listed) throw new Error(`${document.name} has nothing to fetch`);
    return { bytes: await this.index.fetch(document.listed, signal) };
  }

  async fetchFailed(document: RecordDocument<R, D>, error: Error): Promise<void> {
    await this.failed(document, error.message);
  }

  async refused(document: RecordDocument<R, D>, error: DocumentTooLargeError): Promise<void> {
    await this.failed(document, error.message);
  }

  /**
   * An indexed document read before under another name is not read again. A page's records are
   * stored again all the same (upserts keep each once, and a page's records can depend on more
   * than its bytes: an award's detail, a bill's parts); its second name is kept either way.
   */
  async duplicate(document: RecordDocument<R, D>, first: string, _content: Content): Promise<boolean> {
    this.tally.duplicates.push({ name: document.name, sameAs: first });
    if (!this.index || !document.listed) return false;
    await this.index.duplicate(this.db, document.listed, first, this.options.clock());
    return true;
  }

  async read(document: RecordDocument<R, D>, fetched: Fetched): Promise<R[]> {
    if (document.page) return document.page.records;
    if (!this.index || !document.listed) return [];
    return [this.index.parse(document.listed, fetched.bytes)];
  }

  async readFailed(document: RecordDocument<R, D>, error: Error): Promise<R[] | null> {
    await this.failed(document, error.message);
    return null;
  }

  textless(): null {
    return null;
  }

  withText(records: R[]): R[] {
    return records;
  }

  /** Never called: no record document goes to the OCR stage (textless is always null). */
  async ocrFailed(_document: RecordDocument<R, D>, _records: R[], error: OcrStageError): Promise<R[] | null> {
    throw error;
  }

  async prepare(_document: RecordDocument<R, D>, records: R[]): Promise<R[]> {
    return records;
  }

  async store(
    trx: Kysely<Database>,
    _document: RecordDocument<R, D>,
    records: R[],
    content: Content | null,
  ): Promise<Tally> {
    const now = this.options.clock();
    const results: StoredRecord[] = [];
    for (const record of records)
      results.push(await this.options.store.store(trx, record, content?.sha256 ?? '', now));
    return () => {
      for (const result of results) {
        this.tally[result.outcome] += 1;
        this.tally.events += result.events ?? (result.emitted ? 1 : 0);
        if (result.unmatchedName) this.unmatched.add(result.unmatchedName);
        result.count?.();
      }
      this.tally.pages += 1;
      this.tally.records += records.length;
    };
  }

  async finish(): Promise<void> {}

  async report(outcome: RunOutcome): Promise<RecordsReport> {
    return {
      ...this.tally,
      status: outcome.status,
      since: outcome.since,
      sinceFrom: outcome.sinceFrom,
      error: outcome.error,
      unmatchedNames: [...this.unmatched].sort(),
      details: this.options.store.details?.() ?? {},
    };
  }

  private async failed(document: RecordDocument<R, D>, reason: string): Promise<void> {
    this.tally.failed += 1;
    if (this.index && document.listed)
      await this.index.failed(this.db, document.listed, reason, this.options.clock());
  }
}
