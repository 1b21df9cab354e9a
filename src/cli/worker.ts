// `dcledger worker`: the webhook delivery worker on its own (`serve` runs one too unless told not to).
import { pino } from 'pino';
import { loadConfig, type WebhookSettings } from '../config.js';
import { redactingStream } from '../logging.js';
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
