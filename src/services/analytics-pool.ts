// The heavy analytics off the API's event loop: a pool of worker threads (tinypool) that each
// hold a read-only handle on the database, a bounded queue, and a per-key limit so that one key's
// calls cannot take every thread. A call past the key's limit waits in the key's own line (up to
// PER_KEY_WAITING times the limit, then 429); a call when the pool's queue is full answers 503.
import Tinypool from 'tinypool';
import type { DatabaseConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { threadModule } from '../threads.js';
import {
  type AnalyticsRunner,
  type AnalyticsTaskArgs,
  type AnalyticsTaskName,
  type AnalyticsTaskResult,
  resultOf,
  type TaskOutcome,
} from './analytics-tasks.js';

export interface AnalyticsPoolOptions {
  database: DatabaseConfig;
  /** Worker threads (each a V8 isolate with its own database handle). */
  threads: number;
  /** Calls of one key running in the pool at once; the rest wait in the key's line. */
  perKey: number;
  /** Calls waiting for a thread, all keys together; past it a call answers 503. */
  queue: number;
  /** A thread idle this long exits (its memory is given back); the next call starts one. */
  idleMs?: number;
}

/** How many calls a key may have waiting, as a multiple of its running limit. */
const PER_KEY_WAITING = 8;

export class AnalyticsPool implements AnalyticsRunner {
  private readonly pool: Tinypool;
  private readonly lines = new Map<string, { running: number; waiting: (() => void)[] }>();
  private tasksRun = 0;

  constructor(private readonly options: AnalyticsPoolOptions) {
    this.pool = new Tinypool({
      filename: threadModule(import.meta.url, 'analytics-thread', ['answer']),
      name: 'answer',
      minThreads: 0,
      maxThreads: Math.max(1, options.threads),
      idleTimeout: options.idleMs ?? 60_000,
      maxQueue: Math.max(1, options.queue),
      workerData: { database: options.database },
    });
  }

  /** Tasks answered by the threads so far (what tests read to see the work left this thread). */
  get completed(): number {
    return this.tasksRun;
  }

  async run<N extends AnalyticsTaskName>(
    name: N,
    args: AnalyticsTaskArgs<N>,
    key: string | null,
  ): Promise<AnalyticsTaskResult<N>> {
    const line = key ?? '';
    await this.enter(line);
    try {
      if (this.pool.queueSize >= this.options.queue)
        throw new ApiError(
          'unavailable',
          'The analytics workers are busy; retry in a moment',
          {},
          { 'retry-after': '1' },
        );
      const outcome = (await this.pool.run({ name, args })) as TaskOutcome;
      this.tasksRun += 1;
      return resultOf(outcome) as AnalyticsTaskResult<N>;
    } finally {
      this.leave(line);
    }
  }

  private async enter(key: string): Promise<void> {
    const line = this.lines.get(key) ?? { running: 0, waiting: [] };
    this.lines.set(key, line);
    if (line.running < this.options.perKey) {
      line.running += 1;
      return;
    }
    if (line.waiting.length >= this.options.perKey * PER_KEY_WAITING)
      throw new ApiError(
        'rate_limited',
        `This key has ${line.running + line.waiting.length} analytics calls in flight; retry when they are answered`,
        {},
        { 'retry-after': '1' },
      );
    // The slot is handed over by leave(): running stays counted for the call that takes it.
    await new Promise<void>((resolve) => line.waiting.push(resolve));
  }

  private leave(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    const next = line.waiting.shift();
    if (next) {
      next();
      return;
    }
    line.running -= 1;
    if (line.running === 0) this.lines.delete(key);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
