// `dcledger parse <file>`: the trades in one document, as JSON. It writes nothing; a scan's asset
// names are checked against the configured database's companies and trades when it has them, or
// against the company directory files `--companies` names.

import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { readDatabase, readParseLimit } from '../config.js';
import { daysBetween } from '../domain/dates.js';
import { chamberOfSource } from '../domain/sources.js';
import { type RowAsRead, readScannedDocument, rowAsRead } from '../ingest/ocr/index.js';
import type { FilingInfo, ParsedDocument, ParsedTrade, TradeSource } from '../ingest/sources/document.js';
import {
  type DocumentParse,
  documentIdOfFileName,
  parseDocument,
  type ScanFound,
} from '../ingest/sources/parse-document.js';
import { CompanyInputError, companiesOfFiles } from '../market/import-companies.js';
import { openStore } from '../storage/database.js';
import {
  issuerListings,
  type ListedFiling,
  listedFiling,
  tradeDescriptions,
} from '../storage/repositories/ocr-pages.js';
import { CommandError, printJson } from './output.js';

export interface ParseCommandOptions {
  source?: string;
  summary?: boolean;
  /** Read scans by OCR (on unless `--no-ocr`). */
  ocr?: boolean;
  /**
   * Check a scan's asset names against the configured database's companies and trades, when it
   * exists (on unless `--no-database`). Opened read-only; nothing is written to it.
   */
  database?: boolean;
  /**
   * Company directory files (a file or a folder, as `dcledger companies import` reads them) whose
   * issuer names a scan's asset names are checked against instead of the database's companies.
   */
  companies?: string;
}

type ScanContext = { issuers: Array<[string, string]>; descriptions: string[]; filing?: ListedFiling };
type FilingLookup = { source: TradeSource; docId: string };

