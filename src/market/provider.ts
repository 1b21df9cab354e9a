// The HTTP price providers and the chain they form. Each provider answers one symbol's daily bars,
// the whole history or the days from a date on, parsed; it is asked with a timeout, retried with
// exponential backoff on timeouts, network errors, 429 and 5xx, and never more often than one
// request per `minIntervalMs`. A provider that cannot answer throws ProviderError, and the chain
// asks the next one.
//  - Stooq's daily CSV (`<base>/q/d/l/?s=aapl.us&i=d[&d1=YYYYMMDD&d2=YYYYMMDD]`), keyless.
//  - Tiingo's end-of-day prices (tiingo.ts), keyed by DCLEDGER_TIINGO_API_KEY.
// The chain, and which providers a configuration makes, are in price-chain.ts.
import type { PriceProviderConfig } from '../config/prices.js';
import type { CloseBasis } from '../domain/close-basis.js';
import { toStooqSymbol } from '../domain/symbols.js';
import { type ParsedSeries, type PriceFormat, PriceFormatError, parsePriceFile } from './price-files.js';

/** What a provider found for one symbol; `series.bars` is empty when the range holds no close yet. */
export type ProviderResult =
  | {
      status: 'ok';
      url: string;
      format: PriceFormat;
      closeBasis: CloseBasis;
      series: ParsedSeries;
      rejected: Record<string, number>;
    }
  | { status: 'not_found'; url: string; reason: string };

/** The days wanted: from `from` (inclusive, YYYY-MM-DD) to the newest; the whole history without it. */
export interface DailyRange {
  from?: string;
}

export interface PriceProvider {
  /** The source name its series are stored under (price_series.source). */
  readonly name: string;
  fetchDaily(symbol: string, range?: DailyRange): Promise<ProviderResult>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export interface HttpProviderOptions
  extends Pick<PriceProviderConfig, 'timeoutMs' | 'retries' | 'minIntervalMs'> {
  baseUrl: string;
  /** Injected for tests; the global fetch (undici) otherwise. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** First backoff; doubles on every retry. */
  backoffMs?: number;
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One provider's HTTP client: timeout, retries with backoff, at most one request per interval.
 * Answers every status but the retryable ones; throws ProviderError when the retries run out.
 */
export class PoliteHttp {
  private lastRequest = 0;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpProviderOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** `shownUrl` is what errors name: the URL without any key it carries. */
  async get(url: string, headers: Record<string, string>, shownUrl = url): Promise<HttpAnswer> {
    let lastError = 'no attempt';
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      if (attempt > 0) await this.sleep((this.options.backoffMs ?? 500) * 2 ** (attempt - 1));
      await this.waitTurn();
      try {
        const response = await this.fetchImpl(url, {
          signal: AbortSignal.timeout(this.options.timeoutMs),
          headers,
        });
        if (RETRYABLE.has(response.status)) {
          await response.body?.cancel();
          lastError = `HTTP ${response.status}`;
          continue;
        }
        return {
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          text: await response.text(),
        };
      } catch (error) {
        lastError =
          error instanceof Error && error.name === 'TimeoutError'
            ? `timed out after ${this.options.timeoutMs} ms`
            : describe(error);
      }
    }
    throw new ProviderError(
      `${shownUrl}: ${lastError} (after ${this.options.retries + 1} attempts)`,
      shownUrl,
    );
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

/** `2024-06-21` -> `20240621`, the form of Stooq's d1/d2. */
function compactDate(date: string): string {
  return date.replaceAll('-', '');
}

export class StooqCsvProvider implements PriceProvider {
  readonly name = 'stooq';
  private readonly http: PoliteHttp;

  constructor(private readonly options: HttpProviderOptions) {
    this.http = new PoliteHttp(options);
  }

  urlFor(symbol: string, range: DailyRange = {}): string {
    const base = `${this.options.baseUrl}/q/d/l/?s=${encodeURIComponent(toStooqSymbol(symbol))}&i=d`;
    return range.from ? `${base}&d1=${compactDate(range.from)}` : base;
  }

  async fetchDaily(symbol: string, range: DailyRange = {}): Promise<ProviderResult> {
    const url = this.urlFor(symbol, range);
    const answer = await this.http.get(url, { accept: 'text/csv, text/plain' });
    if (answer.status === 404) return { status: 'not_found', url, reason: 'HTTP 404' };
    if (answer.status < 200 || answer.status >= 300)
      throw new ProviderError(`HTTP ${answer.status} from ${url}`, url);
    const text = answer.text.trim();
    // Since 2026 Stooq answers clients it does not recognize with an HTML page (a request for an
    // API key, or a browser check) and status 200: that is no data about the symbol, it is a
    // refusal, and the next provider is asked.
    // (The bulk file format also starts with "<": `<TICKER>,<PER>,...`.)
    if (/html/i.test(answer.contentType) || /^<(!doctype|html|head|body)\b/i.test(text))
      throw new ProviderError(`${url} answered an HTML page instead of CSV`, url);
    // Stooq answers an unknown symbol, and a range without a bar, with 200 and "No data".
    if (text === '' || /^no data/i.test(text)) {
      if (range.from) return emptyResult(url, symbol);
      return { status: 'not_found', url, reason: 'no data' };
    }
    try {
      const parsed = parsePriceFile(answer.text, `${symbol}.us.txt`, symbol);
      const series = parsed.series.find((one) => one.symbol === symbol) ?? parsed.series[0];
      return {
        status: 'ok',
        url,
        format: parsed.format,
        closeBasis: parsed.closeBasis,
        series: series ? { ...series, symbol } : { symbol, bars: [], actions: [] },
        rejected: parsed.rejected,
      };
    } catch (error) {
      if (error instanceof PriceFormatError) throw new ProviderError(`${url}: ${error.message}`, url);
      throw error;
    }
  }
}

function emptyResult(url: string, symbol: string): ProviderResult {
  return {
    status: 'ok',
    url,
    format: 'stooq',
    closeBasis: 'adjusted',
    series: { symbol, bars: [], actions: [] },
    rejected: {},
  };
}
