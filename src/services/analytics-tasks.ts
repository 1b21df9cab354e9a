// The analytics answers that can cost a request tens or hundreds of milliseconds of CPU (a rule
// matched over a long range, a company's whole record), as named tasks: the API runs them in a
// pool of worker threads (analytics-pool.ts) so that no request holds the event loop, or in
// process where there is no pool (tests, an in-memory database). Arguments and answers are plain
// data: they cross a thread boundary by structured clone.
import type { Kysely } from 'kysely';
import { ApiError, type ErrorCode } from '../errors.js';
import type { AnalyticsTradeRange } from '../storage/repositories/analytics-clusters.js';
import type { Database } from '../storage/schema.js';
import { type ClusterQuery, recentClusters } from './clusters.js';
import { companyDossier } from './companies.js';
import { memberConflicts } from './conflicts.js';
import { findOverlap, findOverlapAnswer, type OverlapQuery } from './overlap.js';
import { suspiciousTiming, type TimingQuery } from './suspicious-timing.js';

export const ANALYTICS_TASKS = {
  suspiciousTiming: (
    db: Kysely<Database>,
    args: { range: AnalyticsTradeRange; query: TimingQuery; asJson?: { hideGated: boolean } },
  ) => suspiciousTiming(db, args.range, args.query, args.asJson),
  recentClusters: (db: Kysely<Database>, args: { range: AnalyticsTradeRange; query: ClusterQuery }) =>
    recentClusters(db, args.range, args.query),
  companyDossier: (db: Kysely<Database>, args: { ticker: string }) => companyDossier(db, args.ticker),
  overlap: (db: Kysely<Database>, args: { query: OverlapQuery }) => findOverlap(db, args.query),
  /** The same page, its hits as the JSON text the database writes while the stored hits are current. */
  overlapAnswer: (db: Kysely<Database>, args: { query: OverlapQuery }) => findOverlapAnswer(db, args.query),
  memberConflicts: (
    db: Kysely<Database>,
    args: { member: string; page: { limit: number; offset: number }; now: string },
  ) => memberConflicts(db, args.member, args.page, new Date(args.now)),
};

export type AnalyticsTaskName = keyof typeof ANALYTICS_TASKS;
export type AnalyticsTaskArgs<N extends AnalyticsTaskName> = Parameters<(typeof ANALYTICS_TASKS)[N]>[1];
export type AnalyticsTaskResult<N extends AnalyticsTaskName> = Awaited<
  ReturnType<(typeof ANALYTICS_TASKS)[N]>
>;

/** Runs the heavy analytics for a caller (`key`: the API key's id; null for an unkeyed call). */
export interface AnalyticsRunner {
  run<N extends AnalyticsTaskName>(
    name: N,
    args: AnalyticsTaskArgs<N>,
    key: string | null,
  ): Promise<AnalyticsTaskResult<N>>;
  close(): Promise<void>;
}

/** The tasks on the caller's own thread and database handle. */
export function inProcessAnalytics(db: Kysely<Database>): AnalyticsRunner {
  return {
    run: (name, args) => runAnalyticsTask(db, name, args),
    close: async () => undefined,
  };
}

export function runAnalyticsTask<N extends AnalyticsTaskName>(
  db: Kysely<Database>,
  name: N,
  args: AnalyticsTaskArgs<N>,
): Promise<AnalyticsTaskResult<N>> {
  const task = ANALYTICS_TASKS[name] as (
    db: Kysely<Database>,
    args: AnalyticsTaskArgs<N>,
  ) => Promise<AnalyticsTaskResult<N>>;
  return task(db, args);
}

/** A task's outcome as it crosses the thread boundary: an ApiError keeps its code and detail. */
export type TaskOutcome =
  | { ok: true; result: unknown }
  | {
      ok: false;
      error: {
        code: ErrorCode;
        detail: string;
        extra: Record<string, unknown>;
        headers: Record<string, string>;
      };
    };

export async function taskOutcome(work: () => Promise<unknown>): Promise<TaskOutcome> {
  try {
    return { ok: true, result: await work() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      ok: false,
      error: { code: error.code, detail: error.detail, extra: error.extra, headers: error.headers },
    };
  }
}

export function resultOf(outcome: TaskOutcome): unknown {
  if (outcome.ok) return outcome.result;
  const { code, detail, extra, headers } = outcome.error;
  throw new ApiError(code, detail, extra, headers);
}
