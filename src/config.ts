// Every setting of the service, read once from the environment. Nothing else reads process.env.
// The readers of a few groups live beside it in config/: how a value is read and checked
// (read.ts), webhook delivery (webhooks.ts), the price provider (prices.ts) and the test suite's
// own settings (test-settings.ts).
import { isIP } from 'node:net';
import { type PriceProviderConfig, readPriceProvider } from './config/prices.js';
import {
  ConfigError,
  collectingProblems,
  type Env,
  parseBaseUrl,
  readInteger,
  readPath,
  readSwitch,
  readUrl,
  reject,
} from './config/read.js';
import { readWebhookSettings, type WebhookSettings } from './config/webhooks.js';
import type { EmbeddingsApiSettings, EmbeddingsProviderName } from './domain/embeddings.js';
import { SOURCE_NAMES, type SourceName } from './domain/sources.js';
import type { SettingSpec } from './ingest/sources/manifest.js';
import { SOURCE_MANIFESTS } from './ingest/sources/registry.js';

/** Active API keys one account may hold unless DCLEDGER_MAX_KEYS_PER_ACCOUNT says otherwise. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 25;

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  /** TCP port of `serve` (PORT, default 8080). */
  port: number;
  /** Interface `serve` binds to (HOST, default 0.0.0.0). */
  host: string;
  /** DATABASE_URL (postgres://...) wins over DCLEDGER_DB (SQLite file, default ./var/dcledger.db). */
  database: DatabaseConfig;
  /** pino level (LOG_LEVEL, default info). */
  logLevel: string;
  /** Public address of this service, published by /v1/tools and /openapi.json (DCLEDGER_PUBLIC_URL). */
  publicUrl: string | undefined;
  /**
   * DCLEDGER_CORS_ORIGINS: comma-separated browser origins (https://app.example.org) allowed to
   * call the API; empty by default, which leaves CORS off (no Access-Control-* headers at all).
   */
  corsOrigins: string[];
  /**
   * DCLEDGER_TRUST_PROXY: which peers may set X-Forwarded-For (the client address behind a reverse
   * proxy or load balancer, used by the per-IP throttles): a comma-separated list of addresses or
   * CIDR ranges, or a number of proxy hops. Unset: nobody; the socket's peer is the client.
   */
  trustProxy: TrustProxy;
  /** The HTTP price provider `enrich` asks for tickers without prices; off without a base URL. */
  priceProvider: PriceProviderConfig;
  /** Webhook delivery: SSRF exemptions, secret encryption, timeouts, the worker. */
  webhooks: WebhookSettings;
  ingest: IngestConfig;
  /** The assistant at /chad/chat: which LLM plans its tool calls (none: the intent router). */
  assistant: AssistantConfig;
  /** DCLEDGER_API_KEY: the key `dcledger mcp` calls the tools with (never printed). */
  apiKey: string | undefined;
  /** Sign-up, mail and payments of the account area. */
  selfService: SelfServiceSettings;
  /** Health, readiness and metrics (docs/operations.md). */
  operations: OperationsSettings;
  /** Several instances: the shared rate-limit store (also checked by /readyz) and the scheduler's lease. */
  cluster: ClusterSettings;
  /** Where /v1/semantic-search's embeddings come from. */
  embeddings: EmbeddingsConfig;
}

export interface OperationsSettings {
  /** DCLEDGER_METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`; unset, it is public. */
  metricsToken: string | undefined;
  /** DCLEDGER_SHUTDOWN_TIMEOUT_MS (default 30000): how long SIGTERM waits for in-flight work before exiting. */
  shutdownTimeoutMs: number;
  /**
   * DCLEDGER_ANALYTICS_THREADS (default 2; 0 = none): worker threads that answer the heavy
   * analytics routes off the API's event loop (docs/architecture.md). 0 runs them in the request's thread.
   */
  analyticsThreads: number;
}

