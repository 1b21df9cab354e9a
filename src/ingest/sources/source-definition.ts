// What a source folder exports: one definition, read by the registry. Its manifest (manifest.ts)
// says what the source is; the definition says how it runs: the connector (which reads the site
// and calls the source's parser directly), for record sources the store, how `dcledger parse`
// recognises its loose files, and the routes the replay server answers for it. The pipeline
// (ingest/pipeline/) drives every definition through the same list → fetch → parse → store → emit
// loop; docs/adding-a-source.md walks through writing one.
import type { Kysely } from 'kysely';
import type { CompanyMatcher } from '../../market/company-match.js';
import type { FetchedDirectoryFile } from '../../market/import-companies.js';
import type { Database } from '../../storage/schema.js';
import type { ListingValidators } from '../fetch/conditional.js';
import type { HttpClient, HttpClientOptions } from '../fetch/http-client.js';
import type { Connector } from './connector.js';
import type { LooseFileReader } from './loose-file.js';
import type { RecordsManifest, SettingValues, SourceManifest, TradeDocumentsManifest } from './manifest.js';
import type { RecordPage, RecordStore } from './record-connector.js';
import type { ReplaySite } from './replay-site.js';

/** What building a source's connector gets: its settings (with --base-url applied) and its HTTP client. */
export interface SourceContext<M extends SourceManifest> {
  readonly settings: SettingValues<M['settings']>;
  /** A client of the source's own: its cookie jar, politeness and document size limit. */
  readonly http: HttpClient;
}

/** Options of the source's HTTP client that differ from the shared ingest settings (EDGAR's rate). */
export type HttpOverrides = Partial<Pick<HttpClientOptions, 'minIntervalMs' | 'userAgent'>>;

interface CommonDefinition<M extends SourceManifest> {
  readonly manifest: M;
  /** How the source's own client differs from the shared settings. */
  http?(settings: SettingValues<M['settings']>, userAgent: string): HttpOverrides;
  /**
   * Why the source must not run with these settings against this base URL (a site's rules the
   * settings do not meet), as a one-line message; null when it may run.
   */
  refuse?(settings: SettingValues<M['settings']>): string | null;
  /** Recognising and reading a loose file of this source (`dcledger parse`). */
  readonly looseFiles?: LooseFileReader;
  /** What the replay server answers for this source, from the recorded documents. */
  readonly replay?: ReplaySite;
  /**
   * The company directory files the source's site publishes (`dcledger companies import
   * --from-<source>`), fetched whole with the source's client. A records source that publishes
   * one imports it before a run on a database without companies (`seedCompanyDirectory`).
   */
  companyDirectory?(context: SourceContext<M>, signal?: AbortSignal): Promise<FetchedDirectoryFile[]>;
}

/** How amendments say what they amend (the store remembers what each still has to find). */
export type AmendmentStyle =
  /** An amendment restates the report filed on the date in its title (eFD). */
  | 'restated-report'
  /** Rows marked "Amended" replace rows of an earlier report (House). */
  | 'amended-rows'
  | 'none';

/** A source of disclosure documents whose rows become trades, stored by the pipeline's trade store. */
export interface TradeDocumentsDefinition<M extends TradeDocumentsManifest = TradeDocumentsManifest>
  extends CommonDefinition<M> {
  /** The connector, or why the source is skipped (a setting it needs is not set). */
  connector(context: SourceContext<M>): Connector | { skipped: string };
  readonly amendments: AmendmentStyle;
}

/** `dcledger ingest <source>` options beyond --since and --base-url, as the command line gave them. */
export type SourceFlags = Readonly<Record<string, string | boolean | undefined>>;

/** A bad value of a source's own option: a usage error of the command. */
export class SourceOptionError extends Error {}

/**
 * An index of documents fetched one by one (EDGAR's daily indexes): listed first and remembered, so
 * a stopped run resumes with what it listed. Its rows live in the source's own table.
 */
export interface RecordIndex<D extends { id: string; url: string | null }, R> {
  /**
   * Batches of listed documents from `since` (a day's index each); `label` names the batch. With
   * `validators`, a listing that can be asked conditionally is, and one answering 304 lists nothing.
   */
  list(
    since: string,
    now: Date,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): AsyncIterable<{ label: string; documents: D[] }>;
  /** The documents of a batch this database has not listed yet. */
  unseen(db: Kysely<Database>, documents: readonly D[]): Promise<D[]>;
  /** Remembers a listed document (its row, status listed). */
  record(db: Kysely<Database>, document: D, now: Date): Promise<void>;
  /** Documents listed and not stored yet (or worth another attempt), oldest first. */
  owed(db: Kysely<Database>): Promise<D[]>;
  fetch(document: D, signal?: AbortSignal): Promise<Buffer>;
  /** A failed fetch or a refusal: recorded on its row with the reason. */
  failed(db: Kysely<Database>, document: D, reason: string, now: Date): Promise<void>;
  /** The record the bytes hold (the source's parser, called directly). */
  parse(document: D, bytes: Buffer): R;
  /** A byte-identical copy of `first`: recorded on its row, not stored again. */
  duplicate(db: Kysely<Database>, document: D, first: string, now: Date): Promise<void>;
}

