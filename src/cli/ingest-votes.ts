// `dcledger ingest votes [--since DATE] [--base-url URL]`: the House and Senate roll-call sets of
// every Congress since the date (default: the current Congress), from Voteview or a replay server.
import { loadConfig } from '../config.js';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import { HttpClient } from '../ingest/fetch/http-client.js';
import {
  congressOn,
  fetchVoteviewSets,
  VOTEVIEW_BASE_URL,
  voteviewSetNames,
} from '../ingest/sources/congress/voteview-connector.js';
import { saveVoteviewSets } from '../ingest/votes/import.js';
import { openMigratedStore } from '../storage/open.js';
import { printJson, printLine } from './output.js';
import { progressBar } from './progress.js';

export async function ingestVotesCommand(options: {
  since?: string;
  baseUrl?: string;
  json?: boolean;
}): Promise<void> {
  const config = loadConfig();
  const today = new Date().toISOString().slice(0, 10);
  const since = options.since ?? `${1789 + (congressOn(today) - 1) * 2}-01-03`;
  const http = new HttpClient({
    timeoutMs: config.ingest.timeoutMs,
    retries: config.ingest.retries,
    minIntervalMs: config.ingest.minIntervalMs,
    backoffMs: config.ingest.backoffMs,
    userAgent: config.ingest.userAgent,
  });
  const store = await openMigratedStore(config.database);
  const fetching = progressBar('fetching roll-call sets');
  try {
    const fetched = await fetchVoteviewSets(
      http,
      new DocumentArchive(config.ingest.archiveDir),
      options.baseUrl ?? VOTEVIEW_BASE_URL,
      voteviewSetNames(since, today),
      (done, total) => fetching.update(done, total),
    );
    fetching.stop();
    const saving = progressBar('saving roll-call sets');
    const report = await saveVoteviewSets(store.db, fetched.sets, {
      progress: (done, total) => saving.update(done, total),
    });
    saving.stop();
    if (options.json) return printJson({ ...report, missing: fetched.missing });
    printLine(`sets: ${report.sets.join(', ') || 'none'}`);
    for (const missing of fetched.missing) printLine(`  skipped ${missing.name}: ${missing.reason}`);
    printLine(
      `votes: ${report.votes.inserted} new, ${report.votes.updated} updated, ${report.votes.unchanged} unchanged`,
    );
    printLine(
      `positions: ${report.positions.inserted} new, ${report.positions.updated} updated, ${report.positions.unchanged} unchanged`,
    );
    for (const skipped of report.skipped) printLine(`  skipped ${skipped.count}: ${skipped.reason}`);
    printLine(`members not matched to a known member: ${report.unmatched.length}`);
    for (const name of report.unmatched) printLine(`  ${name}`);
  } finally {
    fetching.stop();
    await store.close();
  }
}
