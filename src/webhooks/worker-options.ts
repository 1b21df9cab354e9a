// What a delivery worker is given (its database, runtime, clock, logger and limits) and reports.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { WebhookRuntime } from './runtime.js';

/** The logging the worker needs (pino's and Fastify's loggers fit). */
export interface WorkerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  /** A logger whose lines also carry `bindings` (pino's child); without it they go in each line. */
  child?(bindings: object): WorkerLogger;
}

export interface WorkerOptions {
  db: Kysely<Database>;
  runtime: WebhookRuntime;
  clock: () => Date;
  log: WorkerLogger;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** How long a claimed delivery stays this worker's without renewal (renewed every third of it). */
  leaseMs: number;
  /** Idle wait between looks at the outbox. */
  pollMs: number;
  /** Events fanned out per step (default 500). */
  fanoutBatch?: number;
  /** Uniform [0, 1) source for retry jitter (tests make it fixed). */
  random?: () => number;
  /** Deliveries of one subscription in flight at once (default: a quarter of `concurrency`, at least 1). */
  perSubscription?: number;
  /** Deliveries to one receiver host and port in flight at once (default: half of `concurrency`). */
  perHost?: number;
}

/**
 * The caps a worker applies when none are given: one subscription keeps three quarters of the slots
 * free for the others, one receiver host half of them, and a lone busy subscriber still has a
 * quarter of the worker's throughput.
 */
export function defaultFairnessCaps(concurrency: number): { perSubscription: number; perHost: number } {
  const perSubscription = Math.max(1, Math.floor(concurrency / 4));
  return { perSubscription, perHost: Math.max(perSubscription, Math.floor(concurrency / 2)) };
}

export interface WorkReport {
  fannedOut: number;
  delivered: number;
  failed: number;
}
