// When the daily price job runs: once a day at DCLEDGER_PRICE_REFRESH_AT (UTC), in the scheduler
// role. A process that was down at that time runs it when it starts; a run in which every provider
// failed is tried again an hour later, up to three times a day. One run at a time across every
// process, `dcledger prices refresh` included: a run holds the `price-refresh` lease (renewed
// every third of its time; a holder that cannot renew aborts its run).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { abandonPriceRuns, type PriceRunRow, priceRunsSince } from '../storage/repositories/price-refresh.js';
import { acquireLease, releaseLease } from '../storage/repositories/role-leases.js';
import type { Database } from '../storage/schema.js';
import { type PriceRefreshOptions, type PriceRunResult, runPriceRefresh } from './price-refresh.js';
import type { PriceProvider } from './provider.js';

export const PRICE_LEASE = 'price-refresh';
/** How long after a run in which every provider failed the next try comes. */
export const RETRY_AFTER_MS = 60 * 60 * 1000;
/** Runs in which every provider failed, per day, before the job waits for the next day. */
export const MAX_FAILED_RUNS_PER_DAY = 3;

export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** The latest `at` (UTC) at or before `now`. */
export function lastSlot(now: Date, at: TimeOfDay): Date {
  const slot = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), at.hour, at.minute),
  );
  if (slot.getTime() > now.getTime()) slot.setUTCDate(slot.getUTCDate() - 1);
  return slot;
}

/** The first `at` (UTC) after `now`. */
export function nextSlot(now: Date, at: TimeOfDay): Date {
  const slot = lastSlot(now, at);
  slot.setUTCDate(slot.getUTCDate() + 1);
  return slot;
}

/**
 * Whether a run is due, given the runs started since the latest slot (newest first): none that
 * fetched (completed or partial), and either no run yet or fewer than three in which every
 * provider failed, the last an hour ago or more.
 */
export function priceRunDue(
  runsSinceSlot: readonly Pick<PriceRunRow, 'status' | 'started_at'>[],
  now: Date,
): boolean {
  if (runsSinceSlot.some((run) => run.status === 'completed' || run.status === 'partial')) return false;
  const failed = runsSinceSlot.filter((run) => run.status === 'failed');
  if (failed.length === 0) return true;
  if (failed.length >= MAX_FAILED_RUNS_PER_DAY) return false;
  const latest = failed.reduce((a, b) => (a.started_at > b.started_at ? a : b));
  return now.getTime() - Date.parse(latest.started_at) >= RETRY_AFTER_MS;
}

export class PriceJobBusyError extends Error {}

/**
 * One run under the lease: takes it (or fails with PriceJobBusyError naming the holder), marks a
 * dead holder's unfinished run aborted, runs, and gives the lease back.
 */
export async function runLeasedPriceRefresh(
  db: Kysely<Database>,
  providers: readonly PriceProvider[],
  options: PriceRefreshOptions & { requestedBy: string; holder: string; leaseMs: number; clock?: () => Date },
): Promise<PriceRunResult> {
  const clock = options.clock ?? (() => new Date());
  const claim = () => {
    const now = clock();
    return {
      name: PRICE_LEASE,
      holder: options.holder,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + options.leaseMs).toISOString(),
    };
  };
  if (!(await acquireLease(db, claim())))
    throw new PriceJobBusyError('another process is running the price job');
  const controller = new AbortController();
  const abortWith = options.signal;
  const onOuterAbort = () => controller.abort(abortWith?.reason);
  abortWith?.addEventListener('abort', onOuterAbort, { once: true });
  const renewal = setInterval(
    () => {
      acquireLease(db, claim()).then(
        (held) => {
          if (!held) controller.abort(new Error('the price job lease was lost'));
        },
        (error: unknown) => controller.abort(error),
      );
    },
    Math.max(250, Math.floor(options.leaseMs / 3)),
  );
  renewal.unref();
  try {
    await abandonPriceRuns(db, clock().toISOString());
    return await runPriceRefresh(db, providers, { ...options, signal: controller.signal });
  } finally {
    clearInterval(renewal);
    abortWith?.removeEventListener('abort', onOuterAbort);
    await releaseLease(db, PRICE_LEASE, options.holder);
  }
}

export interface PriceScheduleLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface PriceScheduleOptions {
  db: Kysely<Database>;
  providers: readonly PriceProvider[];
  at: TimeOfDay;
  leaseMs: number;
  refetchDays: number;
  log: PriceScheduleLogger;
  clock?: () => Date;
  /** The first look at whether a run is due, after start (default 30 s: the API comes up first). */
  firstLookMs?: number;
}

export interface PriceSchedule {
  holder: string;
  stop(): Promise<void>;
}

export function startPriceSchedule(options: PriceScheduleOptions): PriceSchedule {
  const { db, log } = options;
  const clock = options.clock ?? (() => new Date());
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let controller: AbortController | undefined;
  let stopped = false;

  const wakeIn = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(look, Math.max(0, ms));
    timer.unref();
  };

  const runIfDue = async () => {
    const now = clock();
    const runs = await priceRunsSince(db, lastSlot(now, options.at).toISOString());
    if (!priceRunDue(runs, now)) return;
    controller = new AbortController();
    log.info({ price_job: holder }, 'price refresh started');
    try {
      const { runId, report } = await runLeasedPriceRefresh(db, options.providers, {
        now,
        refetchDays: options.refetchDays,
        requestedBy: 'schedule',
        holder,
        leaseMs: options.leaseMs,
        clock,
        signal: controller.signal,
      });
      const fields = {
        price_run: runId,
        status: report.status,
        asked: report.asked,
        updated: report.updated,
        failed: report.failed.length,
        newest_close: report.newestClose,
      };
      if (report.status === 'failed')
        log.error(fields, 'price refresh: every provider failed; the cached closes are served');
      else log.info(fields, 'price refresh finished; enrichment job queued');
    } catch (error) {
      if (error instanceof PriceJobBusyError)
        log.info({ price_job: holder }, 'price refresh runs in another process');
      else log.error({ price_job: holder, err: error }, 'price refresh failed');
    }
  };

  const look = () => {
    running = runIfDue()
      .catch((error: unknown) => log.error({ price_job: holder, err: error }, 'price schedule failed'))
      .finally(() => {
        running = undefined;
        const now = clock();
        // An hour at most, so that a retry after a failed run, or a slot after the clock moved, is not missed.
        wakeIn(Math.min(nextSlot(now, options.at).getTime() - now.getTime(), RETRY_AFTER_MS));
      });
  };

  log.info(
    {
      price_job: holder,
      at: `${pad(options.at.hour)}:${pad(options.at.minute)} UTC`,
      providers: options.providers.map((p) => p.name),
    },
    'price schedule started',
  );
  wakeIn(options.firstLookMs ?? 30_000);
  return {
    holder,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort(new Error('shutting down'));
      await running;
    },
  };
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
