// Reads the daily-price file formats we accept, format detected from the header. Pure: text in,
// bars out. Each format says what its closes are, because the sources disagree:
//  - Stooq (`<TICKER>,<PER>,<DATE>,...` bulk files and `Date,Open,...` downloads): OHLC and volume
//    split- and dividend-adjusted; close = adjusted close.
//  - AlphaVantage TIME_SERIES_DAILY_ADJUSTED: raw OHLC and volume, adjusted_close, dividend amount
//    and split coefficient per day.
//  - Long CSV (`stock_symbol,date,open,high,low,close,adj_close,volume`, Yahoo via Kaggle): OHLC
//    split-adjusted only, adj_close split- and dividend-adjusted.
//  - Wide adjusted-close CSV (`date,SPY,AAPL,...`, yfinance via PyPortfolioOpt): total-return
//    adjusted closes only.
import { basename } from 'node:path';
import type { CloseBasis } from '../domain/close-basis.js';
import { isoDate } from '../domain/dates.js';
import { canonicalSymbol, fromStooqSymbol } from '../domain/symbols.js';

/** `tiingo` is never a file: it is what the fallback provider answers (tiingo.ts). */
export type PriceFormat = 'stooq' | 'alphavantage' | 'long-csv' | 'wide-adjclose' | 'tiingo';

export interface ParsedBar {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  adjClose: number;
  volume: number | null;
}

export interface ParsedAction {
  date: string;
  /** split: a clean share ratio; adjustment: any other coefficient (spin-off, merger terms); dividend: cash per share. */
  kind: 'split' | 'adjustment' | 'dividend';
  value: number;
}

export interface ParsedSeries {
  symbol: string;
  bars: ParsedBar[];
  actions: ParsedAction[];
}

export interface ParsedPriceFile {
  format: PriceFormat;
  closeBasis: CloseBasis;
  series: ParsedSeries[];
  /** Rows that could not be read, by reason (never silently dropped). */
  rejected: Record<string, number>;
}

export class PriceFormatError extends Error {}

/** Higher-priority sources are tried first for every return window (see docs/market-data.md, "Prices"). */
export const FORMAT_PRIORITY: Record<PriceFormat, number> = {
  'wide-adjclose': 1,
  alphavantage: 2,
  'long-csv': 3,
  stooq: 4,
  // The fallback provider: its series serves where no other source has both ends of a window.
  tiingo: 5,
};

export const CLOSE_BASIS: Record<PriceFormat, CloseBasis> = {
  stooq: 'adjusted',
  alphavantage: 'raw',
  'long-csv': 'split-adjusted',
  'wide-adjclose': 'none',
  tiingo: 'raw',
};

export function detectPriceFormat(header: string): PriceFormat | null {
  const columns = splitCsvLine(header).map((column) => column.toLowerCase());
  const has = (...names: string[]) => names.every((name) => columns.includes(name));
  if (columns[0] === '<ticker>' && has('<date>', '<close>')) return 'stooq';
  if (has('date', 'open', 'high', 'low', 'close') && !has('adj_close') && !has('adjusted_close'))
    return 'stooq';
  if (has('timestamp', 'adjusted_close')) return 'alphavantage';
  if ((has('stock_symbol') || has('symbol') || has('ticker')) && has('date', 'adj_close')) return 'long-csv';
  if (columns[0] === 'date' && columns.length >= 2 && !has('close') && !has('adj_close'))
    return 'wide-adjclose';
  return null;
}

/** Parses one file; `fileName` names the symbol for per-symbol formats (`aapl.us.txt`, `DA-AAPL-T-...csv`). */
export function parsePriceFile(text: string, fileName: string, symbolOverride?: string): ParsedPriceFile {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines[0];
  if (header === undefined) throw new PriceFormatError(`${fileName}: empty file`);
  const format = detectPriceFormat(header);
  if (format === null)
    throw new PriceFormatError(`${fileName}: not a known price format (header "${header}")`);
  const rejected: Record<string, number> = {};
  const reject = (reason: string) => {
    rejected[reason] = (rejected[reason] ?? 0) + 1;
  };
  const columns = splitCsvLine(header).map((column) => column.toLowerCase());
  const body = lines.slice(1);
  let series: ParsedSeries[];
  switch (format) {
    case 'stooq':
      series = parseStooq(columns, body, symbolOverride ?? symbolFromFileName(fileName), reject);
      break;
    case 'alphavantage':
      series = [parseAlphaVantage(columns, body, symbolOverride ?? symbolFromFileName(fileName), reject)];
      break;
    case 'long-csv':
      series = parseLong(columns, body, reject);
      break;
    case 'wide-adjclose':
      series = parseWide(columns, body, reject);
      break;
    case 'tiingo':
      throw new PriceFormatError(`${fileName}: Tiingo answers are JSON, read by tiingo.ts`);
  }
  for (const one of series) sortAndDedupe(one, reject);
  return {
    format,
    closeBasis: CLOSE_BASIS[format],
    series: series.filter((one) => one.bars.length > 0),
    rejected,
  };
}