export interface ClusterSettings {
  /**
   * DCLEDGER_REDIS_URL (redis://host:6379/0): per-minute rate limits are counted in Redis, shared
   * by every API instance. Unset: each process counts its own.
   */
  redisUrl: string | undefined;
  /**
   * DCLEDGER_REDIS_ON_ERROR: what a metered call gets while Redis is unreachable. `fail` (default)
   * answers 503 {detail}; `memory` counts in the process until Redis is back (each instance then
   * allows the full per-minute limit).
   */
  redisOnError: 'fail' | 'memory';
  /**
   * DCLEDGER_SCHEDULER_LEASE_MS (default 30000): on PostgreSQL, how long the active scheduler's
   * lease lasts without renewal; another scheduler takes over within this time after it dies.
   */
  schedulerLeaseMs: number;
  /** The enrichment job queue run by `serve --role worker|all` and `dcledger enrich`. */
  enrichmentJobs: EnrichmentJobSettings;
}

export interface EnrichmentJobSettings {
  /**
   * DCLEDGER_ENRICH_LEASE_MS (default 60000): how long a worker owns a claimed enrichment job
   * without renewal (it renews every few seconds); a crashed worker's job is taken over after it.
   */
  leaseMs: number;
  /** DCLEDGER_ENRICH_POLL_MS (default 5000): how often an idle worker looks for a job. */
  pollMs: number;
  /** DCLEDGER_ENRICH_MAX_ATTEMPTS (default 5): attempts before a job fails for good. */
  maxAttempts: number;
  /** DCLEDGER_ENRICH_RETRY_MS (default 30000): first retry delay after a failed attempt, doubled per attempt. */
  retryBaseMs: number;
}

/**
 * DCLEDGER_EMBEDDINGS_PROVIDER: lsa (default: a latent semantic model trained on the indexed
 * corpus, offline), openai (any OpenAI-compatible /embeddings API) or voyage. For an API:
 * DCLEDGER_EMBEDDINGS_BASE_URL (default https://api.openai.com/v1 / https://api.voyageai.com/v1),
 * DCLEDGER_EMBEDDINGS_API_KEY (never printed), DCLEDGER_EMBEDDINGS_MODEL (default
 * text-embedding-3-small / voyage-3.5-lite), DCLEDGER_EMBEDDINGS_DIMENSIONS (default 1536 / 1024),
 * DCLEDGER_EMBEDDINGS_TIMEOUT_MS (default 30000: one request) and DCLEDGER_EMBEDDINGS_BATCH (default
 * 128: texts per request).
 */
export interface EmbeddingsConfig extends EmbeddingsApiSettings {
  provider: EmbeddingsProviderName;
}

export type AssistantProviderName = 'anthropic' | 'openai';

export interface AssistantConfig {
  /**
   * DCLEDGER_ASSISTANT_PROVIDER: anthropic, openai or none. Default: anthropic when
   * ANTHROPIC_API_KEY is set, else openai when OPENAI_API_KEY is set, else none.
   */
  provider: AssistantProviderName | undefined;
  /** ANTHROPIC_API_KEY or OPENAI_API_KEY, whichever the provider needs. */
  apiKey: string | undefined;
  /** DCLEDGER_ASSISTANT_MODEL (default claude-sonnet-4-6 / gpt-4.1-mini). */
  model: string;
  /** DCLEDGER_ASSISTANT_BASE_URL: the provider's API address (an OpenAI-compatible server, a proxy). */
  baseUrl: string | undefined;
  /** DCLEDGER_ASSISTANT_MAX_STEPS (default 6): model turns, each may call tools, before it must answer. */
  maxSteps: number;
  /** DCLEDGER_ASSISTANT_TIMEOUT_MS (default 60000): one provider request. */
  timeoutMs: number;
}

