// `dcledger companies import <dir>`: reads every directory file found (kind recognized from its
// content), stores its rows as listings, merges them into companies, then re-resolves the tickers
// of every trade that needs one against the new directory. `--from-sec` does the same with the
// files the CLI fetched from the SEC.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, relative } from 'node:path';
import type { Kysely } from 'kysely';
import { filesUnder } from '../files.js';
import {
  allListings,
  type ListingRow,
  replaceListings,
  upsertCompanies,
} from '../storage/repositories/companies.js';
import { updateQualityReport } from '../storage/repositories/quality.js';
import type { Database } from '../storage/schema.js';
import { type CompanyRecord, mergeListings } from './company-directory.js';
import { type CompanyEntry, parseCompanyFile } from './company-files.js';
import { nameKey } from './company-names.js';
import { type ResolutionReport, resolveTradeTickers } from './resolve-tickers.js';

export class CompanyInputError extends Error {}

export interface CompanyImportReport {
  files: Array<{
    file: string;
    source: string | null;
    rows: number;
    added: number;
    removed: number;
    skipped?: string;
  }>;
  companies: { total: number; inserted: number; updated: number; withSector: number; gicsSector: number };
  resolution: ResolutionReport;
}

function directoryFiles(path: string): string[] {
  if (!existsSync(path)) throw new CompanyInputError(`no such file or directory: ${path}`);
  if (!statSync(path).isDirectory()) return [path];
  return filesUnder(path, (name) => ['.json', '.csv', '.txt'].includes(extname(name).toLowerCase()));
}

function toListing(origin: string, entry: CompanyEntry): ListingRow {
  const key = entry.name ? nameKey(entry.name) : null;
  return {
    origin,
    ticker: entry.ticker,
    source: entry.source,
    name: entry.name,
    name_key: key?.key ?? null,
    share_class: key?.shareClass ?? null,
    cik: entry.cik,
    exchange: entry.exchange,
    gics_sector: entry.gicsSector,
    gics_sub_industry: entry.gicsSubIndustry,
    nasdaq_sector: entry.nasdaqSector,
    nasdaq_industry: entry.nasdaqIndustry,
    is_etf: entry.isEtf ? 1 : 0,
    common: entry.common ? 1 : 0,
  };
}

/**
 * One file of a directory: the name its rows are stored under, and its rows (null when it is no
 * company directory).
 */
interface DirectoryFile {
  origin: string;
  source: string | null;
  listings: ListingRow[] | null;
}

/**
 * The company directory files at `path` (one file or a folder of them), read: in a folder, a file
 * that is no company directory is kept as such (the import reports it skipped); named alone, it
 * is refused.
 */
function readDirectory(path: string): DirectoryFile[] {
  const files = directoryFiles(path);
  const single = files.length === 1 && files[0] === path;
  return files.map((file) => {
    const origin = single ? (file.split(/[\\/]/).pop() ?? file) : relative(path, file);
    return readDirectoryFile(origin, file, () => readFileSync(file, 'utf8'), single);
  });
}

/**
 * One company directory file's rows, stored under `origin`. `required`: a file that is no company
 * directory is refused (CompanyInputError naming `where`) rather than kept as skipped.
 */
function readDirectoryFile(
  origin: string,
  where: string,
  text: () => string,
  required: boolean,
): DirectoryFile {
  let parsed: ReturnType<typeof parseCompanyFile>;
  try {
    parsed = parseCompanyFile(text(), where);
  } catch (error) {
    if (required)
      throw new CompanyInputError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    parsed = null;
  }
  if (parsed === null) {
    if (required) throw new CompanyInputError(`${where}: not a company directory file`);
    return { origin, source: null, listings: null };
  }
  // One row per ticker and file: the first, as files list a ticker once except for re-listings.
  const byTicker = new Map<string, ListingRow>();
  for (const entry of parsed.entries) {
    if (!byTicker.has(entry.ticker)) byTicker.set(entry.ticker, toListing(origin, entry));
  }
  return { origin, source: parsed.source, listings: [...byTicker.values()] };
}

/** A company directory file fetched rather than read from disk: its name, address and text. */
export interface FetchedDirectoryFile {
  /** What its rows are stored under, as a file's name is: the same name imported again replaces them. */
  origin: string;
  url: string;
  text: string;
}

/**
 * The companies the directory files at `path` make, merged as `importCompanies` merges them but
 * without a database: the issuer names `dcledger parse --companies` checks a scan's asset names
 * against.
 */
export function companiesOfFiles(path: string): CompanyRecord[] {
  return mergeListings(readDirectory(path).flatMap((file) => file.listings ?? []));
}

export async function importCompanies(
  db: Kysely<Database>,
  path: string,
  options: { now?: Date } = {},
): Promise<CompanyImportReport> {
  return importDirectoryFiles(db, readDirectory(path), options.now ?? new Date());
}

/**
 * `importCompanies` for files fetched from their publisher (`dcledger companies import
 * --from-sec`): each must be a company directory file, or nothing is imported.
 */
export async function importFetchedCompanies(
  db: Kysely<Database>,
  fetched: readonly FetchedDirectoryFile[],
  options: { now?: Date } = {},
): Promise<CompanyImportReport> {
  const files = fetched.map((file) => readDirectoryFile(file.origin, file.url, () => file.text, true));
  return importDirectoryFiles(db, files, options.now ?? new Date());
}

async function importDirectoryFiles(
  db: Kysely<Database>,
  files: readonly DirectoryFile[],
  now: Date,
): Promise<CompanyImportReport> {
  const stamp = now.toISOString();
  const report: CompanyImportReport['files'] = [];
  const companies = await db.transaction().execute(async (trx) => {
    for (const { origin, source, listings } of files) {
      if (listings === null) {
        report.push({
          file: origin,
          source: null,
          rows: 0,
          added: 0,
          removed: 0,
          skipped: 'not a company directory file',
        });
        continue;
      }
      const { added, removed } = await replaceListings(trx, origin, listings, stamp);
      report.push({ file: origin, source, rows: listings.length, added, removed });
    }
    const merged = mergeListings(await allListings(trx));
    const written = await upsertCompanies(trx, merged, stamp);
    return {
      total: merged.length,
      ...written,
      withSector: merged.filter((company) => company.sector !== null).length,
      gicsSector: merged.filter((company) => company.gics_sector !== null).length,
    };
  });
  const resolution = await resolveTradeTickers(db, { all: true, now });
  // A ticker resolved from its description gets an asset type, and the audit follows.
  await updateQualityReport(db, 'import', now);
  return { files: report, companies, resolution };
}
