// Every setting of the service, read once from the environment. Nothing else reads process.env.

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

function readInteger(env: Env, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new ConfigError(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
  }
  return value;
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