export interface SelfServiceSettings {
  /** DCLEDGER_SMTP_URL (smtp://user:pass@host:587): mail is sent by SMTP; unset, it goes to the mail_outbox table. */
  smtpUrl: string | undefined;
  /** DCLEDGER_MAIL_FROM: the sender of verification and reset mails (default dcledger@localhost). */
  mailFrom: string;
  /** STRIPE_SECRET_KEY turns on Stripe Checkout for top-ups; unset, top-ups are manual intents. */
  stripe: { secretKey: string; webhookSecret: string | undefined; apiBase: string } | undefined;
  /** DCLEDGER_MAX_KEYS_PER_ACCOUNT (default 25, at least 1): active API keys one account may hold. */
  maxKeysPerAccount: number;
}

export type IngestSourceName = SourceName;
/** The sources `dcledger ingest all` and serve's schedule read: the trade-document sources. */
export const INGEST_SOURCES: readonly IngestSourceName[] = SOURCE_NAMES;

/** A source's own settings, as its manifest declares them (ingest/sources/<name>/manifest.ts). */
export type SourceSettings = Readonly<Record<string, string | number | undefined>>;

/** How the connectors reach the official sites and how often `serve` runs them. */
export interface IngestConfig {
  /**
   * Each source's own settings by source name, read from the variables its manifest names
   * (DCLEDGER_HOUSE_BASE_URL, DCLEDGER_OGE_INDEX_PATH, DCLEDGER_SEC_CONTACT, ...; docs/operations.md).
   */
  settings: Readonly<Record<string, SourceSettings>>;
  /** Raw documents by SHA-256 (DCLEDGER_ARCHIVE_DIR, default ./var/archive). */
  archiveDir: string;
  /** Per-request timeout (DCLEDGER_FETCH_TIMEOUT_MS, default 30000). */
  timeoutMs: number;
  /** Retries after a failed request (DCLEDGER_FETCH_RETRIES, default 4). */
  retries: number;
  /** First retry delay, doubled per retry (DCLEDGER_FETCH_BACKOFF_MS, default 2000). */
  backoffMs: number;
  /** Minimum time between two requests to one site (DCLEDGER_FETCH_INTERVAL_MS, default 1000). */
  minIntervalMs: number;
  /** User-Agent of every request (DCLEDGER_USER_AGENT). */
  userAgent: string;
  /**
   * Minutes between the runs `serve` starts (DCLEDGER_INGEST_INTERVAL_MINUTES, default 15; 0 = off;
   * fractions allowed down to 0.25, e.g. for tests against the replay server).
   */
  intervalMinutes: number;
  /** Sources `serve` ingests (DCLEDGER_INGEST_SOURCES, comma list, default house,senate,oge). */
  sources: IngestSourceName[];
  /** First date a source's first run reads (DCLEDGER_INGEST_SINCE, YYYY-MM-DD); default Jan 1 of last year. */
  since: string | undefined;
  /**
   * Largest document a source may serve, in MB: DCLEDGER_<SOURCE>_MAX_DOCUMENT_MB for one source
   * (DCLEDGER_HOUSE_MAX_DOCUMENT_MB ...), else DCLEDGER_MAX_DOCUMENT_MB for all, else the source's
   * own default (docs/adding-a-source.md). A longer answer is refused; `parse` refuses a larger file.
   */
  maxDocumentMb: { all: number | undefined; bySource: Readonly<Record<string, number>> };
  /** Heap of the PDF reader's process (DCLEDGER_PDF_WORKER_MEMORY_MB, default 512). */
  pdfWorkerMemoryMb: number;
  /** Read scans without a text layer by OCR in ingest and serve's schedule (DCLEDGER_OCR, default on). */
  ocr: boolean;
}

