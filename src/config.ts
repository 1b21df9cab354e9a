// Every setting of the service, read once from the environment. Nothing else reads process.env.
import { isIP } from 'node:net';
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

export type EmbeddingsProviderName = 'lsa' | 'openai' | 'voyage';

export interface EmbeddingsConfig {
  /**
   * DCLEDGER_EMBEDDINGS_PROVIDER: lsa (default: a latent semantic model trained on the indexed
   * corpus, offline), openai (any OpenAI-compatible /embeddings API) or voyage.
   */
  provider: EmbeddingsProviderName;
  /** DCLEDGER_EMBEDDINGS_BASE_URL (default https://api.openai.com/v1 / https://api.voyageai.com/v1). */
  baseUrl: string;
  /** DCLEDGER_EMBEDDINGS_API_KEY (never printed); optional for a local OpenAI-compatible server. */
  apiKey: string | undefined;
  /** DCLEDGER_EMBEDDINGS_MODEL (default text-embedding-3-small / voyage-3.5-lite). */
  model: string;
  /** DCLEDGER_EMBEDDINGS_DIMENSIONS (default 1536 / 1024): the vector length the model returns. */
  dimensions: number;
  /** DCLEDGER_EMBEDDINGS_TIMEOUT_MS (default 30000): one request. */
  timeoutMs: number;
  /** DCLEDGER_EMBEDDINGS_BATCH (default 128): texts per request. */
  batchSize: number;
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
  /** DCLEDGER_ASSISTANT_MODEL (default claude-sonnet-4-5 / gpt-4.1-mini). */
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

/** An address range: `10.0.0.0/8`, `127.0.0.1/32`, `fd00::/8`. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

export interface WebhookSettings {
  /**
   * DCLEDGER_WEBHOOK_ALLOW_CIDRS: ranges exempt from the SSRF guard (comma-separated CIDRs, empty
   * by default). Only for operators whose receivers live on a private network.
   */
  allowCidrs: Cidr[];
  /**
   * DCLEDGER_WEBHOOK_SECRET_KEY: 32 bytes (64 hex characters or base64) that encrypt subscription
   * secrets at rest with AES-256-GCM. Unset: `serve` and `worker` use the key file below.
   */
  secretKey: Buffer | null;
  /**
   * DCLEDGER_WEBHOOK_SECRET_KEY_FILE: where the key is kept when DCLEDGER_WEBHOOK_SECRET_KEY is
   * unset; created (mode 0600) on first start. Unset: webhook-secret.key in the data directory
   * (src/webhooks/secret-key.ts).
   */
  secretKeyFile: string | undefined;
  /** DCLEDGER_WEBHOOK_TIMEOUT_MS: how long one delivery may take, connect to last byte (default 15000). */
  timeoutMs: number;
  /** DCLEDGER_WEBHOOK_CONCURRENCY: deliveries in flight at once per worker (default 32). */
  concurrency: number;
  /**
   * DCLEDGER_WEBHOOK_LEASE_MS: how long a worker owns a claimed delivery before another worker may
   * take it over (default: the timeout plus 60 s, so a live worker never loses its lease).
   */
  leaseMs: number;
  /** DCLEDGER_WEBHOOK_POLL_MS: how often an idle worker looks for new events (default 1000). */
  pollMs: number;
  /** DCLEDGER_WEBHOOK_WORKER: `off` keeps `serve` from running the delivery worker (default on). */
  workerInServe: boolean;
  /**
   * DCLEDGER_WEBHOOK_PER_SUBSCRIPTION: deliveries of one subscription in flight at once per worker
   * (default a quarter of the concurrency). DCLEDGER_WEBHOOK_PER_HOST: the same for one receiver
   * host and port (default half of it). They keep a slow receiver from taking everyone's slots.
   */
  perSubscription: number;
  perHost: number;
}