/** `aapl.us.txt` -> AAPL, `DA-BRK.B-T-2021-04-21.csv` -> BRK.B, `msft.csv` -> MSFT. */
export function symbolFromFileName(fileName: string): string {
  const name = basename(fileName);
  const alphaVantage = /^DA-(.+)-T-\d{4}-\d{2}-\d{2}\.csv$/i.exec(name);
  if (alphaVantage?.[1]) return canonicalSymbol(alphaVantage[1]);
  return fromStooqSymbol(name.replace(/\.(txt|csv)$/i, ''));
}

function splitCsvLine(line: string): string[] {
  const cells = line.split(',');
  for (let index = 0; index < cells.length; index++) {
    const cell = (cells[index] as string).trim();
    cells[index] = cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"') ? cell.slice(1, -1) : cell;
  }
  return cells;
}

function readNumber(text: string | undefined): number | null {
  if (text === undefined || text === '' || text.toLowerCase() === 'null' || text.toLowerCase() === 'nan')
    return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

// Price files repeat the same few thousand days across symbols; validating each once is enough.
const dateCache = new Map<string, string | null>();

function readDate(text: string | undefined): string | null {
  if (!text) return null;
  const cached = dateCache.get(text);
  if (cached !== undefined) return cached;
  let date: string | null = null;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  const iso = compact ? null : /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const parts = compact ?? iso;
  if (parts) date = isoDate(Number(parts[1]), Number(parts[2]), Number(parts[3]));
  if (dateCache.size < 100_000) dateCache.set(text, date);
  return date;
}

type Reject = (reason: string) => void;

function bar(
  date: string | null,
  values: Omit<ParsedBar, 'date' | 'adjClose'> & { adjClose: number | null },
  reject: Reject,
): ParsedBar | null {
  if (date === null) {
    reject('unreadable date');
    return null;
  }
  if (values.adjClose === null) {
    reject('no close');
    return null;
  }
  if (values.adjClose <= 0) {
    reject('close not positive');
    return null;
  }
  return { date, ...values, adjClose: values.adjClose };
}

/** A bar of a file whose columns are named open, high, low, close and volume, with its own date and adjusted-close names. */
function namedBar(
  cells: string[],
  at: (name: string) => number,
  names: { date: string; adjClose: string },
  reject: Reject,
): ParsedBar | null {
  return bar(
    readDate(cells[at(names.date)]),
    {
      open: readNumber(cells[at('open')]),
      high: readNumber(cells[at('high')]),
      low: readNumber(cells[at('low')]),
      close: readNumber(cells[at('close')]),
      adjClose: readNumber(cells[at(names.adjClose)]),
      volume: readNumber(cells[at('volume')]),
    },
    reject,
  );
}

/** The series of `symbol` in a file of several, begun on its first bar. */
function seriesOf(bySymbol: Map<string, ParsedSeries>, symbol: string): ParsedSeries {
  let series = bySymbol.get(symbol);
  if (!series) {
    series = { symbol, bars: [], actions: [] };
    bySymbol.set(symbol, series);
  }
  return series;
}

function parseStooq(columns: string[], lines: string[], fileSymbol: string, reject: Reject): ParsedSeries[] {
  const bulk = columns[0] === '<ticker>';
  const at = (name: string) => columns.indexOf(bulk ? `<${name}>` : name);
  const [iTicker, iDate, iOpen, iHigh, iLow, iClose, iVol] = [
    at('ticker'),
    at('date'),
    at('open'),
    at('high'),
    at('low'),
    at('close'),
    bulk ? at('vol') : at('volume'),
  ];
  const bySymbol = new Map<string, ParsedSeries>();
  for (const line of lines) {
    const cells = splitCsvLine(line);
    const symbol = bulk && iTicker >= 0 && cells[iTicker] ? fromStooqSymbol(cells[iTicker]) : fileSymbol;
    const close = readNumber(cells[iClose]);
    const parsed = bar(
      readDate(cells[iDate]),
      {
        open: readNumber(cells[iOpen]),
        high: readNumber(cells[iHigh]),
        low: readNumber(cells[iLow]),
        close,
        adjClose: close,
        volume: iVol >= 0 ? readNumber(cells[iVol]) : null,
      },
      reject,
    );
    if (parsed) seriesOf(bySymbol, symbol).bars.push(parsed);
  }
  return [...bySymbol.values()];
}

function parseAlphaVantage(columns: string[], lines: string[], symbol: string, reject: Reject): ParsedSeries {
  const at = (name: string) => columns.indexOf(name);
  const series: ParsedSeries = { symbol, bars: [], actions: [] };
  for (const line of lines) {
    const cells = splitCsvLine(line);
    const parsed = namedBar(cells, at, { date: 'timestamp', adjClose: 'adjusted_close' }, reject);
    if (!parsed) continue;
    series.bars.push(parsed);
    const dividend = readNumber(cells[at('dividend_amount')]);
    if (dividend !== null && dividend > 0)
      series.actions.push({ date: parsed.date, kind: 'dividend', value: dividend });
    const coefficient = readNumber(cells[at('split_coefficient')]);
    if (coefficient !== null && coefficient > 0 && Math.abs(coefficient - 1) > 1e-9) {
      series.actions.push({ date: parsed.date, kind: splitKind(coefficient), value: coefficient });
    }
  }
  return series;
}

/**
 * A split is a ratio of small whole numbers (7:1 is written 7.00000700001, 1:3 as 0.333333333333);
 * anything else (PFE 1.054 for the Viatris spin-off, RTX 1.589 for the UTC merger) is a corporate
 * event that changed what one share is.
 */
export function splitKind(coefficient: number): 'split' | 'adjustment' {
  for (let denominator = 1; denominator <= 10; denominator++) {
    const numerator = coefficient * denominator;
    if (Math.round(numerator) >= 1 && Math.abs(numerator - Math.round(numerator)) < 1e-4 * denominator)
      return 'split';
  }
  return 'adjustment';
}

function parseLong(columns: string[], lines: string[], reject: Reject): ParsedSeries[] {
  const at = (name: string) => columns.indexOf(name);
  const iSymbol = [at('stock_symbol'), at('symbol'), at('ticker')].find((index) => index >= 0) ?? -1;
  const bySymbol = new Map<string, ParsedSeries>();
  for (const line of lines) {
    const cells = splitCsvLine(line);
    const rawSymbol = cells[iSymbol];
    if (!rawSymbol) {
      reject('no symbol');
      continue;
    }
    const parsed = namedBar(cells, at, { date: 'date', adjClose: 'adj_close' }, reject);
    if (parsed) seriesOf(bySymbol, canonicalSymbol(rawSymbol)).bars.push(parsed);
  }
  return [...bySymbol.values()];
}

function parseWide(columns: string[], lines: string[], reject: Reject): ParsedSeries[] {
  const symbols = columns.slice(1).map((column) => canonicalSymbol(column));
  const all = symbols.map((symbol) => ({ symbol, bars: [] as ParsedBar[], actions: [] }));
  for (const line of lines) {
    const cells = splitCsvLine(line);
    const date = readDate(cells[0]);
    for (let index = 0; index < all.length; index++) {
      const cell = cells[index + 1];
      // An empty cell is a day before the listing (AMZN before 1997-05-15), not a missing price.
      if (cell === undefined || cell === '') continue;
      const parsed = bar(
        date,
        { open: null, high: null, low: null, close: null, adjClose: readNumber(cell), volume: null },
        reject,
      );
      if (parsed) all[index]?.bars.push(parsed);
    }
  }
  return all;
}

function sortAndDedupe(series: ParsedSeries, reject: Reject): void {
  series.bars.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const unique: ParsedBar[] = [];
  for (const one of series.bars) {
    if (unique.length > 0 && unique[unique.length - 1]?.date === one.date) {
      reject('duplicate date');
      continue;
    }
    unique.push(one);
  }
  series.bars = unique;
}