export function loadConfig(env: Env = process.env): Config {
  return collectingProblems(() => {
    const config: Config = {
      port: readPort(env.PORT),
      host: env.HOST?.trim() || '0.0.0.0',
      database: readDatabase(env),
      logLevel: readLogLevel(env.LOG_LEVEL),
      publicUrl: readUrl(env, 'DCLEDGER_PUBLIC_URL'),
      corsOrigins: readCorsOrigins(env.DCLEDGER_CORS_ORIGINS),
      trustProxy: readTrustProxy(env.DCLEDGER_TRUST_PROXY),
      priceProvider: readPriceProvider(env),
      webhooks: readWebhookSettings(env),
      ingest: readIngest(env),
      assistant: readAssistant(env),
      apiKey: env.DCLEDGER_API_KEY?.trim() || undefined,
      selfService: readSelfService(env),
      operations: readOperations(env),
      cluster: readCluster(env),
      embeddings: readEmbeddings(env),
    };
    if (config.selfService.smtpUrl !== undefined && config.publicUrl === undefined)
      reject(
        'DCLEDGER_PUBLIC_URL is required when DCLEDGER_SMTP_URL is set: links in the mail sent (sign-up, password reset) point there',
      );
    return config;
  });
}

export function readOperations(env: Env): OperationsSettings {
  return {
    metricsToken: env.DCLEDGER_METRICS_TOKEN?.trim() || undefined,
    shutdownTimeoutMs: readInteger(env, 'DCLEDGER_SHUTDOWN_TIMEOUT_MS', 30_000, 0),
    analyticsThreads: readInteger(env, 'DCLEDGER_ANALYTICS_THREADS', 2, 0),
  };
}

/** Peers trusted to name the client (X-Forwarded-For): none, some addresses or ranges, or a hop count. */
export type TrustProxy = false | number | string[];

export function readTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? '';
  if (text === '') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 10) return hops;
    reject('DCLEDGER_TRUST_PROXY: a hop count is 1 to 10');
    return false;
  }
  const peers = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const peer of peers) {
    const [address = '', prefix, extra] = peer.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined)
      reject(`DCLEDGER_TRUST_PROXY: "${peer}" is not an address or CIDR range like 10.0.0.0/8`);
  }
  return peers;
}

/** Exact origins only (scheme, host, optional port): a wildcard would hand any site the API. */
export function readCorsOrigins(raw: string | undefined): string[] {
  const origins: string[] = [];
  for (const part of (raw ?? '').split(',')) {
    const text = part.trim();
    if (text === '') continue;
    let origin: string | undefined;
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin !== text.replace(/\/$/, '')) {
      reject(`DCLEDGER_CORS_ORIGINS: "${text}" is not an origin like https://app.example.org`);
      continue;
    }
    origins.push(origin);
  }
  return origins;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readLogLevel(raw: string | undefined): string {
  const level = raw?.trim().toLowerCase() || 'info';
  if (LOG_LEVELS.includes(level)) return level;
  reject(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return 'info';
}

const DEFAULT_MODELS: Record<AssistantProviderName, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-4.1-mini',
};

export function readAssistant(env: Env): AssistantConfig {
  const raw = env.DCLEDGER_ASSISTANT_PROVIDER?.trim().toLowerCase() || undefined;
  if (raw !== undefined && raw !== 'anthropic' && raw !== 'openai' && raw !== 'none') {
    throw new ConfigError('DCLEDGER_ASSISTANT_PROVIDER must be anthropic, openai or none');
  }
  const anthropicKey = env.ANTHROPIC_API_KEY?.trim() || undefined;
  const openaiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const provider: AssistantProviderName | undefined =
    raw === 'none' ? undefined : (raw ?? (anthropicKey ? 'anthropic' : openaiKey ? 'openai' : undefined));
  const apiKey = provider === 'anthropic' ? anthropicKey : provider === 'openai' ? openaiKey : undefined;
  if (provider && !apiKey) {
    throw new ConfigError(
      `DCLEDGER_ASSISTANT_PROVIDER=${provider} needs ${provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'}`,
    );
  }
  return {
    provider,
    apiKey,
    model: env.DCLEDGER_ASSISTANT_MODEL?.trim() || (provider ? DEFAULT_MODELS[provider] : ''),
    baseUrl: readUrl(env, 'DCLEDGER_ASSISTANT_BASE_URL'),
    maxSteps: readInteger(env, 'DCLEDGER_ASSISTANT_MAX_STEPS', 6, 1),
    timeoutMs: readInteger(env, 'DCLEDGER_ASSISTANT_TIMEOUT_MS', 60_000, 1),
  };
}

