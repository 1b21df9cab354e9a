// Every setting of the service, read once from the environment. Nothing else reads process.env.
import { isIP } from 'node:net';
import { SOURCE_NAMES, type SourceName } from './domain/sources.js';

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
  /** The HTTP price provider `enrich` asks for tickers without prices; off without a base URL. */
  priceProvider: PriceProviderConfig;
  /** Webhook delivery: SSRF exemptions, secret encryption, timeouts, the worker. */
  webhooks: WebhookSettings;
  ingest: IngestConfig;
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
   * secrets at rest with AES-256-GCM. Unset: secrets are stored in clear (a warning is logged).
   */
  secretKey: Buffer | null;
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
}

export type IngestSourceName = SourceName;
export const INGEST_SOURCES: readonly IngestSourceName[] = SOURCE_NAMES;

/** How the connectors reach the official sites and how often `serve` runs them. */
export interface IngestConfig {
  /** House Clerk (DCLEDGER_HOUSE_BASE_URL, default https://disclosures-clerk.house.gov). */
  houseBaseUrl: string;
  /** Senate eFD (DCLEDGER_SENATE_BASE_URL, default https://efdsearch.senate.gov). */
  senateBaseUrl: string;
  /** Site serving the OGE 278-T listing (DCLEDGER_OGE_BASE_URL); unset: OGE is skipped (it has no public index). */
  ogeBaseUrl: string | undefined;
  /** Path of the OGE listing under its base URL (DCLEDGER_OGE_INDEX_PATH, default /278t/). */
  ogeIndexPath: string;
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
  /** Minutes between the runs `serve` starts (DCLEDGER_INGEST_INTERVAL_MINUTES, default 15; 0 = off). */
  intervalMinutes: number;
  /** Sources `serve` ingests (DCLEDGER_INGEST_SOURCES, comma list, default house,senate,oge). */
  sources: IngestSourceName[];
  /** First date a source's first run reads (DCLEDGER_INGEST_SINCE, YYYY-MM-DD); default Jan 1 of last year. */
  since: string | undefined;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  return {
    port: readPort(env.PORT),
    host: env.HOST?.trim() || '0.0.0.0',
    database: readDatabase(env),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    publicUrl: env.DCLEDGER_PUBLIC_URL?.trim() || undefined,
    priceProvider: readPriceProvider(env),
    webhooks: readWebhookSettings(env),
    ingest: readIngest(env),
  };
}

export function readPriceProvider(env: Env): PriceProviderConfig {
  const baseUrl = env.DCLEDGER_PRICE_BASE_URL?.trim() || undefined;
  if (baseUrl !== undefined && !/^https?:\/\//i.test(baseUrl)) {
    throw new ConfigError('DCLEDGER_PRICE_BASE_URL must be an http:// or https:// URL');
  }
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    timeoutMs: readInteger(env, 'DCLEDGER_PRICE_TIMEOUT_MS', 15_000, 1),
    retries: readInteger(env, 'DCLEDGER_PRICE_RETRIES', 2, 0),
    minIntervalMs: readInteger(env, 'DCLEDGER_PRICE_INTERVAL_MS', 1_000, 0),
    refetchDays: readInteger(env, 'DCLEDGER_PRICE_REFETCH_DAYS', 7, 0),
  };
}

export function readWebhookSettings(env: Env): WebhookSettings {
  const timeoutMs = readInteger(env, 'DCLEDGER_WEBHOOK_TIMEOUT_MS', 15_000, 1);
  const leaseMs = readInteger(env, 'DCLEDGER_WEBHOOK_LEASE_MS', timeoutMs + 60_000, 1);
  if (leaseMs <= timeoutMs) {
    throw new ConfigError(
      'DCLEDGER_WEBHOOK_LEASE_MS must be longer than DCLEDGER_WEBHOOK_TIMEOUT_MS, or two workers could send the same delivery at once',
    );
  }
  return {
    allowCidrs: parseCidrList(env.DCLEDGER_WEBHOOK_ALLOW_CIDRS ?? ''),
    secretKey: readSecretKey(env.DCLEDGER_WEBHOOK_SECRET_KEY),
    timeoutMs,
    concurrency: readInteger(env, 'DCLEDGER_WEBHOOK_CONCURRENCY', 32, 1),
    leaseMs,
    pollMs: readInteger(env, 'DCLEDGER_WEBHOOK_POLL_MS', 1000, 1),
    workerInServe: readSwitch('DCLEDGER_WEBHOOK_WORKER', env.DCLEDGER_WEBHOOK_WORKER, true),
  };
}

