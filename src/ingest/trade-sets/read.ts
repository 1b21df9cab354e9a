// Reads "Stock Watcher" style trade sets (Senate and House Stock Watcher and their descendants)
// in JSON or CSV into one row shape. Pure: text in, rows out; the format is detected from the keys.
import { parse as parseCsv } from 'csv-parse/sync';

export type TradeSetFormat =
  | 'senate-stock-watcher'
  | 'senate-stock-watcher-reports'
  | 'senate-efd-scraper-csv'
  | 'house-stock-watcher'
  | 'house-stock-watcher-export';

export type Source = 'house_clerk' | 'senate_efd';

export interface TradeSetRow {
  /** 1-based position of the row in its file, for messages. */
  line: number;
  source: Source;
  filerName: string;
  bioguideId: string | null;
  /** House seat as "NJ07"; null for senators or when absent. */
  district: string | null;
  docId: string | null;
  reportUrl: string | null;
  reportKind: 'PTR' | 'annual';
  isPaper: boolean;
  filedDate: string | null;
  transactionDate: string | null;
  owner: string | null;
  ticker: string | null;
  assetDescription: string | null;
  assetType: string | null;
  type: string | null;
  amount: string | null;
  comment: string | null;
  /** House Stock Watcher's `cap_gains_over_200_usd` (the PTR's cap-gains box); absent elsewhere. */
  capGainsOver200?: boolean | null;
}

export interface TradeSet {
  format: TradeSetFormat;
  rows: TradeSetRow[];
}

export class TradeSetFormatError extends Error {}

type Record_ = Record<string, unknown>;

export function readTradeSet(fileName: string, text: string): TradeSet {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return readJson(fileName, trimmed);
  return readCsv(fileName, trimmed);
}

function readJson(fileName: string, text: string): TradeSet {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TradeSetFormatError(`${fileName}: not valid JSON (${(error as Error).message})`);
  }
  const records = Array.isArray(data) ? data : [data];
  const first = records.find((record): record is Record_ => typeof record === 'object' && record !== null);
  if (!first) return { format: 'senate-stock-watcher', rows: [] };
  if ('transactions' in first && 'ptr_link' in first) {
    let line = 0;
    const nextLine = () => ++line;
    return {
      format: 'senate-stock-watcher-reports',
      rows: records.flatMap((report) => senateReportRows(report, nextLine)),
    };
  }
  if ('senator' in first) return { format: 'senate-stock-watcher', rows: records.map(senateAggregateRow) };
  if ('representative' in first) return { format: 'house-stock-watcher', rows: records.map(houseRow) };
  throw new TradeSetFormatError(
    `${fileName}: unrecognized JSON trade set (keys: ${Object.keys(first).slice(0, 8).join(', ')})`,
  );
}

function readCsv(fileName: string, text: string): TradeSet {
  let records: Record_[];
  try {
    records = parseCsv(text, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true });
  } catch (error) {
    throw new TradeSetFormatError(`${fileName}: not valid CSV (${(error as Error).message})`);
  }
  const columns = Object.keys(records[0] ?? {});
  if (columns.includes('senator'))
    return { format: 'senate-stock-watcher', rows: records.map(senateAggregateRow) };
  if (columns.includes('report-id'))
    return { format: 'senate-efd-scraper-csv', rows: records.map(scraperRow) };
  if (columns.includes('representative')) {
    const format =
      columns.includes('ptr_link') || columns.includes('filing_id')
        ? 'house-stock-watcher'
        : 'house-stock-watcher-export';
    return { format, rows: records.map(houseRow) };
  }
  throw new TradeSetFormatError(
    `${fileName}: unrecognized CSV trade set (columns: ${columns.slice(0, 8).join(', ')})`,
  );
}

function str(record: Record_, key: string): string | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  const text = String(value);
  return text.trim() === '' ? null : text;
}

function asRecord(value: unknown): Record_ {
  return typeof value === 'object' && value !== null ? (value as Record_) : {};
}

const EFD_LINK = /\/search\/view\/([a-z-]+)\/([0-9a-f-]{36})/i;

function senateLink(link: string | null): { docId: string | null; isPaper: boolean; kind: 'PTR' | 'annual' } {
  const match = link ? EFD_LINK.exec(link) : null;
  if (!match) return { docId: null, isPaper: false, kind: 'PTR' };
  const view = (match[1] ?? '').toLowerCase();
  return {
    docId: (match[2] ?? '').toLowerCase(),
    isPaper: view === 'paper',
    kind: view === 'annual' ? 'annual' : 'PTR',
  };
}

function senateTransaction(
  raw: Record_,
  line: number,
  filer: Omit<TradeSetRow, keyof WatcherTxn | 'line'>,
): TradeSetRow {
  return { line, ...filer, ...watcherTxn(raw) };
}

type WatcherTxn = Pick<
  TradeSetRow,
  'transactionDate' | 'owner' | 'ticker' | 'assetDescription' | 'assetType' | 'type' | 'amount' | 'comment'
>;

/** A transaction's fields, under the snake-case names both stock watchers' exports use. */
function watcherTxn(raw: Record_): WatcherTxn {
  return {
    transactionDate: str(raw, 'transaction_date'),
    owner: str(raw, 'owner'),
    ticker: str(raw, 'ticker'),
    assetDescription: str(raw, 'asset_description'),
    assetType: str(raw, 'asset_type'),
    type: str(raw, 'type'),
    amount: str(raw, 'amount'),
    comment: str(raw, 'comment'),
  };
}

