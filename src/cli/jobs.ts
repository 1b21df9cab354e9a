// `dcledger jobs`: the enrichment job queue and the webhook outbox depth, for an operator at a
// terminal (a table) or a script (`--json`); the same rows `/metrics` counts.

import { WEBHOOK_PLANS } from '../accounts/plans.js';
import { loadConfig } from '../config.js';
import { openMigratedStore } from '../storage/open.js';
import { type EnrichmentJobRow, recentEnrichmentJobs } from '../storage/repositories/enrichment-jobs.js';
import { type OutboxDepth, webhookOutboxDepth } from '../storage/repositories/operations.js';
import { wholeNumber } from './accounts.js';
import { JOB_STATUS_NAMES, type JobStatusName, STATUS_NAMES } from './job-statuses.js';
import { CommandError, printJson, printLine } from './output.js';

const DEFAULT_LIMIT = 20;

export interface JobListing {
  id: number;
  status: JobStatusName;
  full_run: boolean;
  requested_by: string;
  /** Requests folded into this job while it waited. */
  requests: number;
  attempts: number;
  progress: { phase: string; done: number; total: number } | null;
  /** The worker holding the job's lease (its `worker` id in the logs); null when none does. */
  lease_holder: string | null;
  lease_expires_at: string | null;
  created_at: string;
  age_seconds: number;
  next_attempt_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

export interface JobsReport {
  jobs: JobListing[];
  outbox: { events: number; deliveries: number; depth: number };
}

function statusName(status: string): JobStatusName {
  const found = JOB_STATUS_NAMES.find((name) => STATUS_NAMES[name] === status);
  if (!found) throw new Error(`unknown enrichment job status "${status}"`);
  return found;
}

export function jobListing(row: EnrichmentJobRow, now: Date): JobListing {
  const progress =
    row.progress_phase !== null && row.progress_done !== null && row.progress_total !== null
      ? { phase: row.progress_phase, done: row.progress_done, total: row.progress_total }
      : null;
  return {
    id: row.id,
    status: statusName(row.status),
    full_run: row.full_run === 1,
    requested_by: row.requested_by,
    requests: row.requests,
    attempts: row.attempts,
    progress,
    // A lease token is `<worker id>:<claim uuid>`; the worker id is what its log lines carry.
    lease_holder: row.lease_token === null ? null : (row.lease_token.split(':')[0] ?? null),
    lease_expires_at: row.lease_expires_at,
    created_at: row.created_at,
    age_seconds: Math.max(0, Math.round((now.getTime() - Date.parse(row.created_at)) / 1000)),
    next_attempt_at: row.next_attempt_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    error: row.error,
  };
}

export function jobsReport(rows: EnrichmentJobRow[], outbox: OutboxDepth, now: Date): JobsReport {
  return {
    jobs: rows.map((row) => jobListing(row, now)),
    outbox: { ...outbox, depth: outbox.events + outbox.deliveries },
  };
}

/** `90` → `1m30s`, `7200` → `2h0m`: short enough for a table column. */
export function shortAge(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
  return `${Math.floor(seconds / 86_400)}d${Math.floor((seconds % 86_400) / 3600)}h`;
}

const COLUMNS = ['ID', 'STATUS', 'ATTEMPTS', 'PROGRESS', 'LEASE HOLDER', 'LEASE UNTIL', 'AGE', 'LAST ERROR'];

export function jobsTable(report: JobsReport): string[] {
  const rows = report.jobs.map((job) => [
    String(job.id),
    job.full_run ? `${job.status} (full)` : job.status,
    String(job.attempts),
    job.progress ? `${job.progress.phase} ${job.progress.done}/${job.progress.total}` : '-',
    job.lease_holder ?? '-',
    job.lease_expires_at ?? '-',
    shortAge(job.age_seconds),
    // One line per job: an error is cut at its first line break.
    job.error?.split('\n')[0] ?? '-',
  ]);
  const widths = COLUMNS.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ');
  const { outbox } = report;
  return [
    ...(rows.length ? [line(COLUMNS), ...rows.map(line)] : ['no enrichment jobs']),
    '',
    `webhook outbox: ${outbox.depth} waiting (${outbox.events} events not fanned out, ${outbox.deliveries} deliveries pending)`,
  ];
}

export async function jobsCommand(options: { status?: JobStatusName; limit?: string; json?: boolean }) {
  const limit = wholeNumber('--limit', options.limit) ?? DEFAULT_LIMIT;
  if (limit < 1) throw new CommandError(`--limit must be at least 1, got ${limit}`);
  const store = await openMigratedStore(loadConfig().database);
  try {
    const status = options.status === undefined ? undefined : STATUS_NAMES[options.status];
    const [rows, outbox] = await Promise.all([
      recentEnrichmentJobs(store.db, { limit, status }),
      webhookOutboxDepth(store.db, { plans: WEBHOOK_PLANS, now: new Date().toISOString() }),
    ]);
    const report = jobsReport(rows, outbox, new Date());
    if (options.json) printJson(report);
    else for (const text of jobsTable(report)) printLine(text);
  } finally {
    await store.close();
  }
}
