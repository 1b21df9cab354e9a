// `dcledger serve` and `dcledger migrate`.
import { type Logger, pino } from 'pino';
import type { RedisRateLimitStore } from '../accounts/redis-rate-limit.js';
import { buildApp } from '../app.js';
import { ConfigError } from '../config/read.js';
import { type Config, loadConfig } from '../config.js';
import { withIngestOcr } from '../ingest/pipeline/ocr-stage.js';
import { rereadLine, summaryLine } from '../ingest/pipeline/report.js';
import { loggedProgress } from '../ingest/pipeline/run-log.js';
import { startLeasedSchedule } from '../ingest/pipeline/scheduler-lease.js';
import { ingestSources } from '../ingest/pipeline/setup.js';
import { loggerOptions, redactingStream } from '../logging.js';
import { providersFromConfig } from '../market/price-chain.js';
import { startPriceSchedule } from '../market/price-schedule.js';
import { AnalyticsPool } from '../services/analytics-pool.js';
import { providerFromConfig as assistantProviderFromConfig } from '../services/assistant/providers.js';
import { defaultReadinessChecks, type ReadinessCheck, redisCheck } from '../services/readiness.js';
import { openStore, type Store } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { openMigratedStore } from '../storage/open.js';
import { startWalCheckpoints } from '../storage/wal-checkpoints.js';
import { createWebhookRuntime } from '../webhooks/runtime.js';
import { CommandError, printLine } from './output.js';
import { semanticSearchFromConfig } from './search.js';
import { searchProgressLog, warmUpSearch } from './search-warm-up.js';
import { printWelcome, selfServiceFromConfig } from './self-service.js';
import { onShutdownSignal } from './shutdown.js';
import { startWorkerRole, withWebhookKey } from './worker.js';

/** What one `serve` process does (`--role`): everything, or one part of a multi-process deployment. */
export const SERVE_ROLES = ['all', 'api', 'worker', 'scheduler'] as const;
export type ServeRole = (typeof SERVE_ROLES)[number];

export function parseRole(raw: string | undefined): ServeRole {
  const role = (raw ?? 'all').trim().toLowerCase();
  const known = SERVE_ROLES.find((name) => name === role);
  if (!known) throw new ConfigError(`--role must be one of ${SERVE_ROLES.join(', ')}, got "${raw}"`);
  return known;
}

interface Part {
  stop(): Promise<void>;
}

export async function serveCommand(
  options: { worker?: boolean; ingest?: boolean; role?: string } = {},
): Promise<void> {
  const role = parseRole(options.role);
  const settings = loadConfig();
  const store = await openMigratedStore(settings.database);
  const log = pino({ level: settings.logLevel }, redactingStream(process.stdout)).child({ role });
  const parts: Part[] = [];
  // Listening before anything starts: a signal while the process is still starting (the API
  // already answers while the welcome text is written) waits for the start to finish, then stops
  // what started, instead of the signal's default of ending the process on the spot.
  let startup: Promise<boolean> = Promise.resolve(true);
  onShutdownSignal(log, settings.operations.shutdownTimeoutMs, async () => {
    // All parts stop together: HTTP drains (new requests on open connections get 503) while the
    // worker finishes its in-flight deliveries and records them (releasing their leases) and the
    // schedule finishes or aborts its run and gives back the scheduler lease.
    const started = await startup.catch(() => false);
    // A start that failed ends the command with its error: a listen refusal stopped what had
    // started, and the steps before the parts start (the webhook key) leave nothing running.
    if (!started) return;
    await Promise.all(parts.splice(0).map((part) => part.stop()));
    await store.close();
  });
  startup = startParts(role, options, settings, store, log, parts).then(() => true);
  await startup;
  log.info({ database: store.target, dialect: store.dialect }, `dcledger ${role} role running`);
}