/** What a record source's run reads: pages whose bytes come with the listing, or an index. */
export type RecordFeed<R, D extends { id: string; url: string | null } = { id: string; url: string | null }> =
  | {
      readonly pages: (
        since: string,
        now: Date,
        signal?: AbortSignal,
        validators?: ListingValidators,
      ) => AsyncIterable<RecordPage<R>>;
    }
  | { readonly index: RecordIndex<D, R> };

/** What a run of a records source did. */
export interface RecordsReport {
  /** The source's name. */
  source: string;
  status: 'completed' | 'failed' | 'aborted';
  since: string;
  /** Where `since` came from: the command, the last completed run's cursor, or the source's first-run rule. */
  sinceFrom: 'option' | 'cursor' | 'first run';
  /** Pages (API pages, files, filings, roll-call sets) read. */
  pages: number;
  records: number;
  new: number;
  updated: number;
  unchanged: number;
  events: number;
  skipped: Array<{ id: string; reason: string }>;
  /** Names matched to no listed company (kept on the records, listed here once each). */
  unmatchedNames: string[];
  /** Index sources: documents their listing named in this run, and the listing's batches (days). */
  listed: number;
  batches: number;
  /** Listings (URLs) that answered 304 to a conditional request: unchanged, not read again. */
  notModified: number;
  /** Documents that could not be fetched, or were refused for their size. */
  failed: number;
  /** Pages or documents byte-identical to one read before under another name: not stored again. */
  duplicates: Array<{ name: string; sameAs: string }>;
  /** What the source's store counted beyond new, updated and unchanged. */
  details: Record<string, unknown>;
  error: string | null;
  /**
   * The company directory the run imported first, the database holding no company: how many
   * companies it made, or why it could not be fetched (the run went on without it). Absent when
   * the run imported none.
   */
  companyDirectory?: { companies: number; error: string | null };
}

/** What a record store gets besides the database. */
export interface StoreContext {
  readonly matcher: CompanyMatcher;
}

/** A source of records kept in tables of their own. */
export interface RecordsDefinition<
  M extends RecordsManifest = RecordsManifest,
  R = unknown,
  D extends { id: string; url: string | null } = { id: string; url: string | null },
> extends CommonDefinition<M> {
  /** Its own command-line options, checked (SourceOptionError for a bad value). */
  options?(flags: SourceFlags): SourceFlags;
  /** Where a run starts when neither --since nor the cursor says; default January 1 of last year. */
  firstSince?(today: string): string;
  /** The cursor a completed run leaves for the next one (default: a week before it started). */
  nextCursor?(today: string): string;
  /**
   * Where every run without --since lists from, instead of the cursor: a source whose listing is
   * diffed by id against what is stored, and asked conditionally, re-reads this whole window each
   * poll, so a record the site adds late under an older date is still found.
   */
  listFrom?(today: string): string;
  /** Work before each run (EDGAR: the company directory linked to tickers). */
  start?(db: Kysely<Database>, now: Date): Promise<void>;
  feed(context: SourceContext<M>, options: SourceFlags): RecordFeed<R, D>;
  store(context: StoreContext, options: SourceFlags): RecordStore<R>;
  /** Whether the store needs the company matcher (loading it costs a read of every company). */
  readonly matchesCompanies: boolean;
  /**
   * The run's report as `dcledger ingest <name>` prints it, as JSON (--json) and as lines; default
   * the report itself and the records paragraph every records source shares.
   */
  present?(report: RecordsReport): { json: unknown; lines: string[] };
}

export type SourceDefinition =
  | TradeDocumentsDefinition
  | RecordsDefinition<RecordsManifest, unknown, { id: string; url: string | null }>;

/** Checks a trade-documents definition against its manifest's type (and keeps its literal types). */
export function tradeDocumentsSource<M extends TradeDocumentsManifest>(
  definition: TradeDocumentsDefinition<M>,
): TradeDocumentsDefinition<M> {
  return definition;
}

/** Checks a records definition against its manifest's type (and keeps its literal types). */
export function recordsSource<M extends RecordsManifest, R, D extends { id: string; url: string | null }>(
  definition: RecordsDefinition<M, R, D>,
): RecordsDefinition<M, R, D> {
  return definition;
}
