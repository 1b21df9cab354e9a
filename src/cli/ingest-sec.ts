// `dcledger ingest sec [--since] [--forms 4,SC 13D,SC 13G] [--current] [--base-url]`.
import { loadConfig } from '../config.js';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import { secConnectorFromConfig } from '../ingest/sources/sec/connector.js';
import { DEFAULT_SEC_FORMS } from '../ingest/sources/sec/index-file.js';
import { runSecIngest, type SecRunReport } from '../ingest/sources/sec/run.js';
import { openMigratedStore } from '../storage/open.js';
import { CommandError, printJson } from './output.js';
import { progressBar } from './progress.js';

export interface SecIngestOptions {
  since?: string;
  baseUrl?: string;
  forms?: string;
  current?: boolean;
  json?: boolean;
}

export async function secIngestCommand(options: SecIngestOptions): Promise<void> {
  const config = loadConfig();
  const baseUrl = options.baseUrl ?? config.ingest.secBaseUrl;
  // EDGAR's fair-access policy: automated access must declare who it is and how to reach them.
  if (/(^|\.)sec\.gov$/i.test(new URL(baseUrl).hostname) && !config.ingest.secContact) {
    throw new CommandError('set DCLEDGER_SEC_CONTACT (an e-mail address) before ingesting from sec.gov', 2);
  }
  const forms = options.forms
    ? options.forms
        .split(',')
        .map((form) => form.trim())
        .filter((form) => form !== '')
    : DEFAULT_SEC_FORMS;
  for (const form of forms) {
    if (!/^(3|4|5|(SC|SCHEDULE) 13[DG])(\/A)?$/i.test(form)) {
      throw new CommandError(`--forms: "${form}" is not one of 3, 4, 5, SC 13D, SC 13G (or their /A)`, 2);
    }
  }
  const store = await openMigratedStore(config.database);
  const listing = progressBar('sec list ');
  const fetching = progressBar('sec fetch');
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const report = await runSecIngest(store.db, {
      connector: secConnectorFromConfig(config.ingest, options.baseUrl),
      archive: new DocumentArchive(config.ingest.archiveDir),
      clock: () => new Date(),
      since: options.since,
      forms,
      current: options.current === true,
      signal: controller.signal,
      progress: (step, done, total) => (step === 'list' ? listing : fetching).update(done, total),
    });
    listing.stop();
    fetching.stop();
    if (options.json) printJson(report);
    else process.stderr.write(`${secSummary(report)}\n`);
    if (report.status === 'failed') process.exitCode = 1;
  } finally {
    listing.stop();
    fetching.stop();
    process.removeListener('SIGINT', stop);
    await store.close();
  }
}

export function secSummary(report: SecRunReport): string {
  return (
    `sec: ${report.status}: ${report.days} day(s) listed, ${report.listed} filing(s) seen, ${report.stored} stored ` +
    `(${report.parsed} parsed, ${report.unsupported} unsupported, ${report.failed} failed), ` +
    `${report.created} new line(s), ${report.events} event(s)${report.error ? `: ${report.error}` : ''}`
  );
}