/** "10.0.0.0/8, 127.0.0.1/32"; a bare address means that one address. */
export function parseCidrList(raw: string): Cidr[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseCidr);
}

function parseCidr(text: string): Cidr {
  const [address = '', prefixText, ...rest] = text.split('/');
  const family = isIP(address);
  if ((family !== 4 && family !== 6) || rest.length > 0) {
    throw new ConfigError(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" is not an IPv4 or IPv6 CIDR`);
  }
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) {
    throw new ConfigError(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" needs a prefix length from 0 to ${bits}`);
  }
  return { address, prefix, family };
}

function readSecretKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    throw new ConfigError(
      'DCLEDGER_WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -base64 32`)',
    );
  }
  return key;
}

export function readIngest(env: Env): IngestConfig {
  return {
    houseBaseUrl: readUrl(env, 'DCLEDGER_HOUSE_BASE_URL') ?? 'https://disclosures-clerk.house.gov',
    senateBaseUrl: readUrl(env, 'DCLEDGER_SENATE_BASE_URL') ?? 'https://efdsearch.senate.gov',
    ogeBaseUrl: readUrl(env, 'DCLEDGER_OGE_BASE_URL'),
    ogeIndexPath: readPath(env.DCLEDGER_OGE_INDEX_PATH, 'DCLEDGER_OGE_INDEX_PATH') ?? '/278t/',
    archiveDir: env.DCLEDGER_ARCHIVE_DIR?.trim() || './var/archive',
    timeoutMs: readInteger(env, 'DCLEDGER_FETCH_TIMEOUT_MS', 30_000, 1),
    retries: readInteger(env, 'DCLEDGER_FETCH_RETRIES', 4, 0),
    backoffMs: readInteger(env, 'DCLEDGER_FETCH_BACKOFF_MS', 2_000, 0),
    minIntervalMs: readInteger(env, 'DCLEDGER_FETCH_INTERVAL_MS', 1_000, 0),
    userAgent: env.DCLEDGER_USER_AGENT?.trim() || 'dcledger/0.1 (self-hosted disclosure ingest)',
    intervalMinutes: readInteger(env, 'DCLEDGER_INGEST_INTERVAL_MINUTES', 15, 0),
    sources: readSources(env.DCLEDGER_INGEST_SOURCES),
    since: readSince(env.DCLEDGER_INGEST_SINCE),
  };
}

/** A base URL: http(s), without a trailing slash. */
export function parseBaseUrl(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, '');
}

function readUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? parseBaseUrl(raw, name) : undefined;
}

function readPath(raw: string | undefined, name: string): string | undefined {
  const path = raw?.trim();
  if (!path) return undefined;
  if (!path.startsWith('/')) throw new ConfigError(`${name} must start with "/", got "${raw}"`);
  return path;
}

function readInteger(env: Env, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new ConfigError(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
  }
  return value;
}

function readSwitch(name: string, raw: string | undefined, fallback: boolean): boolean {
  const text = raw?.trim().toLowerCase();
  if (!text) return fallback;
  if (['1', 'on', 'true', 'yes'].includes(text)) return true;
  if (['0', 'off', 'false', 'no'].includes(text)) return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

function readSources(raw: string | undefined): IngestSourceName[] {
  if (raw === undefined || raw.trim() === '') return [...INGEST_SOURCES];
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!(INGEST_SOURCES as readonly string[]).includes(name)) {
      throw new ConfigError(`DCLEDGER_INGEST_SOURCES: "${name}" is not one of ${INGEST_SOURCES.join(', ')}`);
    }
  }
  return [...new Set(names)] as IngestSourceName[];
}

function readSince(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new ConfigError(`DCLEDGER_INGEST_SINCE must be a date (YYYY-MM-DD), got "${raw}"`);
  }
  return text;
}

export function readDatabase(env: Env): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//i.test(url)) {
      throw new ConfigError(
        'DATABASE_URL must be a postgres:// or postgresql:// URL (use DCLEDGER_DB for SQLite)',
      );
    }
    return { kind: 'postgres', url };
  }
  return { kind: 'sqlite', file: env.DCLEDGER_DB?.trim() || './var/dcledger.db' };
}

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

/** Settings the test suite and the benchmark read (not the service itself). */
export function readTestSettings(env: Env = process.env): {
  dataDir: string | undefined;
  postgresUrl: string | undefined;
} {
  return {
    dataDir: env.DCLEDGER_DATA_DIR?.trim() || undefined,
    postgresUrl: env.DCLEDGER_TEST_DATABASE_URL?.trim() || undefined,
  };
}
