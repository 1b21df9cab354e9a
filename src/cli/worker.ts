// `dcledger worker`: the worker role on its own, webhook deliveries and enrichment jobs, exactly as
// `serve --role worker` runs it (startWorkerRole, the one place).
import { type Logger, pino } from 'pino';
import { enrich } from '../analytics/enrich.js';
import { EnrichmentWorker, type EnrichmentWorkerOptions } from '../analytics/enrichment-worker.js';
import type { WebhookSettings } from '../config/webhooks.js';
import { type Config, loadConfig } from '../config.js';
import { redactingStream } from '../logging.js';
import { providersFromConfig } from '../market/price-chain.js';
import { rebuildBulkHistory } from '../resources/bulk-trades.js';
import type { Store } from '../storage/database.js';
import { openMigratedStore } from '../storage/open.js';
import { createWebhookRuntime } from '../webhooks/runtime.js';
import { defaultKeyFile, prepareWebhookKey } from '../webhooks/secret-key.js';
import { DeliveryWorker } from '../webhooks/worker.js';
import type { WorkerLogger } from '../webhooks/worker-options.js';
import { onShutdownSignal } from './shutdown.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * The configuration with the webhook secret key resolved (the setting, or the data directory's key
 * file, created on first start) and the secrets still stored in clear sealed with it: what every
 * process that stores or sends webhooks does before it starts.
 */
export async function withWebhookKey(store: Store, config: Config, log: Logger): Promise<Config> {
  const webhooks = await prepareWebhookKey(
    store.db,
    config.webhooks,
    defaultKeyFile(config.database, config.ingest.archiveDir),
    log.child({ component: 'webhooks' }),
  );
  return { ...config, webhooks };
}

/** Starts a worker over `store` with the configured settings; stop() finishes in-flight deliveries. */
function startWorker(store: Store, settings: WebhookSettings, log: WorkerLogger): RunningWorker {
  const runtime = createWebhookRuntime(settings, { connections: settings.concurrency });
  const worker = new DeliveryWorker({
    db: store.db,
    runtime,
    clock: () => new Date(),
    log,
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    pollMs: settings.pollMs,
    perSubscription: settings.perSubscription,
    perHost: settings.perHost,
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
      providers: providersFromConfig(config.priceProvider),
      refetchDays: config.priceProvider.refetchDays,
    },
    progress,
    // GET /bulk/trades carries the market fields: its files are rebuilt once a job has changed them.
    run: async (db, options) => {
      const report = await enrich(db, options);
      await rebuildBulkHistory(db, new Date());
      return report;
    },
  });
}

/** Runs queued enrichment jobs in the background; stop() lets a running job finish and records it. */
function startEnrichmentWorker(
  store: Store,
  config: Config,
  log: EnrichmentWorkerOptions['log'],
): RunningWorker {
  const worker = enrichmentWorkerFor(store, config, log);
  worker.start();
  return { stop: () => worker.stop() };
}

/**
 * The worker role: the webhook delivery worker (unless `webhooks` is false: `serve --no-worker`)
 * and the enrichment job runner, as `serve --role worker|all` and `dcledger worker` run them.
 * Stopping every part finishes in-flight deliveries and puts a running job back in the queue.
 */
export function startWorkerRole(
  store: Store,
  config: Config,
  log: Logger,
  options: { webhooks: boolean },
): RunningWorker[] {
  const parts: RunningWorker[] = [];
  if (options.webhooks) parts.push(startWorker(store, config.webhooks, log.child({ component: 'webhooks' })));
  // The enrichment jobs that ingest runs queue (one runs at a time across all workers).
  parts.push(startEnrichmentWorker(store, config, log.child({ component: 'enrichment' })));
  return parts;
}

export async function workerCommand(): Promise<void> {
  const settings = loadConfig();
  const log = pino({ level: settings.logLevel }, redactingStream(process.stdout)).child({ role: 'worker' });
  const store = await openMigratedStore(settings.database);
  const config = await withWebhookKey(store, settings, log);
  const parts = startWorkerRole(store, config, log, { webhooks: true });
  log.info({ database: store.target, dialect: store.dialect }, 'dcledger worker running');
  onShutdownSignal(log, config.operations.shutdownTimeoutMs, async () => {
    await Promise.all(parts.map((part) => part.stop()));
    await store.close();
  });
}
