// The HTTP price provider: a Stooq-style daily CSV per symbol (<base>/q/d/l/?s=aapl.us&i=d), asked
// with a timeout, retried with exponential backoff on timeouts, network errors, 429 and 5xx, and
// never more often than one request per `minIntervalMs`.
import type { PriceProviderConfig } from '../config.js';
import { toStooqSymbol } from '../domain/symbols.js';

export type ProviderResult =
  | { status: 'ok'; text: string; url: string }
  | { status: 'not_found'; url: string; reason: string };

export interface PriceProvider {
  readonly name: string;
  fetchDaily(symbol: string): Promise<ProviderResult>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export interface HttpProviderOptions extends Omit<PriceProviderConfig, 'baseUrl' | 'refetchDays'> {
  baseUrl: string;
  /** Injected for tests; the global fetch (undici) otherwise. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** First backoff; doubles on every retry. */
  backoffMs?: number;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

export class StooqCsvProvider implements PriceProvider {
  readonly name = 'stooq';
  private lastRequest = 0;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpProviderOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  urlFor(symbol: string): string {
    return `${this.options.baseUrl}/q/d/l/?s=${encodeURIComponent(toStooqSymbol(symbol))}&i=d`;
  }

  async fetchDaily(symbol: string): Promise<ProviderResult> {
    const url = this.urlFor(symbol);
    let lastError = 'no attempt';
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      if (attempt > 0) await this.sleep((this.options.backoffMs ?? 500) * 2 ** (attempt - 1));
      await this.waitTurn();
      try {
        const response = await this.fetchImpl(url, {
          signal: AbortSignal.timeout(this.options.timeoutMs),
          headers: { accept: 'text/csv, text/plain' },
        });
        if (response.status === 404) return { status: 'not_found', url, reason: 'HTTP 404' };
        if (RETRYABLE.has(response.status)) {
          await response.body?.cancel();
          lastError = `HTTP ${response.status}`;
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw new ProviderError(`HTTP ${response.status} from ${url}`, url);
        }
        const text = await response.text();
        // Stooq answers an unknown symbol with 200 and "No data".
        if (text.trim() === '' || /^no data/i.test(text.trim()))
          return { status: 'not_found', url, reason: 'no data' };
        return { status: 'ok', text, url };
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        lastError =
          error instanceof Error && error.name === 'TimeoutError'
            ? `timed out after ${this.options.timeoutMs} ms`
            : describe(error);
      }
    }
    throw new ProviderError(`${url}: ${lastError} (after ${this.options.retries + 1} attempts)`, url);
  }

  private async waitTurn(): Promise<void> {
    const wait = this.lastRequest + this.options.minIntervalMs - Date.now();
    if (wait > 0) await this.sleep(wait);
    this.lastRequest = Date.now();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

export function providerFromConfig(config: PriceProviderConfig): PriceProvider | undefined {
  if (!config.baseUrl) return undefined;
  return new StooqCsvProvider({ ...config, baseUrl: config.baseUrl });
}
