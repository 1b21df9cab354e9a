// `dcledger serve` and `dcledger migrate`.
import type { FastifyBaseLogger } from 'fastify';
import { enrich } from '../analytics/enrich.js';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { summaryLine } from '../ingest/pipeline/report.js';
import { type IngestSchedule, startIngestSchedule } from '../ingest/pipeline/scheduler.js';
import { buildConnectors, ingestOnce } from '../ingest/pipeline/setup.js';
import { loggerOptions } from '../logging.js';
import { providerFromConfig } from '../market/provider.js';
import { providerFromConfig as assistantProviderFromConfig } from '../services/assistant/providers.js';
import { openStore, type Store } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { openMigratedStore } from '../storage/open.js';
import { createWebhookRuntime } from '../webhooks/runtime.js';
import { printLine } from './output.js';
import { semanticSearchFromConfig } from './search.js';
import { printWelcome, selfServiceFromConfig } from './self-service.js';
import { type RunningWorker, startWorker } from './worker.js';

export async function serveCommand(options: { worker?: boolean; ingest?: boolean } = {}): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const webhooks = createWebhookRuntime(config.webhooks);
  const app = await buildApp(
    {
      db: store.db,
      dialect: store.dialect,
      clock: () => new Date(),
      publicUrl: config.publicUrl,
      webhooks,
      assistantProvider: assistantProviderFromConfig(config.assistant),
      selfService: selfServiceFromConfig(config, store.db),
      corsOrigins: config.corsOrigins,
      semanticSearch: semanticSearchFromConfig(store.db, config.embeddings),
    },
    { logger: loggerOptions(config.logLevel) },
  );
  // The delivery worker runs beside the API unless `--no-worker` or DCLEDGER_WEBHOOK_WORKER=off
  // (e.g. when `dcledger worker` runs as its own process).
  const worker: RunningWorker | undefined =
    options.worker !== false && config.webhooks.workerInServe
      ? startWorker(store, config.webhooks, app.log.child({ component: 'webhooks' }))
      : undefined;
  const ingest = options.ingest === false ? undefined : startIngest(config, store, app.log);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await ingest?.stop();
    await worker?.stop();
    await app.close();
    await webhooks.sender.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: store.target, dialect: store.dialect }, 'dcledger serving');
  await printWelcome(store.db, config, address, ingest !== undefined);
}

/**
 * The official sources, then an incremental enrichment, every DCLEDGER_INGEST_INTERVAL_MINUTES (0 turns it off, as does
 * `serve --no-ingest`). PDFs are read in a worker thread, so the API's globals stay pdf.js-free.
 */
function startIngest(config: Config, store: Store, log: FastifyBaseLogger): IngestSchedule | undefined {
  const minutes = config.ingest.intervalMinutes;
  if (minutes <= 0) return undefined;
  log.info({ minutes, sources: config.ingest.sources }, 'ingest schedule started');
  return startIngestSchedule({
    intervalMs: minutes * 60_000,
    run: async (signal) => {
      const report = await ingestOnce(store.db, config.ingest, {
        connectors: buildConnectors(config.ingest.sources, config.ingest),
        signal,
      });
      // New trades get their market fields, and windows that closed since the last run fill in.
      const enriched = await enrich(store.db, {
        provider: providerFromConfig(config.priceProvider),
        refetchDays: config.priceProvider.refetchDays,
      });
      log.info({ enrich: enriched.mode, seconds: enriched.seconds }, 'enrichment after ingest');
      return report;
    },
    onReport: (report) => {
      for (const source of report.sources)
        log.info({ ingest: source.connector, status: source.status }, summaryLine(source));
    },
    onError: (error) => log.error({ err: error }, 'ingest run failed'),
  });
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
