// `dcledger worker`: the webhook delivery worker on its own (`serve` runs one too unless told not to).
import { pino } from 'pino';
import { EnrichmentWorker, type EnrichmentWorkerOptions } from '../analytics/enrichment-worker.js';
import { type Config, loadConfig, type WebhookSettings } from '../config.js';
import { redactingStream } from '../logging.js';
import { providerFromConfig } from '../market/provider.js';
import type { Store } from '../storage/database.js';
import { openMigratedStore } from '../storage/open.js';
import { createWebhookRuntime } from '../webhooks/runtime.js';
import { DeliveryWorker, type WorkerLogger } from '../webhooks/worker.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

/** Starts a worker over `store` with the configured settings; stop() finishes in-flight deliveries. */
export function startWorker(store: Store, settings: WebhookSettings, log: WorkerLogger): RunningWorker {
  const runtime = createWebhookRuntime(settings, { connections: settings.concurrency });
  const worker = new DeliveryWorker({
    db: store.db,
    runtime,
    clock: () => new Date(),
    log,
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    pollMs: settings.pollMs,
  });
  worker.start();
  return {
    stop: async () => {
      await worker.stop();
      await runtime.sender.close();
    },
  };
}

/** The enrichment job runner with the configured lease, polling, retries and price provider. */
export function enrichmentWorkerFor(
  store: Store,
  config: Config,
  log: EnrichmentWorkerOptions['log'],
  progress?: EnrichmentWorkerOptions['progress'],
): EnrichmentWorker {
  const jobs = config.cluster.enrichmentJobs;
  return new EnrichmentWorker({
    db: store.db,
    clock: () => new Date(),
    log,
    leaseMs: jobs.leaseMs,
    pollMs: jobs.pollMs,
    maxAttempts: jobs.maxAttempts,
    retryBaseMs: jobs.retryBaseMs,
    enrichOptions: {
      provider: providerFromConfig(config.priceProvider),
      refetchDays: config.priceProvider.refetchDays,
    },
    progress,
  });
}

/** Runs queued enrichment jobs in the background; stop() lets a running job finish and records it. */
export function startEnrichmentWorker(
  store: Store,
  config: Config,
  log: EnrichmentWorkerOptions['log'],
): RunningWorker {
  const worker = enrichmentWorkerFor(store, config, log);
  worker.start();
  return { stop: () => worker.stop() };
}

export async function workerCommand(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel }, redactingStream(process.stdout));
  const store = await openMigratedStore(config.database);
  const worker = startWorker(store, config.webhooks, log.child({ component: 'webhooks' }));
  log.info({ database: store.target, dialect: store.dialect }, 'dcledger webhook worker running');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  log.info({ signal }, 'shutting down');
  await worker.stop();
  await store.close();
}
