// The names `dcledger jobs --status` takes, apart from the command so that the command line can
// list them in its help without loading the command's database modules.
import type { EnrichmentJobStatus } from '../storage/repositories/enrichment-jobs.js';

/** The names `--status` takes and the listing shows, and the job row status each one is. */
export const STATUS_NAMES = {
  queued: 'pending',
  running: 'running',
  done: 'completed',
  failed: 'failed',
} as const satisfies Record<string, EnrichmentJobStatus>;
export type JobStatusName = keyof typeof STATUS_NAMES;
export const JOB_STATUS_NAMES = Object.keys(STATUS_NAMES) as JobStatusName[];
