// `dcledger ingest votes [--since DATE] [--base-url URL]`: the House and Senate roll-call sets of
// every Congress since the date (default: where the last run left off, else the current Congress),
// from Voteview or a replay server.
import { loadConfig } from '../config.js';
import { ingestVotes } from '../ingest/votes/run.js';
import { openMigratedStore } from '../storage/open.js';
import { printJson, printLine } from './output.js';
import { progressBar } from './progress.js';

export async function ingestVotesCommand(options: {
  since?: string;
  baseUrl?: string;
  json?: boolean;
}): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const fetching = progressBar('fetching roll-call sets');
  const saving = progressBar('saving roll-call sets');
  try {
    const run = await ingestVotes(store.db, config.ingest, {
      baseUrl: options.baseUrl,
      since: options.since,
      fetching: (done, total) => fetching.update(done, total),
      saving: (done, total) => {
        fetching.stop();
        saving.update(done, total);
      },
    });
    fetching.stop();
    saving.stop();
    if (run.status === 'failed') process.exitCode = 1;
    if (options.json) return printJson(run);
    printLine(`since ${run.since} (${run.sinceFrom}): ${run.status}`);
    if (run.error) printLine(`  error: ${run.error}`);
    const report = run.report;
    if (!report) return;
    printLine(`sets: ${report.sets.join(', ') || 'none'}`);
    for (const missing of run.missing) printLine(`  skipped ${missing.name}: ${missing.reason}`);
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
    saving.stop();
    await store.close();
  }
}