/** A True/False column (a JSON boolean, or CSV text as pandas writes it); null when absent or unclear. */
function yesNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'true') return true;
  if (text === 'false') return false;
  return null;
}

function senateAggregateRow(value: unknown, index: number): TradeSetRow {
  const raw = asRecord(value);
  const link = str(raw, 'ptr_link');
  const { docId, isPaper, kind } = senateLink(link);
  return senateTransaction(raw, index + 1, {
    source: 'senate_efd',
    filerName: str(raw, 'senator') ?? '',
    bioguideId: null,
    district: null,
    docId,
    reportUrl: link,
    reportKind: kind,
    isPaper,
    filedDate: null,
  });
}

function senateReportRows(value: unknown, nextLine: () => number): TradeSetRow[] {
  const report = asRecord(value);
  const link = str(report, 'ptr_link');
  const { docId, isPaper, kind } = senateLink(link);
  const first = str(report, 'first_name') ?? '';
  const last = str(report, 'last_name') ?? '';
  const transactions = Array.isArray(report.transactions) ? report.transactions : [];
  const filer = {
    source: 'senate_efd' as const,
    filerName: `${first} ${last}`.trim() || (str(report, 'office') ?? ''),
    bioguideId: str(report, 'bioguide'),
    district: null,
    docId,
    reportUrl: link,
    reportKind: kind,
    isPaper,
    // The source spells the key "date_recieved".
    filedDate: str(report, 'date_recieved') ?? str(report, 'date_received'),
  };
  if (transactions.length === 0) {
    // A report without rows (paper filings mostly) is still a filing we must record.
    return [{ line: nextLine(), ...filer, ...emptyTxn() }];
  }
  return transactions.map((txn) => {
    const raw = asRecord(txn);
    // Per-senator files list every report's rows under one senator, each with its own link; paper
    // reports appear as rows with `scanned_pdf` and their own received date.
    const ownLink = str(raw, 'ptr_link') ?? link;
    const own = senateLink(ownLink);
    return senateTransaction(raw, nextLine(), {
      ...filer,
      docId: own.docId ?? docId,
      reportUrl: ownLink,
      reportKind: own.kind,
      isPaper: own.isPaper || raw.scanned_pdf === true,
      filedDate: str(raw, 'date_recieved') ?? (own.docId === docId ? filer.filedDate : null),
    });
  });
}

function emptyTxn(): WatcherTxn {
  return {
    transactionDate: null,
    owner: null,
    ticker: null,
    assetDescription: null,
    assetType: null,
    type: null,
    amount: null,
    comment: null,
  };
}

function scraperRow(value: unknown, index: number): TradeSetRow {
  const raw = asRecord(value);
  const title = str(raw, 'report-title') ?? '';
  return {
    line: index + 1,
    source: 'senate_efd',
    filerName: uncommaFiler(str(raw, 'filer') ?? ''),
    bioguideId: null,
    district: null,
    docId: (str(raw, 'report-id') ?? '').toLowerCase() || null,
    reportUrl: null,
    reportKind: /annual/i.test(title) ? 'annual' : 'PTR',
    isPaper: false,
    filedDate: str(raw, 'filed-date'),
    transactionDate: str(raw, 'transaction-date'),
    owner: str(raw, 'owner'),
    ticker: str(raw, 'ticker'),
    assetDescription: str(raw, 'asset-name'),
    assetType: str(raw, 'asset-type'),
    type: str(raw, 'transaction-type') ?? str(raw, 'type'),
    amount: str(raw, 'amount'),
    comment: str(raw, 'comment'),
  };
}

function uncommaFiler(name: string): string {
  const clean = name.replace(/\([^)]*\)/g, '').trim();
  const comma = clean.indexOf(',');
  return comma === -1 ? clean : `${clean.slice(comma + 1).trim()} ${clean.slice(0, comma).trim()}`;
}

const HOUSE_PDF = /\/(?:ptr-pdfs|financial-pdfs)\/\d{4}\/(\d+)\.pdf/i;

function houseRow(value: unknown, index: number): TradeSetRow {
  const raw = asRecord(value);
  const url = str(raw, 'source_url') ?? str(raw, 'ptr_link');
  const docId = str(raw, 'filing_id') ?? (url ? (HOUSE_PDF.exec(url)?.[1] ?? null) : null);
  const district = str(raw, 'district');
  return {
    line: index + 1,
    source: 'house_clerk',
    filerName: str(raw, 'representative') ?? '',
    bioguideId: str(raw, 'bioguide') ?? str(raw, 'bioguide_id'),
    district: district ? district.trim().toUpperCase() : null,
    docId,
    reportUrl: url,
    reportKind: 'PTR',
    // House DocIDs of 7 digits are scanned paper filings; e-filed PTRs have 8 digits starting with 2.
    isPaper: docId !== null && !/^2\d{7}$/.test(docId),
    filedDate: str(raw, 'disclosure_date'),
    ...watcherTxn(raw),
    capGainsOver200: yesNo(raw.cap_gains_over_200_usd),
  };
}
