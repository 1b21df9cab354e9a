// One SEC ingest run: list the daily indexes from the cursor (or --since) to today, keep the
// chosen forms, then fetch, archive (by content hash) and store every filing not yet stored.
// Listing and storing are separate steps, so an interrupted run resumes with what it listed.
import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../../../domain/dates.js';
import { readIngestState, recordRunEnd, recordRunStart } from '../../../storage/repositories/ingest.js';
import {
  listSecFiling,
  pendingSecFilings,
  recordSecFetchFailure,
} from '../../../storage/repositories/sec.js';
import type { Database } from '../../../storage/schema.js';
import type { DocumentArchive } from '../../fetch/archive.js';
import type { SecConnector } from './connector.js';
import { DEFAULT_SEC_FORMS, type EdgarIndexEntry, formMatcher } from './index-file.js';
import { linkCompanyDirectory, storeSecDocument } from './store.js';

export const SEC_SOURCE = 'sec_edgar';
const MAX_ATTEMPTS = 5;

export interface SecRunOptions {
  connector: SecConnector;
  archive: DocumentArchive;
  clock: () => Date;
  /** First filing date to list; default the cursor of the last run, else 7 days ago. */
  since?: string;
  forms?: readonly string[];
  /** Also read the current-events feed (the filings of today not yet in a daily index). */
  current?: boolean;
  signal?: AbortSignal;
  progress?: (step: 'list' | 'fetch', done: number, total: number) => void;
}

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
}

export async function runSecIngest(db: Kysely<Database>, options: SecRunOptions): Promise<SecRunReport> {
  const started = options.clock();
  const today = todayUtc(started);
  await recordRunStart(db, SEC_SOURCE, started.toISOString());
  await linkCompanyDirectory(db, started);
  const state = await readIngestState(db, SEC_SOURCE);
  const since = options.since ?? state?.cursor ?? addDays(today, -7);
  const wanted = formMatcher(options.forms ?? DEFAULT_SEC_FORMS);
  const report: SecRunReport = {
    status: 'completed',
    days: 0,
    listed: 0,
    stored: 0,
    parsed: 0,
    unsupported: 0,
    failed: 0,
    created: 0,
    events: 0,
    error: null,
  };
  try {
    const days: string[] = [];
    for (let day = since; day <= today; day = addDays(day, 1)) days.push(day);
    for (const [index, day] of days.entries()) {
      if (options.signal?.aborted) break;
      await listEntries(
        db,
        options,
        (await options.connector.listDay(day, options.signal)).filter((entry) => wanted(entry.form)),
        report,
      );
      report.days += 1;
      options.progress?.('list', index + 1, days.length);
    }
    if (options.current && !options.signal?.aborted) {
      for (const form of options.forms ?? DEFAULT_SEC_FORMS) {
        const entries = await options.connector.listCurrent(form, options.signal);
        await listEntries(
          db,
          options,
          entries.filter((entry) => wanted(entry.form)),
          report,
        );
      }
    }
    const pending = await pendingSecFilings(db, MAX_ATTEMPTS);
    for (const [index, filing] of pending.entries()) {
      if (options.signal?.aborted) break;
      await fetchAndStore(db, options, filing, report);
      options.progress?.('fetch', index + 1, pending.length);
    }
    report.status = options.signal?.aborted ? 'aborted' : 'completed';
    await recordRunEnd(
      db,
      SEC_SOURCE,
      // The cursor stays on today: EDGAR adds to today's index until the day ends.
      { status: report.status, ...(report.status === 'completed' ? { cursor: today } : {}) },
      options.clock().toISOString(),
    );
  } catch (error) {
    report.status = 'failed';
    report.error = error instanceof Error ? error.message : String(error);
    await recordRunEnd(
      db,
      SEC_SOURCE,
      { status: 'failed', error: report.error },
      options.clock().toISOString(),
    );
  }
  return report;
}

async function listEntries(
  db: Kysely<Database>,
  options: SecRunOptions,
  entries: readonly EdgarIndexEntry[],
  report: SecRunReport,
): Promise<void> {
  const stamp = options.clock().toISOString();
  // A Form 4 is listed under its issuer and under each reporting owner: one filing per accession.
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.accession_number)) continue;
    seen.add(entry.accession_number);
    await listSecFiling(
      db,
      {
        accession_number: entry.accession_number,
        form: entry.form,
        filed_date: entry.filed_date,
        period_of_report: null,
        issuer_cik: null,
        issuer_name: null,
        status: 'listed',
        reason: null,
        url: options.connector.documentUrl(entry),
        content_hash: null,
      },
      stamp,
    );
    report.listed += 1;
  }
}

async function fetchAndStore(
  db: Kysely<Database>,
  options: SecRunOptions,
  filing: { accession_number: string; form: string; filed_date: string | null; url: string | null },
  report: SecRunReport,
): Promise<void> {
  if (!filing.url) return;
  let bytes: Buffer;
  try {
    bytes = await options.connector.fetchDocument(filing.url, options.signal);
  } catch (error) {
    if (options.signal?.aborted) return;
    report.failed += 1;
    await recordSecFetchFailure(
      db,
      filing.accession_number,
      error instanceof Error ? error.message : String(error),
      options.clock().toISOString(),
    );
    return;
  }
  const hash = options.archive.put(bytes);
  const result = await storeSecDocument(
    db,
    {
      accession_number: filing.accession_number,
      form: filing.form,
      filed_date: filing.filed_date,
      url: filing.url,
      content_hash: hash,
      text: bytes.toString('utf8'),
    },
    options.clock(),
  );
  report.stored += 1;
  if (result.status === 'parsed') report.parsed += 1;
  else if (result.status === 'unsupported') report.unsupported += 1;
  else report.failed += 1;
  report.created += result.created;
  report.events += result.events;
}
