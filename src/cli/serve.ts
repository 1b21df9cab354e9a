// `dcledger serve` and `dcledger migrate`.
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { openMigratedStore } from '../storage/open.js';
import { createWebhookRuntime } from '../webhooks/runtime.js';
import { printLine } from './output.js';
import { type RunningWorker, startWorker } from './worker.js';

export async function serveCommand(options: { worker?: boolean } = {}): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const webhooks = createWebhookRuntime(config.webhooks);
  const app = await buildApp(
    { db: store.db, dialect: store.dialect, clock: () => new Date(), publicUrl: config.publicUrl, webhooks },
    { logger: { level: config.logLevel } },
  );
  // The delivery worker runs beside the API unless `--no-worker` or DCLEDGER_WEBHOOK_WORKER=off
  // (e.g. when `dcledger worker` runs as its own process).
  const worker: RunningWorker | undefined =
    options.worker !== false && config.webhooks.workerInServe
      ? startWorker(store, config.webhooks, app.log.child({ component: 'webhooks' }))
      : undefined;
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await worker?.stop();
    await app.close();
    await webhooks.sender.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: store.target, dialect: store.dialect }, 'dcledger serving');
}

export async function migrateCommand(): Promise<void> {
  const store = openStore(loadConfig().database);
  try {
    const { applied } = await migrateToLatest(store.db);
    printLine(
      applied.length ? `applied ${applied.join(', ')} on ${store.target}` : `${store.target} is up to date`,
    );
  } finally {
    await store.close();
  }
}