const EMBEDDING_DEFAULTS: Record<
  Exclude<EmbeddingsProviderName, 'lsa'>,
  { baseUrl: string; model: string; dimensions: number }
> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-small', dimensions: 1536 },
  voyage: { baseUrl: 'https://api.voyageai.com/v1', model: 'voyage-3.5-lite', dimensions: 1024 },
};

export function readEmbeddings(env: Env): EmbeddingsConfig {
  const raw = env.DCLEDGER_EMBEDDINGS_PROVIDER?.trim().toLowerCase() || 'lsa';
  let provider: EmbeddingsProviderName = 'lsa';
  if (raw === 'lsa' || raw === 'openai' || raw === 'voyage') provider = raw;
  else reject(`DCLEDGER_EMBEDDINGS_PROVIDER must be lsa, openai or voyage, got "${raw}"`);
  const defaults =
    provider === 'lsa' ? { baseUrl: '', model: '', dimensions: 0 } : EMBEDDING_DEFAULTS[provider];
  const baseUrl = env.DCLEDGER_EMBEDDINGS_BASE_URL?.trim() || defaults.baseUrl;
  if (provider !== 'lsa' && !/^https?:\/\//i.test(baseUrl)) {
    reject('DCLEDGER_EMBEDDINGS_BASE_URL must be an http:// or https:// URL');
  }
  return {
    provider,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: env.DCLEDGER_EMBEDDINGS_API_KEY?.trim() || undefined,
    model: env.DCLEDGER_EMBEDDINGS_MODEL?.trim() || defaults.model,
    dimensions: readInteger(env, 'DCLEDGER_EMBEDDINGS_DIMENSIONS', defaults.dimensions, 0),
    timeoutMs: readInteger(env, 'DCLEDGER_EMBEDDINGS_TIMEOUT_MS', 30_000, 1),
    batchSize: readInteger(env, 'DCLEDGER_EMBEDDINGS_BATCH', 128, 1),
  };
}

export function readSelfService(env: Env): SelfServiceSettings {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  return {
    smtpUrl: readSmtpUrl(env.DCLEDGER_SMTP_URL),
    mailFrom: env.DCLEDGER_MAIL_FROM?.trim() || 'dcledger@localhost',
    stripe: secretKey
      ? {
          secretKey,
          // STRIPE_WEBHOOK_SECRET (whsec_...) verifies Stripe's webhook; without it the webhook refuses every call.
          webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
          // DCLEDGER_STRIPE_API_BASE: where the Stripe API is (default https://api.stripe.com).
          apiBase: parseBaseUrl(
            env.DCLEDGER_STRIPE_API_BASE?.trim() || 'https://api.stripe.com',
            'DCLEDGER_STRIPE_API_BASE',
          ),
        }
      : undefined,
    maxKeysPerAccount: readInteger(env, 'DCLEDGER_MAX_KEYS_PER_ACCOUNT', DEFAULT_MAX_KEYS_PER_ACCOUNT, 1),
  };
}

function readSmtpUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  if (!url) return undefined;
  if (!/^smtps?:\/\/[^/]/i.test(url))
    throw new ConfigError('DCLEDGER_SMTP_URL must be an smtp:// or smtps:// URL');
  return url;
}

