// How a setting is read and checked: a reader returns the value, or for a bad one records the
// problem (reject) and returns its default, so that one start reports every bad setting.
export class ConfigError extends Error {}

// While loadConfig runs, each bad value is recorded and its default used, so that one start
// reports every bad setting (one line each) instead of only the first.
let problems: string[] | null = null;

/** A bad setting: thrown at once outside loadConfig, collected inside it. */
export function reject(message: string): void {
  if (problems === null) throw new ConfigError(message);
  problems.push(message);
}

/**
 * Runs `read` (loadConfig) collecting every bad setting it meets, each read with its default, and
 * throws them together at the end.
 */
export function collectingProblems<T>(read: () => T): T {
  problems = [];
  try {
    const value = read();
    if (problems.length > 0) throw new ConfigError(problems.join('\n'));
    return value;
  } finally {
    problems = null;
  }
}

export type Env = Record<string, string | undefined>;

/** A base URL: http(s), without a trailing slash. */
export function parseBaseUrl(raw: string, name: string): string {
  const url = readBaseUrl(raw, name);
  if (url === undefined) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return url;
}

export function readBaseUrl(raw: string, name: string): string | undefined {
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

export function readUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? readBaseUrl(raw, name) : undefined;
}

export function readPath(raw: string | undefined, name: string): string | undefined {
  const path = raw?.trim();
  if (!path) return undefined;
  if (!path.startsWith('/')) {
    reject(`${name} must start with "/", got "${raw}"`);
    return undefined;
  }
  return path;
}

export function readInteger(env: Env, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    reject(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
    return fallback;
  }
  return value;
}

export function readSwitch(name: string, raw: string | undefined, fallback: boolean): boolean {
  const text = raw?.trim().toLowerCase();
  if (!text) return fallback;
  if (['1', 'on', 'true', 'yes'].includes(text)) return true;
  if (['0', 'off', 'false', 'no'].includes(text)) return false;
  reject(`${name} must be on or off, got "${raw}"`);
  return fallback;
}
