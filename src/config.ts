// Every setting of the service, read once from the environment. Nothing else reads process.env.
import { isIP } from 'node:net';

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
