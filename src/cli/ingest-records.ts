// `dcledger ingest lobbying|contracts|bills [--since DATE] [--base-url URL] [--json]`: one record-source
// run with progress on stderr and a summary of what it did on stdout.
import { loadConfig } from '../config.js';
import type {
  RecordIngestProgress,
  RecordIngestReport,
  RecordSourceName,
} from '../ingest/pipeline/record-ingest.js';
import { ingestRecords } from '../ingest/pipeline/record-setup.js';
import { openMigratedStore } from '../storage/open.js';
import { printJson, printLine } from './output.js';

export async function ingestRecordsCommand(
  source: RecordSourceName,
  options: { since?: string; baseUrl?: string; json?: boolean },
): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const report = await ingestRecords(store.db, config.ingest, source, {
      baseUrl: options.baseUrl,
      since: options.since,
      progress: recordProgress(process.stderr),
      signal: controller.signal,
    });
    if (options.json) printJson(report);
    else printRecordReport(report);
    if (report.status === 'failed') process.exitCode = 1;
  } finally {
    process.removeListener('SIGINT', stop);
    await store.close();
  }
}

/** One line per page read: records so far, of how many when the source says. */
export function recordProgress(stream: NodeJS.WritableStream): RecordIngestProgress {
  return {
    page(source, done, total) {
      stream.write(`${source}: ${done}${total === null ? '' : `/${total}`} records read\n`);
    },
  };
}

/** The event each record source emits for a new record (bills have none). */
const RECORD_EVENTS: Record<RecordSourceName, string | null> = {
  lobbying: 'lobbying.filed',
  contracts: 'contract.awarded',
  bills: null,
};

export function printRecordReport(report: RecordIngestReport): void {
  printLine(`== ${report.source}: ${report.status}`);
  if (report.error) printLine(`  error: ${report.error}`);
  printLine(`  since ${report.since}: ${report.pages} pages/files, ${report.records} records`);
  printLine(`  new ${report.new}, updated ${report.updated}, unchanged ${report.unchanged}`);
  const event = RECORD_EVENTS[report.source];
  if (event) printLine(`  events: ${report.events} ${event}`);
  printLine(`  skipped: ${report.skipped.length}`);
  const reasons = new Map<string, number>();
  for (const skip of report.skipped) {
    const reason = skip.reason.replace(/posted \S+, before/, 'posted before');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) printLine(`    ${count} × ${reason}`);
  printLine(`  names matched to no listed company (kept on the records): ${report.unmatchedNames.length}`);
  for (const name of report.unmatchedNames) printLine(`    ${name}`);
}
