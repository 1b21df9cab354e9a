// SEC EDGAR as a source: the daily form indexes (and, with --current, the current-events feed)
// list filings; each filing's full `.txt` submission is the document, parsed (parse-sec.ts) and
// stored with its insider.filed / whale.filed events (store.ts). EDGAR's fair-access rules are
// built in: a declared User-Agent with a contact, at most 10 requests a second, and backoff on
// 429/503 (the shared client retries both, honouring Retry-After).
import { addDays } from '../../../domain/dates.js';
import type { RecordStore } from '../record-connector.js';
import { type RecordsReport, recordsSource, SourceOptionError } from '../source-definition.js';
import { SecConnector } from './connector.js';
import { type SecListed, type SecRecord, secIndex } from './index.js';
import { DEFAULT_SEC_FORMS } from './index-file.js';
import { secLooseFiles } from './loose-file.js';
import { secManifest } from './manifest.js';
import { secReplay } from './replay.js';
import { linkCompanyDirectory, storeSecDocument } from './store.js';

const FORM = /^(3|4|5|(SC|SCHEDULE) 13[DG])(\/A)?$/i;

/** Days of daily indexes every poll re-reads (conditionally) before today. */
export const SEC_WINDOW_DAYS = 7;

export const definition = recordsSource<typeof secManifest, SecRecord, SecListed>({
  manifest: secManifest,
  http: (settings, userAgent) => ({
    minIntervalMs: settings.intervalMs,
    userAgent: settings.contact ? `${userAgent} ${settings.contact}` : userAgent,
  }),
  // EDGAR's fair-access policy: automated access must declare who it is and how to reach them.
  refuse: (settings) =>
    /(^|\.)sec\.gov$/i.test(new URL(settings.baseUrl).hostname) && !settings.contact
      ? 'set DCLEDGER_SEC_CONTACT (an e-mail address) before ingesting from sec.gov'
      : null,
  options(flags) {
    const forms =
      typeof flags.forms === 'string'
        ? flags.forms
            .split(',')
            .map((form) => form.trim())
            .filter((form) => form !== '')
        : DEFAULT_SEC_FORMS;
    for (const form of forms) {
      if (!FORM.test(form))
        throw new SourceOptionError(`--forms: "${form}" is not one of 3, 4, 5, SC 13D, SC 13G (or their /A)`);
    }
    return { forms: forms.join(','), current: flags.current === true };
  },
  firstSince: (today) => addDays(today, -SEC_WINDOW_DAYS),
  // Kept for the record only: every run lists the window below.
  nextCursor: (today) => today,
  // Every poll reads the last week's daily indexes, each asked conditionally (a 304 for a day that
  // did not change), and keeps the filings it has not listed, by accession number: a filing EDGAR
  // adds to an earlier day's index after that day was read is found by the next poll.
  listFrom: (today) => addDays(today, -SEC_WINDOW_DAYS),
  start: async (db, now) => {
    await linkCompanyDirectory(db, now);
  },
  feed: ({ http, settings }, options) => ({
    index: secIndex(
      new SecConnector(http, settings.baseUrl),
      String(options.forms ?? DEFAULT_SEC_FORMS.join(',')).split(','),
      options.current === true,
    ),
  }),
  store: () => new SecRecordStore(),
  companyDirectory: ({ http, settings }, signal) =>
    new SecConnector(http, settings.baseUrl).companyDirectory(signal),
  matchesCompanies: false,
  looseFiles: secLooseFiles,
  replay: secReplay,
  present: (report) => {
    const json = secRunReport(report);
    return { json, lines: [secSummary(json)] };
  },
});

/** What `dcledger ingest sec` reports: days listed, filings seen and stored, by parse status. */
export interface SecRunReport {
  status: 'completed' | 'failed' | 'aborted';
  days: number;
  listed: number;
  stored: number;
  parsed: number;
  unsupported: number;
  failed: number;
  created: number;
  events: number;
  error: string | null;
  /**
   * The SEC's company tickers files imported before the run, the database holding no company:
   * how many companies they made, or why they could not be fetched. Null when not imported.
   */
  company_directory: { companies: number; error: string | null } | null;
}

export function secRunReport(report: RecordsReport): SecRunReport {
  const count = (key: string) => Number(report.details[key] ?? 0);
  return {
    status: report.status,
    days: report.batches,
    listed: report.listed,
    stored: report.pages,
    parsed: count('parsed'),
    unsupported: count('unsupported'),
    // Filings that could not be fetched and those that could not be read.
    failed: report.failed + count('failed'),
    created: count('created'),
    events: report.events,
    error: report.error,
    company_directory: report.companyDirectory ?? null,
  };
}

export function secSummary(report: SecRunReport): string {
  return (
    `sec: ${report.status}: ${report.days} day(s) listed, ${report.listed} filing(s) seen, ${report.stored} stored ` +
    `(${report.parsed} parsed, ${report.unsupported} unsupported, ${report.failed} failed), ` +
    `${report.created} new line(s), ${report.events} event(s)${report.error ? `: ${report.error}` : ''}` +
    directorySummary(report.company_directory)
  );
}

/** What the run said of the company directory it imported first, if it did. */
function directorySummary(directory: SecRunReport['company_directory']): string {
  if (directory === null) return '';
  return directory.error === null
    ? `; the database held no companies: ${directory.companies} imported from the SEC's company tickers files`
    : `; the database holds no companies and the SEC's company tickers files could not be fetched (${directory.error}): the next run tries again, as does \`dcledger companies import --from-sec\``;
}

/** Stores a fetched filing's lines or statements, counting what each document came to. */
class SecRecordStore implements RecordStore<SecRecord> {
  private readonly counts = { parsed: 0, unsupported: 0, failed: 0, created: 0 };

  async store(
    db: Parameters<RecordStore<SecRecord>['store']>[0],
    record: SecRecord,
    rawSha256: string,
    now: Date,
  ) {
    const result = await storeSecDocument(
      db,
      { ...record.input, content_hash: rawSha256 || null },
      now,
      record.parsed,
    );
    return {
      outcome: result.created > 0 ? ('new' as const) : ('unchanged' as const),
      emitted: result.events > 0,
      events: result.events,
      unmatchedName: null,
      count: () => {
        this.counts[result.status] += 1;
        this.counts.created += result.created;
      },
    };
  }

  details(): Record<string, unknown> {
    return { ...this.counts };
  }
}