export function readCluster(env: Env): ClusterSettings {
  const raw = env.DCLEDGER_REDIS_URL?.trim() || undefined;
  let redisUrl: string | undefined;
  if (raw !== undefined) {
    const protocol = URL.canParse(raw) ? new URL(raw).protocol : '';
    if (protocol === 'redis:' || protocol === 'rediss:') redisUrl = raw;
    else reject('DCLEDGER_REDIS_URL must be a redis:// or rediss:// URL');
  }
  const onError = env.DCLEDGER_REDIS_ON_ERROR?.trim().toLowerCase() || 'fail';
  if (onError !== 'fail' && onError !== 'memory') reject('DCLEDGER_REDIS_ON_ERROR must be fail or memory');
  return {
    redisUrl,
    redisOnError: onError === 'memory' ? 'memory' : 'fail',
    schedulerLeaseMs: readInteger(env, 'DCLEDGER_SCHEDULER_LEASE_MS', 30_000, 1000),
    enrichmentJobs: {
      leaseMs: readInteger(env, 'DCLEDGER_ENRICH_LEASE_MS', 60_000, 100),
      pollMs: readInteger(env, 'DCLEDGER_ENRICH_POLL_MS', 5_000, 10),
      maxAttempts: readInteger(env, 'DCLEDGER_ENRICH_MAX_ATTEMPTS', 5, 1),
      retryBaseMs: readInteger(env, 'DCLEDGER_ENRICH_RETRY_MS', 30_000, 0),
    },
  };
}

export function readIngest(env: Env): IngestConfig {
  return {
    settings: Object.fromEntries(
      SOURCE_MANIFESTS.map((manifest) => [manifest.name, readSourceSettings(env, manifest.settings)]),
    ),
    archiveDir: env.DCLEDGER_ARCHIVE_DIR?.trim() || './var/archive',
    timeoutMs: readInteger(env, 'DCLEDGER_FETCH_TIMEOUT_MS', 30_000, 1),
    retries: readInteger(env, 'DCLEDGER_FETCH_RETRIES', 4, 0),
    backoffMs: readInteger(env, 'DCLEDGER_FETCH_BACKOFF_MS', 2_000, 0),
    minIntervalMs: readInteger(env, 'DCLEDGER_FETCH_INTERVAL_MS', 1_000, 0),
    userAgent: env.DCLEDGER_USER_AGENT?.trim() || 'dcledger/0.1 (self-hosted disclosure ingest)',
    intervalMinutes: readIntervalMinutes(env.DCLEDGER_INGEST_INTERVAL_MINUTES),
    sources: readSources(env.DCLEDGER_INGEST_SOURCES),
    since: readSince(env.DCLEDGER_INGEST_SINCE),
    maxDocumentMb: readDocumentLimits(env),
    pdfWorkerMemoryMb: readInteger(env, 'DCLEDGER_PDF_WORKER_MEMORY_MB', 512, 64),
    ocr: readSwitch('DCLEDGER_OCR', env.DCLEDGER_OCR, true),
  };
}

/** One source's settings, read as its manifest declares them. */
function readSourceSettings(env: Env, specs: Readonly<Record<string, SettingSpec>>): SourceSettings {
  return Object.fromEntries(Object.entries(specs).map(([key, spec]) => [key, readSetting(env, spec)]));
}

function readSetting(env: Env, spec: SettingSpec): string | number | undefined {
  switch (spec.kind) {
    case 'url':
      return readUrl(env, spec.env) ?? spec.default;
    case 'path':
      return readPath(env[spec.env], spec.env) ?? spec.default;
    case 'text':
      return env[spec.env]?.trim() || spec.default;
    case 'secret':
      return env[spec.env]?.trim() || undefined;
    case 'integer':
      return Math.max(spec.floor ?? spec.minimum, readInteger(env, spec.env, spec.default, spec.minimum));
  }
}

const SOURCE_DOCUMENT_LIMIT = /^DCLEDGER_([A-Z0-9]+)_MAX_DOCUMENT_MB$/;

/** The largest file `dcledger parse` reads when no document limit is set. */
export const PARSE_DEFAULT_MAX_DOCUMENT_MB = 50;

/**
 * The largest file `dcledger parse` reads (bytes): the source's limit when the source is given and
 * has one, else DCLEDGER_MAX_DOCUMENT_MB, else PARSE_DEFAULT_MAX_DOCUMENT_MB. Only these settings
 * are read, so that parsing a file needs no database or service settings.
 */
