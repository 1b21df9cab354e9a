// The enrichment job runner: what `serve --role worker|all` runs beside the webhook worker, and
// what `dcledger enrich` runs in its own process. It claims the waiting job under a lease (see
// storage/repositories/enrichment-jobs.ts), runs `enrich` while it renews the lease and stores
// the job's progress every heartbeat, and records the outcome: the report, or a retry with
// exponential backoff, or a failure after the last attempt. A worker that loses its lease (it
// stalled past it and the job was put back) aborts its run and writes nothing.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  claimEnrichmentJob,
  completeEnrichmentJob,
  type EnrichmentJobRow,
  failEnrichmentJob,
  type JobProgress,
  reclaimExpiredEnrichmentJobs,
  renewEnrichmentJob,
} from '../storage/repositories/enrichment-jobs.js';
import type { Database } from '../storage/schema.js';
import { type EnrichOptions, type EnrichReport, enrich } from './enrich.js';

export interface EnrichmentLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  child(bindings: object): EnrichmentLogger;
}

export interface EnrichmentWorkerOptions {
  db: Kysely<Database>;
  clock: () => Date;
  log: EnrichmentLogger;
  /** How long a claimed job stays this worker's without renewal (renewed every heartbeat). */
  leaseMs: number;
  /** Idle wait between looks at the queue. */
  pollMs: number;
  /** Attempts before a job fails for good. */
  maxAttempts: number;
  /** First retry delay; doubled per attempt. */
  retryBaseMs: number;
  /** The price providers and their settings, the same for every run. */
  enrichOptions: Pick<EnrichOptions, 'providers' | 'refetchDays'>;
  /** Progress of the running job, for a terminal (the job row and the log get it anyway). */
  progress?: EnrichOptions['progress'];
  /** The enrichment itself (tests put a slow or failing one in its place). */
  run?: (db: Kysely<Database>, options: EnrichOptions) => Promise<EnrichReport>;
}

export type JobOutcome =
  | { job: EnrichmentJobRow; status: 'completed'; report: EnrichReport }
  | { job: EnrichmentJobRow; status: 'retry' | 'merged' | 'failed' | 'lost'; error: string };

/** Longest wait between two attempts. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** Most time between two progress writes (a heartbeat also renews the lease). */
const MAX_HEARTBEAT_MS = 5_000;

export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
}

export class EnrichmentWorker {
  readonly id = randomUUID();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private current: AbortController | undefined;
  private abandoned = false;
  private stopping = false;

  constructor(private readonly options: EnrichmentWorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.options.log.info({ worker: this.id, lease_ms: this.options.leaseMs }, 'enrichment worker started');
    this.loop = this.run();
  }

  /**
   * Stops looking for jobs; a running job is stopped at its next progress point and put back to
   * wait at once without counting the attempt (a shutdown is not the job's failure), so another
   * worker takes it up without waiting for the lease to lapse.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    this.current?.abort(new Error('the worker is stopping'));
    this.wake?.();
    await this.loop;
    this.options.log.info({ worker: this.id }, 'enrichment worker stopped');
  }

  /**
   * Walks away like a crashed process: the running job is aborted, nothing is recorded and its lease
   * stays until it expires. (For tests of recovery; a real crash needs no method.)
   */
  abandon(): void {
    this.running = false;
    this.abandoned = true;
    this.current?.abort(new Error('worker abandoned'));
    this.wake?.();
  }