export interface PriceProviderConfig {
  /** DCLEDGER_PRICE_BASE_URL, e.g. https://stooq.com: daily CSV at <base>/q/d/l/?s=<symbol>.us&i=d. */
  baseUrl: string | undefined;
  /** DCLEDGER_PRICE_TIMEOUT_MS (default 15000): per request, including the body. */
  timeoutMs: number;
  /** DCLEDGER_PRICE_RETRIES (default 2): retries after a timeout, a network error, 429 or 5xx. */
  retries: number;
  /** DCLEDGER_PRICE_INTERVAL_MS (default 1000): least time between two requests (politeness). */
  minIntervalMs: number;
  /** DCLEDGER_PRICE_REFETCH_DAYS (default 7): a symbol the provider had no data for is asked again after this. */
  refetchDays: number;
  /** DCLEDGER_TIINGO_API_KEY: turns on Tiingo as the fallback provider (sent in a header, never printed). */
  tiingoApiKey: string | undefined;
  /** DCLEDGER_TIINGO_BASE_URL (default https://api.tiingo.com). */
  tiingoBaseUrl: string;
  /**
   * DCLEDGER_PRICE_REFRESH_AT (default 01:30, UTC): when the scheduler role runs the daily price
   * job; `off` turns the schedule off (`dcledger prices refresh` still runs it by hand).
   */
  refreshAt: { hour: number; minute: number } | null;
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

export class ConfigError extends Error {}

// While loadConfig runs, each bad value is recorded and its default used, so that one start
// reports every bad setting (one line each) instead of only the first.
let problems: string[] | null = null;

/** A bad setting: thrown at once outside loadConfig, collected inside it. */
function reject(message: string): void {
  if (problems === null) throw new ConfigError(message);
  problems.push(message);
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  problems = [];
  try {
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
    if (problems.length > 0) throw new ConfigError(problems.join('\n'));
    return config;
  } finally {
    problems = null;
  }
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
  anthropic: 'claude-sonnet-4-5',
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

export function readPriceProvider(env: Env): PriceProviderConfig {
  const baseUrl = env.DCLEDGER_PRICE_BASE_URL?.trim() || undefined;
  const valid = baseUrl === undefined || /^https?:\/\//i.test(baseUrl);
  if (!valid) reject('DCLEDGER_PRICE_BASE_URL must be an http:// or https:// URL');
  return {
    baseUrl: valid ? baseUrl?.replace(/\/+$/, '') : undefined,
    timeoutMs: readInteger(env, 'DCLEDGER_PRICE_TIMEOUT_MS', 15_000, 1),
    retries: readInteger(env, 'DCLEDGER_PRICE_RETRIES', 2, 0),
    minIntervalMs: readInteger(env, 'DCLEDGER_PRICE_INTERVAL_MS', 1_000, 0),
    refetchDays: readInteger(env, 'DCLEDGER_PRICE_REFETCH_DAYS', 7, 0),
    tiingoApiKey: env.DCLEDGER_TIINGO_API_KEY?.trim() || undefined,
    tiingoBaseUrl: readUrl(env, 'DCLEDGER_TIINGO_BASE_URL') ?? 'https://api.tiingo.com',
    refreshAt: readTimeOfDay(env.DCLEDGER_PRICE_REFRESH_AT, 'DCLEDGER_PRICE_REFRESH_AT', '01:30'),
  };
}

/** `HH:MM` (UTC, 24-hour) or `off`. */
function readTimeOfDay(
  raw: string | undefined,
  name: string,
  fallback: string,
): { hour: number; minute: number } | null {
  const text = raw?.trim().toLowerCase() || fallback;
  if (text === 'off') return null;
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) {
    reject(`${name} must be a UTC time of day like 01:30, or off, got "${raw}"`);
    return readTimeOfDay(undefined, name, fallback);
  }
  return { hour, minute };
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

export function readWebhookSettings(env: Env): WebhookSettings {
  const timeoutMs = readInteger(env, 'DCLEDGER_WEBHOOK_TIMEOUT_MS', 15_000, 1);
  const leaseMs = readInteger(env, 'DCLEDGER_WEBHOOK_LEASE_MS', timeoutMs + 60_000, 1);
  const concurrency = readInteger(env, 'DCLEDGER_WEBHOOK_CONCURRENCY', 32, 1);
  if (leaseMs <= timeoutMs) {
    reject(
      'DCLEDGER_WEBHOOK_LEASE_MS must be longer than DCLEDGER_WEBHOOK_TIMEOUT_MS, or two workers could send the same delivery at once',
    );
  }
  return {
    allowCidrs: parseCidrList(env.DCLEDGER_WEBHOOK_ALLOW_CIDRS ?? ''),
    secretKey: readSecretKey(env.DCLEDGER_WEBHOOK_SECRET_KEY),
    secretKeyFile: env.DCLEDGER_WEBHOOK_SECRET_KEY_FILE?.trim() || undefined,
    timeoutMs,
    concurrency,
    leaseMs,
    pollMs: readInteger(env, 'DCLEDGER_WEBHOOK_POLL_MS', 1000, 1),
    workerInServe: readSwitch('DCLEDGER_WEBHOOK_WORKER', env.DCLEDGER_WEBHOOK_WORKER, true),
    ...readFairnessCaps(env, concurrency),
  };
}

function readFairnessCaps(env: Env, concurrency: number): { perSubscription: number; perHost: number } {
  const perSubscription = readInteger(
    env,
    'DCLEDGER_WEBHOOK_PER_SUBSCRIPTION',
    Math.max(1, Math.floor(concurrency / 4)),
    1,
  );
  const perHost = readInteger(
    env,
    'DCLEDGER_WEBHOOK_PER_HOST',
    Math.max(perSubscription, Math.floor(concurrency / 2)),
    1,
  );
  return { perSubscription, perHost };
}

/** "10.0.0.0/8, 127.0.0.1/32"; a bare address means that one address. */
export function parseCidrList(raw: string): Cidr[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseCidr)
    .filter((cidr): cidr is Cidr => cidr !== undefined);
}

function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const family = isIP(address);
  if ((family !== 4 && family !== 6) || rest.length > 0) {
    reject(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" is not an IPv4 or IPv6 CIDR`);
    return undefined;
  }
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) {
    reject(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" needs a prefix length from 0 to ${bits}`);
    return undefined;
  }
  return { address, prefix, family };
}

/** A webhook secret key as written in the setting or its key file: 64 hex characters or base64. */
export function decodeSecretKey(text: string): Buffer | null {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

function readSecretKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  const key = decodeSecretKey(text);
  if (!key) {
    reject(
      'DCLEDGER_WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -base64 32`)',
    );
    return null;
  }
  return key;
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

/** A base URL: http(s), without a trailing slash. */
export function parseBaseUrl(raw: string, name: string): string {
  const url = readBaseUrl(raw, name);
  if (url === undefined) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return url;
}

function readBaseUrl(raw: string, name: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    reject(`${name} must be an http(s) URL, got "${raw}"`);
    return undefined;
  }
  return url.toString().replace(/\/+$/, '');
}

function readUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? readBaseUrl(raw, name) : undefined;
}

