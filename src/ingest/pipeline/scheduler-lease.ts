// Exactly one scheduler acts at a time, however many processes run the scheduler role. Each holds
// or waits for the `scheduler` lease row; the holder renews it every third of the lease time, and
// when it dies, a standby takes the lease over once it expires. A run starts only under a live
// lease (checked under the row's lock), and a holder that fails to renew aborts its run, so no
// two ingest runs overlap. Every log line of one run carries its scheduler_runs id as `run`: the
// run and its report are logged through a child logger made when the run row is written.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import {
  acquireLease,
  finishRun,
  releaseLease,
  SCHEDULER_LEASE,
  startLeasedRun,
} from '../../storage/repositories/role-leases.js';
import type { Database } from '../../storage/schema.js';
import type { IngestReport } from './report.js';
import { type IngestSchedule, startIngestSchedule } from './scheduler.js';

const LEASE = SCHEDULER_LEASE;

export interface SchedulerLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  /** A logger whose every line also carries `bindings` (pino's `child`). */
  child(bindings: object): SchedulerLogger;
}

export interface LeasedScheduleOptions {
  db: Kysely<Database>;
  leaseMs: number;
  intervalMs: number;
  firstRunDelayMs?: number;
  log: SchedulerLogger;
  /**
   * One run; `runLog` carries the run's id on every line and is the one to log with, and `runId`
   * (its scheduler_runs row) goes on the events the run emits (ingestOnce's `runId`).
   */
  run: (signal: AbortSignal, runLog: SchedulerLogger, runId: number) => Promise<IngestReport>;
  onReport: (report: IngestReport, runLog: SchedulerLogger) => void;
}

export interface LeasedSchedule {
  /** This process's name in the lease row and in scheduler_runs. */
  holder: string;
  stop(): Promise<void>;
}

export function startLeasedSchedule(options: LeasedScheduleOptions): LeasedSchedule {
  const { db, log } = options;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let schedule: IngestSchedule | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> = Promise.resolve();
  // The failure leasedRun logged with its run id, so onError does not log it a second time.
  let loggedFailure: unknown;

  const leaseFor = () => {
    const now = new Date();
    return {
      name: LEASE,
      holder,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + options.leaseMs).toISOString(),
    };
  };

  const leasedRun = async (signal: AbortSignal): Promise<IngestReport> => {
    const runId = await startLeasedRun(db, LEASE, holder, new Date().toISOString());
    if (runId === undefined) throw new Error('the scheduler lease was lost before the run started');
    const runLog = log.child({ scheduler: holder, run: runId });
    runLog.info({}, 'scheduled ingest run started');
    let report: IngestReport;
    try {
      report = await options.run(signal, runLog, runId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status = signal.aborted ? 'aborted' : 'failed';
      await finishRun(db, runId, { status, error: message, now: new Date().toISOString() });
      runLog.error({ status, err: error }, 'ingest run failed');
      loggedFailure = error;
      throw error;
    }
    const status = signal.aborted ? 'aborted' : 'completed';
    await finishRun(db, runId, { status, error: null, now: new Date().toISOString() });
    options.onReport(report, runLog);
    runLog.info({ status }, 'scheduled ingest run finished');
    return report;
  };

  const step = async () => {
    let held = false;
    try {
      held = await acquireLease(db, leaseFor());
    } catch (error) {
      log.error({ scheduler: holder, err: error }, 'scheduler lease could not be renewed');
    }
    if (stopped) return;
    if (held && !schedule) {
      log.info(
        { scheduler: holder, lease_ms: options.leaseMs },
        'scheduler lease acquired: this process runs the ingest schedule',
      );
      schedule = startIngestSchedule({
        intervalMs: options.intervalMs,
        firstRunDelayMs: options.firstRunDelayMs,
        run: leasedRun,
        // A run's report and failure are logged inside leasedRun, with the run's id; what is left
        // here failed outside a run (no run row, or the row could not be written).
        onReport: () => undefined,
        onError: (error) => {
          if (error !== loggedFailure) log.error({ scheduler: holder, err: error }, 'ingest run failed');
        },
      });
    } else if (!held && schedule) {
      // Another process holds the lease now (this one could not renew in time): stop at once.
      log.warn({ scheduler: holder }, 'scheduler lease lost: the ingest schedule stops here');
      const lost = schedule;
      schedule = undefined;
      await lost.stop();
    }
  };

  const tick = () => {
    renewing = step().finally(() => {
      if (!stopped) timer = setTimeout(tick, Math.max(250, Math.floor(options.leaseMs / 3)));
    });
  };
  tick();
  log.info({ scheduler: holder }, 'scheduler waiting for the lease');

  return {
    holder,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await renewing;
      await schedule?.stop();
      schedule = undefined;
      // Released on a clean stop, so a standby takes over at its next look, not after expiry.
      await releaseLease(db, LEASE, holder).catch((error: unknown) =>
        log.error({ scheduler: holder, err: error }, 'scheduler lease could not be released'),
      );
    },
  };
}
