// How far each source's documents are, for the first fill of an empty database and every run
// after it: read from the rows the ingest loop writes anyway (ingest_documents, ingest_state), so
// every role (the scheduler that fills, the API that shows it) sees the same counts, and a restart
// changes nothing about them.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { interruptedSources, SCHEDULER_LEASE } from './role-leases.js';

export interface BackfillProgress {
  source: string;
  /** A run of the source has completed: its first fill is done (later runs only add what is new). */
  complete: boolean;
  /** A run of the source is under way (it started and has not recorded its end). */
  running: boolean;
  /** When the source's current (or last) run started; null before its first. */
  runStartedAt: string | null;
  /** When that run ended; null while it runs. */
  runFinishedAt: string | null;
  /** Documents the source's listing has brought, in all runs. */
  listed: number;
  /** Of them, fetched and stored (whatever their content). */
  fetched: number;
  /** Of them, read into trades (parse status parsed or needs_review). */
  parsed: number;
  /** Listed and not stored yet: still to fetch, or to fetch again after a failure. */
  waiting: number;
  /** Documents the current (or last) run stored. */
  fetchedThisRun: number;
  /** Documents a minute, over the current (or last) run; null before it stored any. */
  ratePerMinute: number | null;
  /** Seconds until `waiting` is fetched at that rate, while a run is under way; else null. */
  etaSeconds: number | null;
}

export async function backfillProgress(db: Kysely<Database>, now: Date): Promise<BackfillProgress[]> {
  const [interrupted, counts, states] = await Promise.all([
    interruptedSources(db, SCHEDULER_LEASE, now.toISOString()),
    db
      .selectFrom('ingest_documents as d')
      .innerJoin('filings as f', 'f.id', 'd.filing_id')
      .leftJoin('ingest_state as s', 's.source', 'd.source')
      .select([
        'd.source',
        sql<number>`count(*)`.as('listed'),
        sql<number>`sum(case when d.status = 'stored' then 1 else 0 end)`.as('fetched'),
        sql<number>`sum(case when d.status = 'stored' and f.parse_status in ('parsed', 'needs_review') then 1 else 0 end)`.as(
          'parsed',
        ),
        sql<number>`sum(case when d.status = 'listed' then 1 else 0 end)`.as('waiting'),
        // ISO timestamps compare as text on both databases.
        sql<number>`sum(case when d.status = 'stored' and d.stored_at >= s.last_started_at then 1 else 0 end)`.as(
          'this_run',
        ),
      ])
      .groupBy('d.source')
      .execute(),
    db
      .selectFrom('ingest_state')
      .select(['source', 'cursor', 'last_status', 'last_started_at', 'last_finished_at'])
      .execute(),
  ]);
  const sources = [
    ...new Set([...states.map((row) => row.source), ...counts.map((row) => row.source)]),
  ].sort();
  return sources.map((source) => {
    const count = counts.find((row) => row.source === source);
    const state = states.find((row) => row.source === source);
    // A run whose scheduler was killed is not going on, whatever its row says (role-leases.ts).
    const running = state?.last_status === 'running' && !interrupted.has(source);
    const startedAt = state?.last_started_at ?? null;
    const finishedAt = running ? null : (state?.last_finished_at ?? null);
    const waiting = Number(count?.waiting ?? 0);
    const fetchedThisRun = Number(count?.this_run ?? 0);
    const end = finishedAt ? Date.parse(finishedAt) : now.getTime();
    const minutes = startedAt ? (end - Date.parse(startedAt)) / 60_000 : 0;
    const ratePerMinute =
      fetchedThisRun > 0 && minutes > 0 ? Math.round((fetchedThisRun / minutes) * 10) / 10 : null;
    return {
      source,
      complete: (state?.cursor ?? null) !== null,
      running,
      runStartedAt: startedAt,
      runFinishedAt: finishedAt,
      listed: Number(count?.listed ?? 0),
      fetched: Number(count?.fetched ?? 0),
      parsed: Number(count?.parsed ?? 0),
      waiting,
      fetchedThisRun,
      ratePerMinute,
      etaSeconds: running && ratePerMinute !== null ? Math.round((waiting / ratePerMinute) * 60) : null,
    };
  });
}