export async function parseCommand(file: string, options: ParseCommandOptions): Promise<void> {
  const source = options.source;
  let bytes: Uint8Array;
  try {
    await refuseLargeFile(file, readParseLimit(options.source));
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Read before the document, so that a wrong path fails at once.
  const listed = options.companies === undefined ? undefined : issuersOfFiles(options.companies);
  const result = await parseDocument(bytes, {
    ...(source ? { source } : {}),
    ...(options.ocr === false
      ? {}
      : {
          ocr: async (scan: Uint8Array, found: ScanFound) => {
            const docId = found.source ? await documentIdOfFileName(found.source, basename(file)) : null;
            const lookup = found.source && docId ? { source: found.source, docId } : undefined;
            const known = await scanContext(options.database !== false, listed, lookup);
            return readScannedDocument(scan, {
              ...found,
              filing: { ...found.filing, ...(known?.filing ? filingInfoOf(known.filing, docId) : {}) },
              ...(known
                ? {
                    issuers: known.issuers,
                    descriptions: known.descriptions,
                  }
                : {}),
              progress: pageProgress(file),
            });
          },
        }),
  });
  if (result.kind === 'record') return printRecord(file, result, options.summary ?? false);
  if (options.summary) printSummary(file, result);
  else await printResult(file, result);
}

/**
 * The issuers (ticker, name) of the company directory files at `path`; a path that is none is a
 * command error.
 */
function issuersOfFiles(path: string): Array<[string, string]> {
  try {
    return companiesOfFiles(path).flatMap(
      (company): Array<[string, string]> => (company.name ? [[company.ticker, company.name]] : []),
    );
  } catch (error) {
    if (error instanceof CompanyInputError) throw new CommandError(`--companies: ${error.message}`);
    throw error;
  }
}

/**
 * What a scan's asset names are checked against: the issuers of `--companies` when given, else
 * the database's; the database's trades' descriptions when it is read. Undefined when there is
 * neither (English and security words only), which is said on stderr unless `--no-database`
 * asked for it. With the database, also the filing it lists under the document id the file's
 * name carries (`lookup`), when it lists one.
 */
async function scanContext(
  useDatabase: boolean,
  listed: Array<[string, string]> | undefined,
  lookup: FilingLookup | undefined,
): Promise<ScanContext | undefined> {
  const stored = useDatabase ? await databaseNames(listed !== undefined, lookup) : undefined;
  if (listed)
    return {
      issuers: listed,
      descriptions: stored?.descriptions ?? [],
      ...(stored?.filing ? { filing: stored.filing } : {}),
    };
  return stored;
}

/**
 * The filing as the database lists it, in the fields a scan does not say: who filed it, when
 * (which makes a date read after it doubtful, as in ingest) and the seat.
 */
function filingInfoOf(filing: ListedFiling, docId: string | null): Partial<FilingInfo> {
  const fields: Partial<FilingInfo> = {
    source_doc_id: docId,
    filer_name: filing.filer_name,
    filer_display_name: filing.politician_name ?? filing.filer_name,
    state: filing.state,
    district: filing.district,
    filed_date: filing.filed_date,
  };
  // What the listing leaves empty, the document's own reader may have found (an OGE form's filer).
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

const ADD_NAMES =
  '--companies <path>, `dcledger companies import <path>` or `dcledger companies import --from-sec` adds issuer names';

/**
 * The issuer names, their listed symbols and stored trades' descriptions of the configured database (the words ingest's
 * OCR stage checks asset names against), read-only; undefined when there is no database to read
 * (the SQLite file does not exist: parse creates none) or it cannot be read. Without them a
 * scan's rows are read with English and security words only and far more asset names wait for
 * review (ACCURACY.md): said on stderr, unless `--companies` gives the issuer names. With them, the
 * filing the database lists under `lookup`, when it lists one.
 */
async function databaseNames(
  companiesListed: boolean,
  lookup: FilingLookup | undefined,
): Promise<ScanContext | undefined> {
  let store: ReturnType<typeof openStore> | undefined;
  let target = 'the database';
  try {
    const config = readDatabase(process.env);
    if (config.kind === 'sqlite' && (config.file === ':memory:' || !existsSync(config.file))) {
      if (!companiesListed)
        process.stderr.write(
          `dcledger: no database at ${config.file}, so asset names are checked against English and security words only and most wait for review (${ADD_NAMES})\n`,
        );
      return undefined;
    }
    store = openStore(config, { readOnly: true });
    target = store.target;
    const [issuers, descriptions, filing] = await Promise.all([
      issuerListings(store.db),
      tradeDescriptions(store.db),
      lookup ? listedFiling(store.db, lookup.source, lookup.docId) : undefined,
    ]);
    if (issuers.length === 0 && !companiesListed)
      process.stderr.write(
        `dcledger: ${target} holds no companies, so asset names are checked against English and security words only (${ADD_NAMES})\n`,
      );
    return { issuers, descriptions, ...(filing ? { filing } : {}) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const unread = companiesListed
      ? "the stored trades' descriptions not read from"
      : 'asset names not checked against';
    process.stderr.write(
      `dcledger: ${unread} ${target} (${why.split('\n')[0]}); use --no-database to read without it\n`,
    );
    return undefined;
  } finally {
    await store?.close();
  }
}

/** OCR takes seconds a page: a person at a terminal sees it advance. */
function pageProgress(file: string): (done: number, total: number) => void {
  return (done, total) => {
    if (process.stderr.isTTY)
      process.stderr.write(`dcledger: ${basename(file)}: OCR page ${done}/${total}\n`);
  };
}

/** A scan read by OCR is read, even where some of its rows wait for a person to check them. */
function isRead(status: string): boolean {
  return status === 'parsed' || status === 'needs_review';
}

/** A record of a source's own tables (an SEC form): its JSON, or the reason it cannot be read. */
function printRecord(
  file: string,
  result: Extract<DocumentParse, { kind: 'record' }>,
  summary: boolean,
): void {
  const name = basename(file);
  if (summary) printJson({ file: name, ...result.summary });
  if (result.failure !== null) throw new CommandError(`${name}: ${result.failure}`);
  if (!summary) printJson(result.json);
}

/** A file over the document size limit is refused before it is read: parsing it could take gigabytes. */
async function refuseLargeFile(file: string, limitBytes: number): Promise<void> {
  const { size } = await stat(file);
  if (size <= limitBytes) return;
  const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  throw new CommandError(
    `${basename(file)}: ${mb(size)} is over the ${mb(limitBytes)} document limit (DCLEDGER_MAX_DOCUMENT_MB); not read`,
  );
}

async function printResult(file: string, result: Exclude<DocumentParse, { kind: 'record' }>): Promise<void> {
  const name = basename(file);
  if (result.kind === 'unreadable')
    throw new CommandError(`${name}: ${statusWords(result.status)}: ${result.reason}`);
  if (result.kind === 'listing') {
    printJson(result.rows);
    return;
  }
  // The documents of one file are of one source; a document that prints no id takes the file name's.
  const first = result.documents[0];
  const idFromName = first ? await documentIdOfFileName(first.source, name) : null;

  const unread = result.documents.filter((document) => !isRead(document.status));
  const trades = result.documents.flatMap((document, index) =>
    isRead(document.status)
      ? rowsOf(document).map((trade) => tradeOutput(document, trade, index, idFromName))
      : [],
  );
  for (const [index, document] of result.documents.entries()) {
    // A scan's rows that are no trade are printed with the others (rowsOf); a text document's are not.
    if (document.ocr) continue;
    for (const row of document.rejected) {
      process.stderr.write(`dcledger: ${where(name, result, index)}row ${row.row} not read: ${row.reason}\n`);
    }
  }
  if (unread.length === result.documents.length) {
    const first = unread[0];
    const more = unread.length > 1 ? ` (and ${unread.length - 1} more document(s))` : '';
    throw new CommandError(
      `${name}: ${statusWords(first?.status ?? 'failed')}: ${first?.reason ?? 'no document'}${more}`,
    );
  }
  printJson(trades);
  if (unread.length > 0) {
    const details = result.documents
      .map((document, index) => ({ document, index }))
      .filter(({ document }) => !isRead(document.status))
      .map(
        ({ document, index }) =>
          `page ${index + 1} ${statusWords(document.status)} (${document.reason ?? ''})`,
      )
      .join('; ');
    throw new CommandError(
      `${name}: ${unread.length} of ${result.documents.length} documents not read: ${details}`,
    );
  }
}

function where(name: string, result: { documents: readonly ParsedDocument[] }, index: number): string {
  return result.documents.length > 1 ? `${name} page ${index + 1}: ` : `${name}: `;
}

function statusWords(status: string): string {
  if (status === 'needs_ocr') return 'needs OCR';
  if (status === 'paper') return 'paper filing';
  if (status === 'unsupported') return 'not a transaction report';
  return 'cannot read';
}

/**
 * The rows to print: a text document's trades; every row a scan's reader found, in order, those
 * that are no trade (a field it could not read) as read, flagged, with what the engine read in
 * each cell and why the row waits for a person.
 */
function rowsOf(document: ParsedDocument): Array<ParsedTrade | RowAsRead> {
  const ocr = document.ocr;
  if (!ocr) return document.trades;
  const trades = new Map(document.trades.map((trade) => [trade.row, trade]));
  return ocr.rows.map((row) => ({
    ...(trades.get(row.row) ?? rowAsRead(row, document.filing)),
    review_reasons: row.reasons,
    ocr_text: row.read,
  }));
}

/** A trade with its filing's context, in the API's field names. */
function tradeOutput(
  document: ParsedDocument,
  trade: ParsedTrade | RowAsRead,
  index: number,
  idFromName: string | null,
) {
  const filing = document.filing;
  return {
    source: document.source,
    chamber: chamberOfSource(document.source),
    politician_name: filing.filer_display_name,
    filer_name: filing.filer_name,
    filer_status: filing.filer_status,
    state: filing.state,
    district: filing.district,
    agency: filing.agency,
    service_start: filing.service_start,
    service_end: filing.service_end,
    filing_id: filing.source_doc_id ?? idFromName,
    document_index: index + 1,
    filed_date: filing.filed_date,
    is_amendment: filing.is_amendment,
    ...trade,
    days_to_disclose:
      trade.disclosure_date && trade.transaction_date
        ? daysBetween(trade.transaction_date, trade.disclosure_date)
        : null,
  };
}

function printSummary(file: string, result: Exclude<DocumentParse, { kind: 'record' }>): void {
  const base = { file: basename(file) };
  if (result.kind === 'unreadable') {
    printJson({ ...base, kind: 'unreadable', status: result.status, reason: result.reason });
    throw new CommandError(`${base.file}: ${statusWords(result.status)}: ${result.reason}`);
  }
  if (result.kind === 'listing') {
    printJson({ ...base, ...result.summary });
    return;
  }
  const documents = result.documents.map((document, index) => ({
    index: index + 1,
    kind: document.kind,
    status: document.status,
    reason: document.reason,
    filer: document.filing.filer_display_name,
    filed_date: document.filing.filed_date,
    amendment: document.filing.is_amendment,
    // Rows printed: the trades, and a scan's rows that are no trade (flagged).
    rows: rowsOf(document).length,
    trades: document.trades.length,
    rejected: document.rejected.length,
    warnings: document.warnings,
    method: document.ocr ? 'ocr' : 'text',
    needs_review: needsReview(document),
    // A scan that names its filer (a 278-T): what its pages read and whether it was used.
    ...(document.ocr?.filer ? { filer_read: document.ocr.filer.notes } : {}),
  }));
  const read = result.documents.filter((document) => isRead(document.status)).length;
  printJson({
    ...base,
    kind: result.format,
    documents: documents.length,
    parsed: read,
    not_parsed: documents.length - read,
    rows: documents.reduce((sum, document) => sum + document.rows, 0),
    trades: documents.reduce((sum, document) => sum + document.trades, 0),
    rejected: documents.reduce((sum, document) => sum + document.rejected, 0),
    needs_review: documents.reduce((sum, document) => sum + document.needs_review, 0),
    details: documents,
  });
  if (read < documents.length) {
    throw new CommandError(`${base.file}: ${documents.length - read} document(s) not read`);
  }
}

/** Rows of a scan a person must check: those flagged, and those that could not become trades. */
function needsReview(document: ParsedDocument): number {
  return document.ocr ? document.ocr.rows.filter((row) => row.needs_review).length : 0;
}