async function startParts(
  role: ServeRole,
  options: { worker?: boolean; ingest?: boolean },
  settings: Config,
  store: Store,
  log: Logger,
  parts: Part[],
): Promise<void> {
  // The API seals the secrets of new subscriptions, the worker opens them: both need the key.
  const config = role === 'scheduler' ? settings : await withWebhookKey(store, settings, log);
  // SQLite: the write-ahead log is checkpointed from a worker thread, not inside request commits.
  const checkpoints = await startWalCheckpoints(store);
  if (checkpoints) parts.push(checkpoints);
  // Started last, stopped first: the API stops taking calls before the work behind it stops.
  let ingesting = false;
  if (role === 'scheduler' || (role === 'all' && options.ingest !== false)) {
    const ingest = startIngest(config, store, log.child({ component: 'scheduler' }));
    if (ingest) parts.push(ingest);
    ingesting = ingest !== undefined;
  }
  if (role === 'scheduler' || role === 'all') {
    const prices = startPrices(config, store, log.child({ component: 'prices' }));
    if (prices) parts.push(prices);
  }
  // `all` runs the delivery worker unless `--no-worker` or DCLEDGER_WEBHOOK_WORKER=off.
  if (role === 'worker' || role === 'all')
    parts.push(
      ...startWorkerRole(store, config, log, {
        webhooks: role === 'worker' || (options.worker !== false && config.webhooks.workerInServe),
      }),
    );
  if (role === 'api' || role === 'all') {
    try {
      parts.push(await startApi(config, store, role === 'all', log, ingesting));
    } catch (error) {
      // Nothing keeps running when the API cannot listen: what started before it stops first.
      await Promise.all(parts.splice(0).map((part) => part.stop()));
      await store.close();
      throw listenRefusal(error, config);
    }
  }
}

/**
 * The HTTP API, with the shared rate-limit store when DCLEDGER_REDIS_URL is set; once it listens,
 * the semantic-search index is prepared in the background (search-warm-up.ts).
 */
/** `ingesting`: this process runs the ingest schedule (the welcome text says so only then). */
async function startApi(
  config: Config,
  store: Store,
  welcome: boolean,
  log: Logger,
  ingesting: boolean,
): Promise<Part> {
  const searchLog = log.child({ component: 'search' });
  const semanticSearch = semanticSearchFromConfig(store.db, config.embeddings, searchProgressLog(searchLog));
  const webhooks = createWebhookRuntime(config.webhooks);
  const rateLimits = await sharedRateLimits(config);
  const selfService = selfServiceFromConfig(config, store.db, welcome);
  const analytics = analyticsPool(config);
  const app = await buildApp(
    {
      db: store.db,
      dialect: store.dialect,
      clock: () => new Date(),
      publicUrl: config.publicUrl,
      webhooks,
      assistantProvider: assistantProviderFromConfig(config.assistant),
      selfService,
      corsOrigins: config.corsOrigins,
      rateLimits,
      trustProxy: config.trustProxy,
      readiness: readinessChecks(config, store),
      metricsToken: config.operations.metricsToken,
      semanticSearch,
      analytics,
      documentArchiveDir: config.ingest.archiveDir,
    },
    { logger: loggerOptions(config.logLevel) },
  );
  if (rateLimits)
    rateLimits.onOutage = (down, error) => {
      if (down)
        app.log.error(
          { err: error, on_error: config.cluster.redisOnError },
          config.cluster.redisOnError === 'memory'
            ? 'Redis unreachable: rate limits are counted per process until it is back'
            : 'Redis unreachable: metered calls answer 503 until it is back',
        );
      else app.log.info({}, 'Redis reachable again: rate limits are shared');
    };
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    semanticSearch.stop();
    await app.close();
    await webhooks.sender.close();
    await rateLimits?.close();
    throw error;
  }
  app.log.info(
    { database: store.target, dialect: store.dialect, shared_rate_limits: rateLimits !== undefined },
    'dcledger serving',
  );
  // In the background: /readyz and the first calls do not wait for it; a failure is only logged.
  const warmUp = warmUpSearch(semanticSearch, searchLog, undefined, {
    database: config.database,
    embeddings: config.embeddings,
  });
  if (welcome) await printWelcome(store.db, config, address, ingesting, selfService.devMailboxToken);
  return {
    stop: async () => {
      // The warm-up ends at its next step (it never rejects), before the database closes.
      semanticSearch.stop();
      await app.close();
      await warmUp;
      await webhooks.sender.close();
      await rateLimits?.close();
      // After app.close(): no call is waiting on a thread any more.
      await analytics?.close();
    },
  };
}

