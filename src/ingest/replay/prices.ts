// The replay server's price providers, so that the daily price job runs without the network:
//   GET /q/d/l/?s=<symbol>.us&i=d[&d1=YYYYMMDD][&d2=YYYYMMDD]
//       Stooq's daily CSV download (`Date,Open,High,Low,Close,Volume`), rendered from the recorded
//       Stooq files (`<data dir>/market/prices/stooq_*/<symbol>.us.txt`, the bulk format with the
//       same values); a symbol or a range without a bar answers `No data`, as Stooq does.
//   GET /tiingo/daily/<ticker>/prices?startDate=YYYY-MM-DD[&endDate=YYYY-MM-DD]
//       Tiingo's end-of-day JSON (see market/tiingo.ts). CONSTRUCTED: no Tiingo answer is recorded;
//       the answer takes Tiingo's documented shape and the values of the recorded AlphaVantage
//       daily-adjusted files (`alphavantage_sp500_2012_2021/DA-<SYMBOL>-T-*.csv`: raw OHLC and
//       volume, adjusted close, dividend, split coefficient; adjOpen/adjHigh/adjLow scaled by the
//       day's adjustment ratio). Without `Authorization: Token <key>` it answers 401; an unknown
//       ticker 404 with a `detail`, without startDate the latest day only.
// `until` holds back every close after a day, as if the provider had not published it yet: tests
// move it forward to replay new days of closes.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalSymbol, fromStooqSymbol } from '../../domain/symbols.js';
import { filesUnder } from '../../files.js';
import { type ParsedSeries, parsePriceFile } from '../../market/price-files.js';

export interface PriceAnswer {
  status: number;
  type: string;
  body: string;
}

export class PriceReplay {
  /** Closes after this day (YYYY-MM-DD) are not served; null serves everything recorded. */
  until: string | null = null;
  /** Tiingo requests and Stooq requests served, by symbol (tests count them). */
  readonly asked: Array<{ provider: 'stooq' | 'tiingo'; symbol: string }> = [];
  private readonly stooqFiles = new Map<string, string>();
  private readonly alphaVantageFiles = new Map<string, string>();
  private readonly parsed = new Map<string, ParsedSeries | null>();

  constructor(dataDir: string) {
    const prices = join(dataDir, 'market', 'prices');
    if (!existsSync(prices)) return;
    for (const file of filesUnder(prices, (name) => name.endsWith('.us.txt'))) {
      if (basename(join(file, '..')).startsWith('stooq_'))
        this.stooqFiles.set(fromStooqSymbol(basename(file).replace(/\.txt$/, '')), file);
    }
    for (const file of filesUnder(prices, (name) => /^DA-.+-T-\d{4}-\d{2}-\d{2}\.csv$/.test(name))) {
      const symbol = /^DA-(.+)-T-/.exec(basename(file))?.[1];
      if (symbol) this.alphaVantageFiles.set(canonicalSymbol(symbol), file);
    }
  }

  /** How many symbols each provider can answer. */
  get counts(): { stooq: number; tiingo: number } {
    return { stooq: this.stooqFiles.size, tiingo: this.alphaVantageFiles.size };
  }

  handle(
    method: string,
    path: string,
    params: URLSearchParams,
    headers: Record<string, string | string[] | undefined>,
  ): PriceAnswer | undefined {
    if (method !== 'GET') return undefined;
    if (path === '/q/d/l/') return this.stooq(params);
    const tiingo = /^\/tiingo\/daily\/([^/]+)\/prices$/.exec(path);
    if (tiingo) return this.tiingo(tiingo[1] ?? '', params, headers.authorization);
    return undefined;
  }

  private stooq(params: URLSearchParams): PriceAnswer {
    const symbol = fromStooqSymbol(params.get('s') ?? '');
    this.asked.push({ provider: 'stooq', symbol });
    const series = this.series(this.stooqFiles.get(symbol));
    const from = compactToIso(params.get('d1'));
    const to = compactToIso(params.get('d2'));
    const bars = this.published(series, from, to);
    if (bars.length === 0) return { status: 200, type: 'text/plain', body: 'No data' };
    const lines = bars.map((bar) =>
      [bar.date, bar.open, bar.high, bar.low, bar.close ?? bar.adjClose, bar.volume]
        .map((value) => (value === null ? '' : String(value)))
        .join(','),
    );
    return { status: 200, type: 'text/csv', body: `Date,Open,High,Low,Close,Volume\n${lines.join('\n')}\n` };
  }

  private tiingo(
    ticker: string,
    params: URLSearchParams,
    authorization: string | string[] | undefined,
  ): PriceAnswer {
    const symbol = canonicalSymbol(decodeURIComponent(ticker));
    this.asked.push({ provider: 'tiingo', symbol });
    const auth = Array.isArray(authorization) ? authorization[0] : authorization;
    if (!auth || !/^Token \S+$/.test(auth)) return json(401, { detail: 'Please supply a token' });
    const series = this.series(this.alphaVantageFiles.get(symbol));
    if (!series) return json(404, { detail: `Error: Ticker '${ticker}' not found` });
    const start = params.get('startDate');
    let bars = this.published(series, start, params.get('endDate'));
    if (!start) bars = bars.slice(-1);
    const actions = new Map<string, { divCash: number; splitFactor: number }>();
    for (const action of series.actions) {
      const day = actions.get(action.date) ?? { divCash: 0, splitFactor: 1 };
      if (action.kind === 'dividend') day.divCash = action.value;
      else day.splitFactor = action.value;
      actions.set(action.date, day);
    }
    const rows = bars.map((bar) => {
      const ratio = bar.close ? bar.adjClose / bar.close : 1;
      const scaled = (value: number | null) => (value === null ? null : value * ratio);
      return {
        date: `${bar.date}T00:00:00.000Z`,
        close: bar.close,
        high: bar.high,
        low: bar.low,
        open: bar.open,
        volume: bar.volume,
        adjClose: bar.adjClose,
        adjHigh: scaled(bar.high),
        adjLow: scaled(bar.low),
        adjOpen: scaled(bar.open),
        adjVolume: bar.volume === null || ratio === 0 ? null : bar.volume / ratio,
        divCash: actions.get(bar.date)?.divCash ?? 0,
        splitFactor: actions.get(bar.date)?.splitFactor ?? 1,
      };
    });
    return json(200, rows);
  }

  private series(file: string | undefined): ParsedSeries | null {
    if (file === undefined) return null;
    const known = this.parsed.get(file);
    if (known !== undefined) return known;
    const parsed = parsePriceFile(readFileSync(file, 'utf8'), file).series[0] ?? null;
    this.parsed.set(file, parsed);
    return parsed;
  }

  private published(series: ParsedSeries | null, from: string | null, to: string | null) {
    if (!series) return [];
    const until = this.until;
    return series.bars.filter(
      (bar) =>
        (from === null || bar.date >= from) &&
        (to === null || bar.date <= to) &&
        (until === null || bar.date <= until),
    );
  }
}

function compactToIso(text: string | null): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text ?? '');
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function json(status: number, body: unknown): PriceAnswer {
  return { status, type: 'application/json', body: JSON.stringify(body) };
}