function readPath(raw: string | undefined, name: string): string | undefined {
  const path = raw?.trim();
  if (!path) return undefined;
  if (!path.startsWith('/')) {
    reject(`${name} must start with "/", got "${raw}"`);
    return undefined;
  }
  return path;
}

function readInteger(env: Env, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    reject(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
    return fallback;
  }
  return value;
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

function readSwitch(name: string, raw: string | undefined, fallback: boolean): boolean {
  const text = raw?.trim().toLowerCase();
  if (!text) return fallback;
  if (['1', 'on', 'true', 'yes'].includes(text)) return true;
  if (['0', 'off', 'false', 'no'].includes(text)) return false;
  reject(`${name} must be on or off, got "${raw}"`);
  return fallback;
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

/** Settings the test suite and the benchmark read (not the service itself). */
export function readTestSettings(env: Env = process.env): {
  dataDir: string | undefined;
  postgresUrl: string | undefined;
  /** CI=true: missing shared data fails the run instead of skipping the real-data tests. */
  ci: boolean;
  /** Cases per route of the fuzz gate (src/http/fuzz.test.ts); `npm run fuzz` raises it. */
  fuzzRuns: number;
  /** Replays a fuzz failure: the seed fast-check printed. */
  fuzzSeed: number | undefined;
} {
  const fuzzRuns = Number.parseInt(env.DCLEDGER_FUZZ_RUNS ?? '', 10);
  const fuzzSeed = Number.parseInt(env.DCLEDGER_FUZZ_SEED ?? '', 10);
  return {
    ci: ['1', 'true'].includes((env.CI ?? '').trim().toLowerCase()),
    fuzzRuns: Number.isSafeInteger(fuzzRuns) && fuzzRuns > 0 ? fuzzRuns : 200,
    fuzzSeed: Number.isSafeInteger(fuzzSeed) ? fuzzSeed : undefined,
    dataDir: env.DCLEDGER_DATA_DIR?.trim() || undefined,
    postgresUrl: env.DCLEDGER_TEST_DATABASE_URL?.trim() || undefined,
  };
}
