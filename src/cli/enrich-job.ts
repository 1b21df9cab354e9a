// `dcledger enrich` through the job queue: it asks for a job like ingest does and runs it in this
// process, under the same lease as a worker's, so it never runs beside a worker's enrichment. When
// another worker is running a job, it waits for that one and then runs (or sees run) its own.
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { EnrichProgress, EnrichReport } from '../analytics/enrich.js';
import type { Config } from '../config.js';
import { redactingStream } from '../logging.js';
import type { Store } from '../storage/database.js';
import { enqueueEnrichmentJob, enrichmentJob } from '../storage/repositories/enrichment-jobs.js';
import { CommandError } from './output.js';
import { enrichmentWorkerFor } from './worker.js';

/** How often a waiting `enrich` looks at the queue again. */
const WAIT_MS = 1000;
/** Any job waiting is due for `enrich` run by hand, even one backing off after a failure. */
const NOW_OR_LATER = new Date('9999-12-31T00:00:00Z');

export async function runEnrichmentJob(
  store: Store,
  config: Config,
  options: { full: boolean; progress: EnrichProgress; waiting: (jobId: number) => void },
): Promise<EnrichReport> {
  // Warnings and errors only: the report is this command's output.
  const log = pino({ level: 'warn' }, redactingStream(process.stderr)).child({ component: 'enrichment' });
  const worker = enrichmentWorkerFor(store, config, log, options.progress);
  const { id } = await enqueueEnrichmentJob(store.db, {
    full: options.full,
    requestedBy: 'cli',
    now: new Date().toISOString(),
  });
  let toldWaiting = false;
  for (;;) {
    const job = await enrichmentJob(store.db, id);
    if (!job) throw new CommandError(`enrichment job ${id} disappeared from the queue`);
    if (job.status === 'completed' && job.result !== null) return JSON.parse(job.result) as EnrichReport;
    if (job.status === 'failed')
      throw new CommandError(`enrichment job ${id} failed: ${job.error ?? 'unknown'}`);
    if (job.status === 'pending') {
      const outcome = await worker.runOnce(NOW_OR_LATER);
      if (outcome?.status === 'completed') {
        if (outcome.job.id === id) return outcome.report;
        continue;
      }
      if (outcome && outcome.job.id === id)
        throw new CommandError(
          `enrichment job ${id} failed (attempt ${outcome.job.attempts}): ${outcome.error}` +
            (outcome.status === 'retry' ? '; a worker retries it later' : ''),
        );
      if (outcome) continue;
    }
    if (!toldWaiting) options.waiting(id);
    toldWaiting = true;
    await sleep(WAIT_MS);
  }
}
