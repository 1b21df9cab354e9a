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
  };
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
