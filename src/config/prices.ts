// The HTTP price provider `enrich` asks for tickers without prices, and when the daily job runs.
import { type Env, readInteger, readUrl, reject } from './read.js';

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
