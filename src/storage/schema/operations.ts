// The tables of running the service: role leases (one process per role), the scheduler's runs,
// enrichment jobs, and the bulk download files.
import type { Generated } from 'kysely';

/** A bulk download's gzip file, one row per format (migration 0056-bulk-exports). */
export interface BulkExportsTable {
  /** trades.csv.gz, trades.ndjson.gz */
  name: string;
  content: Uint8Array;
  /** Strong ETag of the gzip bytes, with its quotes. */
  etag: string;
  /** What the trades looked like when it was built (tradeDataVersion); a different one means stale. */
  data_version: string;
  rows: number;
  /** Length of `content`. */
  bytes: number;
  generated_at: string;
}

/** One enrichment run, queued and claimed under a lease by a worker (migration 0019-jobs). */
export interface EnrichmentJobsTable {
  id: Generated<number>;
  /** 'enrichment' while waiting to be claimed (one waiting job at most); null otherwise. */
  queue_key: string | null;
  full_run: number;
  /** pending | running | completed | failed */
  status: string;
  requested_by: string;
  requests: number;
  attempts: number;
  next_attempt_at: string;
  lease_token: string | null;
  lease_expires_at: string | null;
  progress_phase: string | null;
  progress_done: number | null;
  progress_total: number | null;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One process's claim on a role only one may play at a time (migration 0014-roles). */
export interface RoleLeasesTable {
  name: string;
  holder: string;
  acquired_at: string;
  expires_at: string;
}

export interface SchedulerRunsTable {
  id: Generated<number>;
  holder: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  error: string | null;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface OperationsTables {
  role_leases: RoleLeasesTable;
  scheduler_runs: SchedulerRunsTable;
  enrichment_jobs: EnrichmentJobsTable;
  bulk_exports: BulkExportsTable;
}
