// Company directories: SEC company tickers (with and without exchange), SEC submissions, the
// Nasdaq screener dumps, the NASDAQ Trader symbol directory, the S&P 500 constituents (current
// with GICS sub-industries, and older snapshots with sectors) and small ticker lists. Pure: text
// in, entries out; the file's kind is recognized from its content.
import { basename } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { normalizeSector } from '../domain/sectors.js';
import { canonicalSymbol } from '../domain/symbols.js';
import { isNonCommonSecurity } from './company-names.js';

export type CompanySource =
  | 'sp500'
  | 'sp500_snapshot'
  | 'sec'
  | 'sec_exchange'
  | 'sec_submissions'
  | 'nasdaq_screener'
  | 'nasdaqtrader'
  | 'ticker_list';

export interface CompanyEntry {
  source: CompanySource;
  ticker: string;
  name: string | null;
  cik: string | null;
  exchange: string | null;
  gicsSector: string | null;
  gicsSubIndustry: string | null;
  nasdaqSector: string | null;
  nasdaqIndustry: string | null;
  isEtf: boolean;
  /**
   * The name identifies this security: common equity or an ETF, not a preferred, warrant, unit or
   * note, nor an issuer title shared by several securities. Only these resolve asset descriptions.
   */
  common: boolean;
}

export interface CompanyFile {
  source: CompanySource;
  entries: CompanyEntry[];
}

export class CompanyFormatError extends Error {}

type Row = Record<string, string>;

/** Preferreds (`BAC$K`, `ABR^D`, `JPM-PC`), warrants, units and rights by their ticker alone. */
const NON_COMMON_TICKER = /[$^]|-(P[A-Z]?|WS?|WT|U|UN|R|RI|RT)$/;

function entry(
  source: CompanySource,
  fields: Partial<CompanyEntry> & { ticker: string },
): CompanyEntry | null {
  const ticker = canonicalSymbol(fields.ticker);
  if (ticker === '' || !/^[A-Z0-9][A-Z0-9.\-/^$]*$/.test(ticker)) return null;
  const name = fields.name?.trim() || null;
  return {
    source,
    ticker,
    name,
    cik: fields.cik ?? null,
    exchange: fields.exchange ?? null,
    gicsSector: fields.gicsSector?.trim() || null,
    gicsSubIndustry: fields.gicsSubIndustry?.trim() || null,
    nasdaqSector: fields.nasdaqSector?.trim() || null,
    nasdaqIndustry: fields.nasdaqIndustry?.trim() || null,
    isEtf: fields.isEtf ?? false,
    common: fields.common ?? (!NON_COMMON_TICKER.test(ticker) && !isNonCommonSecurity(name ?? '')),
  };
}

const compact = <T>(items: Array<T | null>): T[] => items.filter((item): item is T => item !== null);

function cikText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const digits = String(value).replace(/\D/g, '');
  return digits === '' ? null : digits.padStart(10, '0');
}

/** Reads one directory file, or returns null when it is not one (e.g. sector counts). */
export function parseCompanyFile(text: string, fileName: string): CompanyFile | null {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(JSON.parse(trimmed), fileName);
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n') === -1 ? undefined : trimmed.indexOf('\n'));
  if (firstLine.includes('|')) return parseSymbolDirectory(trimmed);
  return parseCsvDirectory(trimmed);
}

function parseJson(data: unknown, fileName: string): CompanyFile | null {
  if (Array.isArray(data)) {
    // Nasdaq screener: [{symbol,name,sector,industry,...}], one file per exchange.
    const exchange = /^(nasdaq|nyse|amex)/i.exec(basename(fileName))?.[1]?.toUpperCase() ?? null;
    const rows = data.filter(
      (row): row is Row => typeof row === 'object' && row !== null && typeof row.symbol === 'string',
    );
    if (rows.length === 0) return null;
    return {
      source: 'nasdaq_screener',
      entries: compact(
        rows.map((row) =>
          entry('nasdaq_screener', {
            ticker: row.symbol ?? '',
            name: row.name ?? null,
            exchange,
            nasdaqSector: row.sector ?? null,
            nasdaqIndustry: row.industry ?? null,
          }),
        ),
      ),
    };
  }
  if (typeof data !== 'object' || data === null) return null;
  const object = data as Record<string, unknown>;
  if (Array.isArray(object.fields) && Array.isArray(object.data)) {
    const fields = object.fields as string[];
    const at = (name: string) => fields.indexOf(name);
    return {
      source: 'sec_exchange',
      entries: issuerTitlesOnlyForSingleListings(
        compact(
          (object.data as unknown[][]).map((row) =>
            entry('sec_exchange', {
              ticker: String(row[at('ticker')] ?? ''),
              name: row[at('name')] === null ? null : String(row[at('name')]),
              cik: cikText(row[at('cik')]),
              exchange: row[at('exchange')] === null ? null : String(row[at('exchange')]),
            }),
          ),
        ),
      ),
    };
  }
  if (Array.isArray(object.tickers) && typeof object.name === 'string') {
    const exchanges = Array.isArray(object.exchanges) ? (object.exchanges as unknown[]) : [];
    return {
      source: 'sec_submissions',
      entries: compact(
        (object.tickers as unknown[]).map((ticker, index) =>
          entry('sec_submissions', {
            ticker: String(ticker),
            name: String(object.name),
            cik: cikText(object.cik),
            exchange:
              exchanges[index] === undefined || exchanges[index] === null ? null : String(exchanges[index]),
          }),
        ),
      ),
    };
  }
  const values = Object.values(object);
  if (
    values.length > 0 &&
    values.every((value) => typeof value === 'object' && value !== null && 'ticker' in value)
  ) {
    return {
      source: 'sec',
      entries: issuerTitlesOnlyForSingleListings(
        compact(
          values.map((value) => {
            const row = value as { ticker: unknown; title?: unknown; cik_str?: unknown };
            return entry('sec', {
              ticker: String(row.ticker),
              name: row.title === undefined ? null : String(row.title),
              cik: cikText(row.cik_str),
            });
          }),
        ),
      ),
    };
  }
  return null;
}