  /**
   * Puts back jobs of dead workers, then claims and runs the waiting job if one is due; undefined
   * when there was nothing to run. `dueBy` lets `dcledger enrich` run a job still backing off.
   */
  async runOnce(dueBy?: Date): Promise<JobOutcome | undefined> {
    const { db, clock, log } = this.options;
    const now = clock();
    for (const { id, outcome } of await reclaimExpiredEnrichmentJobs(db, {
      now: now.toISOString(),
      maxAttempts: this.options.maxAttempts,
    }))
      log.warn({ worker: this.id, job: id, outcome }, 'enrichment job taken back from a worker that stopped');
    const token = `${this.id}:${randomUUID()}`;
    const job = await claimEnrichmentJob(db, {
      now: now.toISOString(),
      dueBy: (dueBy ?? now).toISOString(),
      token,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs).toISOString(),
    });
    if (!job) return undefined;
    return this.runJob(job, token);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let ran = false;
      try {
        ran = (await this.runOnce()) !== undefined;
      } catch (error) {
        this.options.log.error({ worker: this.id, err: error }, 'enrichment worker step failed');
      }
      // After a job, look again at once: work requested while it ran is waiting.
      if (!ran) await this.pause(this.options.pollMs);
    }
  }

  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.wake = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  private async runJob(job: EnrichmentJobRow, token: string): Promise<JobOutcome> {
    const { db, clock } = this.options;
    const log = this.options.log.child({ worker: this.id, job: job.id });
    const controller = new AbortController();
    this.current = controller;
    log.info(
      {
        attempt: job.attempts,
        full: job.full_run === 1,
        requested_by: job.requested_by,
        requests: job.requests,
      },
      'enrichment job started',
    );
    let progress: JobProgress | undefined;
    let lastPhase: string | undefined;
    let beating: Promise<void> = Promise.resolve();
    const heartbeat = async () => {
      if (this.abandoned) return;
      const now = clock();
      try {
        const held = await renewEnrichmentJob(db, {
          id: job.id,
          token,
          now: now.toISOString(),
          leaseUntil: new Date(now.getTime() + this.options.leaseMs).toISOString(),
          progress,
        });
        if (!held) controller.abort(new Error('the job lease was lost'));
      } catch (error) {
        // Not renewed: the lease may lapse, and then the next heartbeat aborts the run.
        log.error({ err: error }, 'renewing the enrichment job lease failed');
      }
    };
    const every = Math.max(10, Math.min(MAX_HEARTBEAT_MS, Math.floor(this.options.leaseMs / 3)));
    const timer = setInterval(() => {
      beating = beating.then(heartbeat);
    }, every);
    const started = performance.now();
    try {
      const report = await (this.options.run ?? enrich)(db, {
        ...this.options.enrichOptions,
        all: job.full_run === 1,
        now: clock(),
        signal: controller.signal,
        progress: (phase, done, total) => {
          progress = { phase, done, total };
          if (phase !== lastPhase) log.info({ phase, done, total }, 'enrichment job progress');
          else log.debug({ phase, done, total }, 'enrichment job progress');
          lastPhase = phase;
          this.options.progress?.(phase, done, total);
        },
      });
      clearInterval(timer);
      await beating;
      if (this.abandoned) return { job, status: 'lost', error: 'worker abandoned' };
      const stored = await completeEnrichmentJob(db, {
        id: job.id,
        token,
        now: clock().toISOString(),
        result: JSON.stringify(report),
      });
      if (!stored) {
        log.warn({}, 'enrichment job lease lost before its outcome was recorded');
        return { job, status: 'lost', error: 'the job lease was lost' };
      }
      log.info(
        {
          seconds: Math.round(performance.now() - started) / 1000,
          trades: report.trades.computed,
          members: report.members.refreshed,
        },
        'enrichment job finished',
      );
      return { job, status: 'completed', report };
    } catch (error) {
      clearInterval(timer);
      await beating;
      const message = error instanceof Error ? error.message : String(error);
      if (this.abandoned) return { job, status: 'lost', error: message };
      if (this.stopping && controller.signal.aborted) return this.putBackUnfinished(job, token, log);
      return this.recordFailure(job, token, message, log);
    } finally {
      clearInterval(timer);
      this.current = undefined;
    }
  }

  private async putBackUnfinished(
    job: EnrichmentJobRow,
    token: string,
    log: EnrichmentLogger,
  ): Promise<JobOutcome> {
    const now = this.options.clock().toISOString();
    const error = 'the worker stopped before the job finished';
    const status = await failEnrichmentJob(this.options.db, {
      id: job.id,
      token,
      now,
      error,
      retryAt: now,
      refund: true,
    });
    log.info({ outcome: status }, 'enrichment job put back: the worker is stopping');
    return { job, status, error };
  }

  private async recordFailure(
    job: EnrichmentJobRow,
    token: string,
    message: string,
    log: EnrichmentLogger,
  ): Promise<JobOutcome> {
    const now = this.options.clock();
    const last = job.attempts >= this.options.maxAttempts;
    const retryAt = last
      ? null
      : new Date(now.getTime() + retryDelayMs(job.attempts, this.options.retryBaseMs)).toISOString();
    const status = await failEnrichmentJob(this.options.db, {
      id: job.id,
      token,
      now: now.toISOString(),
      error: message,
      retryAt,
    });
    if (status === 'lost') log.warn({ error: message }, 'enrichment job lease lost; another worker owns it');
    else
      log.error(
        { error: message, attempt: job.attempts, outcome: status, next_attempt_at: retryAt, gave_up: last },
        'enrichment job failed',
      );
    return { job, status, error: message };
  }
}
