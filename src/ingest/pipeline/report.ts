// What an ingest run did, per source: printed by `dcledger ingest`, logged by `serve`.

import type { ParseStatus } from '../sources/document.js';
import type { RecordsReport } from '../sources/source-definition.js';
import type { AmendmentReport } from './amendments.js';

export interface DocumentFailure {
  docId: string;
  url: string | null;
  reason: string;
  /** Failed fetches of this document so far; it is retried on the next run. */
  attempts: number;
}

/** What a run of a trade-documents source did. */
export interface SourceReport {
  /** The source's name. */
  connector: string;
  /** The `source` column of its filings and trades. */
  source: string;
  /** completed; aborted (stopped by a signal, resumes next run); failed (see error); skipped (see skipped). */
  status: 'completed' | 'aborted' | 'failed' | 'skipped';
  skipped: string | null;
  error: string | null;
  /** The date the index was read from. */
  since: string | null;
  index: {
    listed: number;
    alreadyKnown: number;
    ignored: number;
    notes: string[];
    /** Listings (an index year, the OGE list) that answered 304: unchanged since last read whole. */
    notModified: number;
  };
  /** Filings created because the index listed a document this database did not know. */
  newFilings: number;
  /** Documents stored in this run, by the status of their parse. */
  statuses: Partial<Record<ParseStatus, number>>;
  documents: {
    stored: number;
    failed: number;
    remaining: number;
    /** Stored as failed because they were larger than the source's size limit (read again once it is raised). */
    refused: number;
    /** Byte-identical to a document stored before under another name: not stored again. */
    duplicates: Array<{ docId: string; sameAs: string }>;
  };
  trades: {
    created: number;
    /** Rows a data set already had for the same report: recorded as aliases, not new trades. */
    twins: number;
    updated: number;
    unchanged: number;
    /** A data set's rows of a report that the official parse does not list (kept). */
    unconfirmed: number;
    /** Rows read from a scan that wait in the review queue: not trades until a person decides. */
    waitingReview: number;
  };
  events: { disclosureDetected: number; tradeCreated: number };
  amendments: AmendmentReport;
  filers: {
    /** Filers matched to no known politician, created so no trade is lost (name and what they filed). */
    created: string[];
    /** Documents whose filer could not be told (a scan without a readable name). */
    unidentified: string[];
  };
  failures: DocumentFailure[];
}

export type { RecordsReport } from '../sources/source-definition.js';

export interface IngestReport {
  startedAt: string;
  finishedAt: string;
  /** Trade-documents sources, in the order they ran. */
  sources: SourceReport[];
  /** Records sources, in the order they ran (absent when none ran). */
  records?: RecordsReport[];
  /**
   * Scans read again after the sources because they were read while the database held no
   * companies and it now holds some (absent when none was).
   */
  reread?: RereadSummary;
}

/** The filings whose scans a run read again, and what became of their waiting rows. */
export interface RereadSummary {
  filings: number;
  /** Waiting rows now read surely: accepted, each a trade. */
  accepted: number;
  /** Waiting rows still doubtful (or not found again): they keep waiting. */
  waiting: number;
  /** Filings whose scan could not be read again (each one's reason says why): their rows keep waiting. */
  unread: number;
}

/** A run's report, of either kind. */
export type RunReport = SourceReport | RecordsReport;

export function isRecordsReport(report: RunReport): report is RecordsReport {
  return 'records' in report && typeof report.records === 'number';
}

/** The source a report is of. */
export function reportSource(report: RunReport): string {
  return isRecordsReport(report) ? report.source : report.connector;
}

/** Documents (or pages) a run stored. */
export function reportStored(report: RunReport): number {
  return isRecordsReport(report) ? report.pages : report.documents.stored;
}

/** The line a run's reread of scans read without issuer names gets (CLI report and logs). */
export function rereadLine(reread: RereadSummary): string {
  const unread = reread.unread > 0 ? ` (${reread.unread} could not be read again: see their reasons)` : '';
  return `scans read without issuer names, read again with the companies now held: ${reread.filings} filing(s)${unread}, ${reread.accepted} row(s) accepted, ${reread.waiting} still waiting for review`;
}

/** The one line that sums a run up, whatever its kind. */
export function reportLine(report: RunReport): string {
  return isRecordsReport(report) ? recordsSummaryLine(report) : summaryLine(report);
}

export function emptySourceReport(connector: string, source: string): SourceReport {
  return {
    connector,
    source,
    status: 'completed',
    skipped: null,
    error: null,
    since: null,
    index: { listed: 0, alreadyKnown: 0, ignored: 0, notes: [], notModified: 0 },
    newFilings: 0,
    statuses: {},
    documents: { stored: 0, failed: 0, remaining: 0, refused: 0, duplicates: [] },
    trades: { created: 0, twins: 0, updated: 0, unchanged: 0, unconfirmed: 0, waitingReview: 0 },
    events: { disclosureDetected: 0, tradeCreated: 0 },
    amendments: { linked: 0, superseded: 0, pending: 0 },
    filers: { created: [], unidentified: [] },
    failures: [],
  };
}

/** One line per records source, for logs and progress. */
export function recordsSummaryLine(report: RecordsReport): string {
  const parts = [
    `${report.source}: ${report.status}`,
    `since ${report.since}`,
    `${report.pages} pages/documents, ${report.records} records`,
    `new ${report.new}, updated ${report.updated}, unchanged ${report.unchanged}`,
    `${report.events} events`,
  ];
  if (report.failed > 0) parts.push(`${report.failed} documents failed`);
  if (report.duplicates.length > 0) parts.push(`${report.duplicates.length} already read under another name`);
  const directory = report.companyDirectory;
  if (directory)
    parts.push(
      directory.error === null
        ? `company directory imported first (${directory.companies} companies)`
        : `company directory not imported: ${directory.error}`,
    );
  if (report.error) parts.push(`error: ${report.error}`);
  return parts.join('; ');
}

/** One line per source, for logs and non-terminal output. */
export function summaryLine(report: SourceReport): string {
  if (report.status === 'skipped') return `${report.connector}: skipped (${report.skipped ?? ''})`;
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const parts = [
    `${report.connector}: ${report.status}`,
    `index ${report.index.listed} listed (${report.newFilings} new filings)`,
    `${report.documents.stored} documents stored${statuses ? ` (${statuses})` : ''}`,
    `${report.trades.created} new trades, ${report.trades.twins} already known from data sets`,
    `${report.amendments.superseded} superseded by amendments`,
  ];
  if (report.trades.waitingReview > 0)
    parts.push(`${report.trades.waitingReview} rows read from scans wait for review`);
  if (report.documents.failed > 0) parts.push(`${report.documents.failed} failed`);
  if (report.documents.refused > 0) parts.push(`${report.documents.refused} refused for their size`);
  if (report.documents.duplicates.length > 0)
    parts.push(`${report.documents.duplicates.length} already stored under another name`);
  if (report.documents.remaining > 0) parts.push(`${report.documents.remaining} left for the next run`);
  if (report.error) parts.push(`error: ${report.error}`);
  return parts.join('; ');
}