export function readParseLimit(source: string | undefined, env: Env = process.env): number {
  const limits = readDocumentLimits(env);
  const mb = (source ? limits.bySource[source] : undefined) ?? limits.all ?? PARSE_DEFAULT_MAX_DOCUMENT_MB;
  return mb * 1024 * 1024;
}

function readDocumentLimits(env: Env): IngestConfig['maxDocumentMb'] {
  const all = env.DCLEDGER_MAX_DOCUMENT_MB?.trim()
    ? readInteger(env, 'DCLEDGER_MAX_DOCUMENT_MB', 0, 1)
    : undefined;
  const bySource: Record<string, number> = {};
  const sources: string[] = SOURCE_MANIFESTS.map((manifest) => manifest.name);
  for (const name of Object.keys(env).sort()) {
    const source = SOURCE_DOCUMENT_LIMIT.exec(name)?.[1]?.toLowerCase();
    if (!source || !env[name]?.trim()) continue;
    if (!sources.includes(source)) {
      reject(`${name}: "${source}" is not a source (${sources.join(', ')})`);
      continue;
    }
    bySource[source] = readInteger(env, name, 0, 1);
  }
  return { all, bySource };
}

/** Polls more often than every 15 seconds would only burden the sites (and the database). */
export const MIN_INGEST_INTERVAL_MINUTES = 0.25;

/** DCLEDGER_INGEST_INTERVAL_MINUTES: 0 (off), or minutes of at least MIN_INGEST_INTERVAL_MINUTES, fractions allowed. */
function readIntervalMinutes(raw: string | undefined): number {
  const name = 'DCLEDGER_INGEST_INTERVAL_MINUTES';
  if (raw === undefined || raw.trim() === '') return 15;
  const value = Number(raw);
  if (!Number.isFinite(value) || (value !== 0 && value < MIN_INGEST_INTERVAL_MINUTES)) {
    reject(
      `${name} must be 0 (off) or minutes of at least ${MIN_INGEST_INTERVAL_MINUTES} (fractions allowed), got "${raw}"`,
    );
    return 15;
  }
  return value;
}

function readSources(raw: string | undefined): IngestSourceName[] {
  if (raw === undefined || raw.trim() === '') return [...INGEST_SOURCES];
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const known = names.filter((name) => {
    if ((INGEST_SOURCES as readonly string[]).includes(name)) return true;
    reject(`DCLEDGER_INGEST_SOURCES: "${name}" is not one of ${INGEST_SOURCES.join(', ')}`);
    return false;
  });
  return [...new Set(known)] as IngestSourceName[];
}

function readSince(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    reject(`DCLEDGER_INGEST_SINCE must be a date (YYYY-MM-DD), got "${raw}"`);
    return undefined;
  }
  return text;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const DEFAULT_SQLITE_FILE = './var/dcledger.db';

/**
 * DATABASE_URL (postgres://) wins; DCLEDGER_DB is a SQLite file, or a postgres:// URL, which
 * selects PostgreSQL too. Any other URL there is refused: it would become a file name, and a
 * password in it a file name on disk.
 */
export function readDatabase(env: Env): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (POSTGRES_URL.test(url)) return { kind: 'postgres', url };
    reject('DATABASE_URL must be a postgres:// or postgresql:// URL (use DCLEDGER_DB for SQLite)');
    return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  }
  const target = env.DCLEDGER_DB?.trim() || DEFAULT_SQLITE_FILE;
  if (POSTGRES_URL.test(target)) return { kind: 'postgres', url: target };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    reject(
      'DCLEDGER_DB must be a SQLite file path or a postgres:// URL; other URLs are not databases this service opens',
    );
    return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  }
  return { kind: 'sqlite', file: target };
}

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    reject(`PORT must be an integer between 0 and 65535, got "${raw}"`);
    return 8080;
  }
  return port;
}
