// Voteview as a source: the House and Senate roll-call sets of every Congress since the date
// (default: where the last completed run left off, the Congress sitting then, whose sets keep
// growing and are read again whole; saving is keyed, so what is stored already is counted
// unchanged), saved by the same code as `dcledger import votes`. Roll calls have no event.
import type { Kysely } from 'kysely';
import { addCounts, NO_CHANGES } from '../../../storage/keyed-rows.js';
import type { Database } from '../../../storage/schema.js';
import { saveVoteviewSets, type VotesReport, type VoteviewSetText } from '../../votes/import.js';
import type { RecordStore, StoredRecord } from '../record-connector.js';
import { type RecordsReport, recordsSource } from '../source-definition.js';
import { congressStart, VoteviewConnector } from './connector.js';
import { votesManifest } from './manifest.js';
import { voteviewReplay } from './replay.js';

export const definition = recordsSource({
  manifest: votesManifest,
  firstSince: congressStart,
  nextCursor: congressStart,
  feed: ({ http, settings }) => ({
    pages: (since, now, signal) => new VoteviewConnector(http, settings.baseUrl).pages(since, now, signal),
  }),
  store: () => new VotesRecordStore(),
  matchesCompanies: false,
  replay: voteviewReplay,
  present: (report) => {
    const run = votesRun(report);
    return { json: run, lines: votesLines(run) };
  },
});

/** What `dcledger ingest votes` reports: the sets read and what saving them changed. */
export interface VotesRun {
  status: 'completed' | 'failed' | 'aborted';
  since: string;
  /** Where the start date came from: the caller, the last run's cursor, or the sitting Congress. */
  sinceFrom: 'option' | 'cursor' | 'current congress';
  report: VotesReport | null;
  missing: { name: string; reason: string }[];
  error: string | null;
}

export function votesRun(report: RecordsReport): VotesRun {
  const totals = report.details as Partial<VotesReport>;
  return {
    status: report.status,
    since: report.since,
    sinceFrom: report.sinceFrom === 'first run' ? 'current congress' : report.sinceFrom,
    report:
      report.status === 'failed' && report.pages === 0
        ? null
        : {
            sets: totals.sets ?? [],
            votes: totals.votes ?? NO_CHANGES,
            positions: totals.positions ?? NO_CHANGES,
            skipped: totals.skipped ?? [],
            unmatched: totals.unmatched ?? [],
          },
    missing: report.skipped.map((skipped) => ({ name: skipped.id, reason: skipped.reason })),
    error: report.error,
  };
}

function votesLines(run: VotesRun): string[] {
  const lines = [`since ${run.since} (${run.sinceFrom}): ${run.status}`];
  if (run.error) lines.push(`  error: ${run.error}`);
  const report = run.report;
  if (!report) return lines;
  lines.push(`sets: ${report.sets.join(', ') || 'none'}`);
  for (const missing of run.missing) lines.push(`  skipped ${missing.name}: ${missing.reason}`);
  lines.push(
    `votes: ${report.votes.inserted} new, ${report.votes.updated} updated, ${report.votes.unchanged} unchanged`,
    `positions: ${report.positions.inserted} new, ${report.positions.updated} updated, ${report.positions.unchanged} unchanged`,
  );
  for (const skipped of report.skipped) lines.push(`  skipped ${skipped.count}: ${skipped.reason}`);
  lines.push(`members not matched to a known member: ${report.unmatched.length}`);
  for (const name of report.unmatched) lines.push(`  ${name}`);
  return lines;
}

/** Saves a set, adding up what the sets came to (the report of `dcledger ingest votes`). */
class VotesRecordStore implements RecordStore<VoteviewSetText> {
  private readonly totals: VotesReport = {
    sets: [],
    votes: NO_CHANGES,
    positions: NO_CHANGES,
    skipped: [],
    unmatched: [],
  };
  private readonly unmatched = new Set<string>();

  async store(
    db: Kysely<Database>,
    record: VoteviewSetText,
    _rawSha256: string,
    now: Date,
  ): Promise<StoredRecord> {
    const saved = await saveVoteviewSets(db, [record], { now });
    const count = () => {
      const totals = this.totals;
      totals.sets.push(...saved.sets);
      totals.votes = addCounts(totals.votes, saved.votes);
      totals.positions = addCounts(totals.positions, saved.positions);
      for (const skipped of saved.skipped) {
        const same = totals.skipped.find((entry) => entry.reason === skipped.reason);
        if (same) same.count += skipped.count;
        else totals.skipped.push({ ...skipped });
      }
      for (const name of saved.unmatched) this.unmatched.add(name);
    };
    const outcome =
      saved.votes.inserted > 0 || saved.positions.inserted > 0
        ? 'new'
        : saved.votes.updated > 0 || saved.positions.updated > 0
          ? 'updated'
          : 'unchanged';
    return { outcome, emitted: false, unmatchedName: null, count };
  }

  details(): Record<string, unknown> {
    return { ...this.totals, unmatched: [...this.unmatched].sort() };
  }
}
