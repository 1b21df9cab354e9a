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
  ingest: IngestConfig;
}

export type IngestSourceName = 'house' | 'senate' | 'oge';
export const INGEST_SOURCES: readonly IngestSourceName[] = ['house', 'senate', 'oge'];

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
    ingest: readIngest(env),
  };
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
