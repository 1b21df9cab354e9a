// One `dcledger ingest votes` run: the House and Senate roll-call sets of every Congress from the
// start date to today, fetched (archived) and saved. Without --since a run starts where the last
// completed one left off: the Congress that was sitting then, whose sets keep growing and are read
// again whole (saving is keyed, so what is already stored is counted unchanged).
import type { Kysely } from 'kysely';
import type { IngestConfig } from '../../config.js';
import { readIngestState, recordRunEnd, recordRunStart } from '../../storage/repositories/ingest.js';
import type { Database } from '../../storage/schema.js';
import { DocumentArchive } from '../fetch/archive.js';
import { FetchError, HttpClient } from '../fetch/http-client.js';
import {
  congressOn,
  type FetchedSets,
  fetchVoteviewSets,
  VOTEVIEW_BASE_URL,
  voteviewSetNames,
} from '../sources/congress/voteview-connector.js';
import { saveVoteviewSets, type VotesReport } from './import.js';

/** The ingest_state key of roll-call runs. */
export const VOTES_STATE_SOURCE = 'voteview';

export interface VotesRunOptions {
  baseUrl?: string;
  since?: string;
  clock?: () => Date;
  fetching?: (done: number, total: number) => void;
  saving?: (done: number, total: number) => void;
}

export interface VotesRun {
  status: 'completed' | 'failed';
  since: string;
  /** Where the start date came from: the caller, the last run's cursor, or the sitting Congress. */
  sinceFrom: 'option' | 'cursor' | 'current congress';
  report: VotesReport | null;
  missing: FetchedSets['missing'];
  error: string | null;
}

/** The first day of the Congress sitting on a date (January 3 of its first, odd, year). */
export function congressStart(date: string): string {
  return `${1789 + (congressOn(date) - 1) * 2}-01-03`;
}

export async function ingestVotes(
  db: Kysely<Database>,
  config: IngestConfig,
  options: VotesRunOptions = {},
): Promise<VotesRun> {
  const started = (options.clock ?? (() => new Date()))();
  const today = started.toISOString().slice(0, 10);
  const cursor = (await readIngestState(db, VOTES_STATE_SOURCE))?.cursor ?? null;
  const [since, sinceFrom]: [string, VotesRun['sinceFrom']] = options.since
    ? [options.since, 'option']
    : cursor
      ? [cursor, 'cursor']
      : [congressStart(today), 'current congress'];
  const http = new HttpClient({
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    minIntervalMs: config.minIntervalMs,
    backoffMs: config.backoffMs,
    userAgent: config.userAgent,
  });
  await recordRunStart(db, VOTES_STATE_SOURCE, started.toISOString());
  try {
    const fetched = await fetchVoteviewSets(
      http,
      new DocumentArchive(config.archiveDir),
      options.baseUrl ?? VOTEVIEW_BASE_URL,
      voteviewSetNames(since, today),
      options.fetching,
    );
    const report = await saveVoteviewSets(db, fetched.sets, { now: started, progress: options.saving });
    await recordRunEnd(
      db,
      VOTES_STATE_SOURCE,
      { status: 'completed', cursor: congressStart(today) },
      new Date().toISOString(),
    );
    return { status: 'completed', since, sinceFrom, report, missing: fetched.missing, error: null };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    await recordRunEnd(
      db,
      VOTES_STATE_SOURCE,
      { status: 'failed', error: error.message },
      new Date().toISOString(),
    );
    return { status: 'failed', since, sinceFrom, report: null, missing: [], error: error.message };
  }
}