/**
 * SEC files name every security of an issuer (common, preferreds, notes, ETNs: JPM, JPM-PC,
 * VYLD) with the issuer's title, so a title names a share only when the issuer lists one ticker.
 */
function issuerTitlesOnlyForSingleListings(entries: CompanyEntry[]): CompanyEntry[] {
  const perIssuer = new Map<string, number>();
  for (const one of entries) if (one.cik) perIssuer.set(one.cik, (perIssuer.get(one.cik) ?? 0) + 1);
  return entries.map((one) =>
    one.cik && (perIssuer.get(one.cik) ?? 0) > 1 ? { ...one, common: false } : one,
  );
}

// NASDAQ Trader exchange codes in otherlisted.txt.
const OTHER_EXCHANGES: Record<string, string> = {
  A: 'NYSE MKT',
  N: 'NYSE',
  P: 'NYSE ARCA',
  Z: 'BATS',
  V: 'IEX',
};

function parseSymbolDirectory(text: string): CompanyFile | null {
  const lines = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.startsWith('File Creation Time'));
  const header = (lines[0] ?? '').split('|');
  const at = (name: string) => header.indexOf(name);
  const symbolColumn = at('Symbol') >= 0 ? at('Symbol') : at('ACT Symbol');
  if (symbolColumn < 0 || at('Security Name') < 0) return null;
  const nasdaqListed = at('Market Category') >= 0;
  const entries = lines.slice(1).map((line) => {
    const cells = line.split('|');
    if (cells[at('Test Issue')] === 'Y') return null;
    const name = cells[at('Security Name')] ?? null;
    return entry('nasdaqtrader', {
      ticker: cells[symbolColumn] ?? '',
      name,
      exchange: nasdaqListed ? 'NASDAQ' : (OTHER_EXCHANGES[cells[at('Exchange')] ?? ''] ?? null),
      isEtf: cells[at('ETF')] === 'Y',
    });
  });
  return { source: 'nasdaqtrader', entries: compact(entries) };
}

function parseCsvDirectory(text: string): CompanyFile | null {
  const rows = parseCsv(text, {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as Row[];
  const columns = Object.keys(rows[0] ?? {});
  const has = (...names: string[]) => names.every((name) => columns.includes(name));
  if (has('Symbol', 'Security', 'GICS Sector')) {
    return {
      source: 'sp500',
      entries: compact(
        rows.map((row) =>
          entry('sp500', {
            ticker: row.Symbol ?? '',
            name: row.Security ?? null,
            cik: cikText(row.CIK),
            gicsSector: row['GICS Sector'] ?? null,
            gicsSubIndustry: row['GICS Sub-Industry'] ?? null,
            common: true,
          }),
        ),
      ),
    };
  }
  if (has('Symbol', 'Name', 'Sector')) {
    return {
      source: 'sp500_snapshot',
      entries: compact(
        rows.map((row) =>
          entry('sp500_snapshot', {
            ticker: row.Symbol ?? '',
            name: row.Name ?? null,
            gicsSector: gicsSectorName(row.Sector ?? ''),
            common: true,
          }),
        ),
      ),
    };
  }
  const tickerColumn = ['Ticker', 'stock_symbol', 'Symbol'].find((name) => columns.includes(name));
  const nameColumn = ['Company', 'company', 'Name'].find((name) => columns.includes(name));
  if (tickerColumn && nameColumn) {
    return {
      source: 'ticker_list',
      entries: compact(
        rows.map((row) =>
          entry('ticker_list', {
            ticker: row[tickerColumn] ?? '',
            name: row[nameColumn] ?? null,
            cik: cikText(row.Cik ?? row.CIK),
          }),
        ),
      ),
    };
  }
  return null;
}

/** A GICS sector column's value as one of the eleven sectors (domain/sectors.ts); null otherwise. */
function gicsSectorName(sector: string): string | null {
  return normalizeSector(sector);
}

/** Nasdaq's sector names mapped onto the GICS sector they correspond to (null when none does). */
export function nasdaqToGicsSector(sector: string): string | null {
  return normalizeSector(sector);
}