/** A port in use or not allowed is one line naming it and the setting (not a stack trace). */
function listenRefusal(error: unknown, config: Config): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE')
    return new CommandError(
      `cannot listen on ${where}: the port is already in use (another server runs there); stop it or set PORT to a free port`,
    );
  if (code === 'EACCES')
    return new CommandError(`cannot listen on ${where}: permission denied; set PORT to a port above 1023`);
  if (code === 'EADDRNOTAVAIL')
    return new CommandError(`cannot listen on ${where}: no such address on this machine; check HOST`);
  return error;
}

/**
 * The heavy analytics routes' worker threads (DCLEDGER_ANALYTICS_THREADS; 0: none, they run in the
 * request's thread). One key may hold half the threads; up to 16 calls per thread wait for one.
 */
function analyticsPool(config: Config): AnalyticsPool | undefined {
  const threads = config.operations.analyticsThreads;
  // An in-memory SQLite database has nothing a thread could open beside this connection.
  if (threads === 0 || (config.database.kind === 'sqlite' && config.database.file === ':memory:'))
    return undefined;
  return new AnalyticsPool({
    database: config.database,
    threads,
    perKey: Math.max(1, Math.ceil(threads / 2)),
    queue: threads * 16,
  });
}

/** GET /readyz checks the database and its migrations, and Redis when DCLEDGER_REDIS_URL is set. */
function readinessChecks(config: Config, store: Store): ReadinessCheck[] {
  const checks = defaultReadinessChecks(store.db);
  if (config.cluster.redisUrl) checks.push(redisCheck(config.cluster.redisUrl));
  return checks;
}

/** Redis's client is loaded only where it is used: a single process without it is spared its memory. */
async function sharedRateLimits(config: Config): Promise<RedisRateLimitStore | undefined> {
  const url = config.cluster.redisUrl;
  if (url === undefined) return undefined;
  const { RedisRateLimitStore: Store } = await import('../accounts/redis-rate-limit.js');
  return new Store({ url, onError: config.cluster.redisOnError });
}

/**
 * The official sources, then an enrichment job queued, every DCLEDGER_INGEST_INTERVAL_MINUTES (0 turns it off, as does
 * `serve --no-ingest`), by whichever scheduler process holds the scheduler lease. PDFs are read in
 * a worker thread, so the API's globals stay pdf.js-free.
 */
function startIngest(config: Config, store: Store, log: Logger): Part | undefined {
  const minutes = config.ingest.intervalMinutes;
  if (minutes <= 0) return undefined;
  log.info({ minutes, sources: config.ingest.sources }, 'ingest schedule started');
  return startLeasedSchedule({
    db: store.db,
    leaseMs: config.cluster.schedulerLeaseMs,
    intervalMs: minutes * 60_000,
    log,
    // Each run logs through its own child logger (`run`: its scheduler_runs id) on every line. The
    // run ends by queueing an enrichment job, which a worker (`--role worker` or `all`) runs.
    // Scans are read by OCR in a worker thread, never on the API's event loop; the thread (and the
    // engine's memory) lives for the run.
    run: (signal, runLog, runId) =>
      withIngestOcr(store.db, config.ingest.ocr, (ocr) =>
        ingestSources(store.db, config.ingest, {
          sources: config.ingest.sources,
          progress: loggedProgress(runLog),
          signal,
          requestedBy: 'scheduled ingest',
          runId,
          ocr,
          // Each site is paced on its own: a first fill of every source takes the longest one's time.
          concurrent: true,
        }),
      ),
    onReport: (report, runLog) => {
      for (const source of report.sources)
        runLog.info({ ingest: source.connector, status: source.status }, summaryLine(source));
      if (report.reread) runLog.info({ reread: report.reread }, rereadLine(report.reread));
    },
  });
}

/**
 * The daily price job (market/price-schedule.ts) at DCLEDGER_PRICE_REFRESH_AT, when a price
 * provider is configured; one process at a time runs it, under its own lease.
 */
function startPrices(config: Config, store: Store, log: Logger): Part | undefined {
  const providers = providersFromConfig(config.priceProvider);
  const at = config.priceProvider.refreshAt;
  if (providers.length === 0 || at === null) return undefined;
  return startPriceSchedule({
    db: store.db,
    providers,
    at,
    leaseMs: config.cluster.schedulerLeaseMs,
    refetchDays: config.priceProvider.refetchDays,
    log,
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
