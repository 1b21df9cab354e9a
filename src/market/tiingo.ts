// Tiingo's end-of-day prices, the fallback provider (https://www.tiingo.com/documentation/end-of-day):
//   GET <base>/tiingo/daily/<ticker>/prices?startDate=YYYY-MM-DD      Authorization: Token <key>
// answers a JSON array, oldest first, one object per trading day:
//   {"date":"2024-06-21T00:00:00.000Z","close":207.49,"high":211.89,"low":207.11,"open":210.39,
//    "volume":246421353,"adjClose":206.98,"adjHigh":...,"adjLow":...,"adjOpen":...,"adjVolume":...,
//    "divCash":0.0,"splitFactor":1.0}
// `close`/`open`/`high`/`low`/`volume` are the traded (raw) values, `adjClose` is split- and
// dividend-adjusted (CRSP method); `divCash` is the cash dividend going ex that day and
// `splitFactor` the split taking effect (1.0 on ordinary days). A range without a bar is `[]`; an
// unknown ticker is 404 with `{"detail": "..."}`. Class shares are written with a dash (`brk-b`).
import { type ParsedBar, type ParsedSeries, PriceFormatError, splitKind } from './price-files.js';
import {
  type DailyRange,
  type HttpProviderOptions,
  PoliteHttp,
  type PriceProvider,
  ProviderError,
  type ProviderResult,
} from './provider.js';

/** Where a request for "the whole history" starts (SPY begins in 1993; the trades in 2012). */
export const TIINGO_HISTORY_FROM = '1990-01-01';

export function toTiingoTicker(symbol: string): string {
  return symbol.replace('.', '-').toLowerCase();
}

export function parseTiingoDaily(
  text: string,
  symbol: string,
): { series: ParsedSeries; rejected: Record<string, number> } {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    throw new PriceFormatError(`${symbol}: Tiingo answer is not JSON`);
  }
  if (!Array.isArray(rows)) throw new PriceFormatError(`${symbol}: Tiingo answer is not a list of days`);
  const rejected: Record<string, number> = {};
  const reject = (reason: string) => {
    rejected[reason] = (rejected[reason] ?? 0) + 1;
  };
  const series: ParsedSeries = { symbol, bars: [], actions: [] };
  for (const row of rows) {
    const day = (row ?? {}) as Record<string, unknown>;
    const date =
      typeof day.date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(day.date) ? day.date.slice(0, 10) : null;
    const adjClose = numberOrNull(day.adjClose);
    if (date === null) {
      reject('unreadable date');
      continue;
    }
    if (adjClose === null || adjClose <= 0) {
      reject(adjClose === null ? 'no close' : 'close not positive');
      continue;
    }
    const bar: ParsedBar = {
      date,
      open: numberOrNull(day.open),
      high: numberOrNull(day.high),
      low: numberOrNull(day.low),
      close: numberOrNull(day.close),
      adjClose,
      volume: numberOrNull(day.volume),
    };
    if (series.bars.length > 0 && (series.bars.at(-1)?.date ?? '') >= date) {
      reject('out of order or duplicate date');
      continue;
    }
    series.bars.push(bar);
    const dividend = numberOrNull(day.divCash);
    if (dividend !== null && dividend > 0) series.actions.push({ date, kind: 'dividend', value: dividend });
    const split = numberOrNull(day.splitFactor);
    if (split !== null && split > 0 && Math.abs(split - 1) > 1e-9)
      series.actions.push({ date, kind: splitKind(split), value: split });
  }
  return { series, rejected };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export interface TiingoOptions extends HttpProviderOptions {
  apiKey: string;
}

export class TiingoProvider implements PriceProvider {
  readonly name = 'tiingo';
  private readonly http: PoliteHttp;

  constructor(private readonly options: TiingoOptions) {
    this.http = new PoliteHttp(options);
  }

  urlFor(symbol: string, range: DailyRange = {}): string {
    const ticker = encodeURIComponent(toTiingoTicker(symbol));
    return `${this.options.baseUrl}/tiingo/daily/${ticker}/prices?startDate=${range.from ?? TIINGO_HISTORY_FROM}`;
  }

  async fetchDaily(symbol: string, range: DailyRange = {}): Promise<ProviderResult> {
    const url = this.urlFor(symbol, range);
    const answer = await this.http.get(url, {
      accept: 'application/json',
      authorization: `Token ${this.options.apiKey}`,
    });
    if (answer.status === 404)
      return { status: 'not_found', url, reason: this.detail(answer.text) ?? 'HTTP 404' };
    if (answer.status < 200 || answer.status >= 300) {
      const detail = this.detail(answer.text);
      throw new ProviderError(`HTTP ${answer.status} from ${url}${detail ? `: ${detail}` : ''}`, url);
    }
    try {
      const { series, rejected } = parseTiingoDaily(answer.text, symbol);
      return { status: 'ok', url, format: 'tiingo', closeBasis: 'raw', series, rejected };
    } catch (error) {
      if (!(error instanceof PriceFormatError)) throw error;
      // Tiingo reports some refusals (request allowance used up) as a JSON object with a 200.
      const detail = this.detail(answer.text);
      throw new ProviderError(`${url}: ${detail ?? error.message}`, url);
    }
  }

  /** Tiingo's `{"detail": "..."}`, shortened, never echoing the key. */
  private detail(text: string): string | undefined {
    try {
      const body = JSON.parse(text) as { detail?: unknown };
      if (typeof body?.detail !== 'string') return undefined;
      return body.detail.replaceAll(this.options.apiKey, '***').slice(0, 200);
    } catch {
      return undefined;
    }
  }
}
