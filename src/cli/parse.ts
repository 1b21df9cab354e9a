// `dcledger parse <file>`: the trades in one document, as JSON, without touching the database.

import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { readParseLimit } from '../config.js';
import { daysBetween } from '../domain/dates.js';
import type { TradeSource } from '../domain/sources.js';
import { CHAMBER_OF_SOURCE, SOURCE_NAMES, type SourceName } from '../domain/sources.js';
import type { ParsedDocument, ParsedTrade } from '../ingest/sources/document.js';
import { type DocumentParse, parseDocument } from '../ingest/sources/parse-document.js';
import { CommandError, printJson } from './output.js';
import { looksLikeSecDocument, printSecDocument } from './parse-sec.js';

export interface ParseCommandOptions {
  source?: string;
  summary?: boolean;
}

export async function parseCommand(file: string, options: ParseCommandOptions): Promise<void> {
  const source = readSourceOption(options.source);
  let bytes: Uint8Array;
  try {
    await refuseLargeFile(file, readParseLimit(options.source));
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.source === 'sec' || (source === undefined && looksLikeSecText(bytes))) {
    printSecDocument(file, new TextDecoder('utf-8').decode(bytes), options.summary ?? false);
    return;
  }
  const result = await parseDocument(bytes, source ? { source } : {});
  if (options.summary) printSummary(file, result);
  else printResult(file, result);
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

/** SEC filings are text (XML, HTML or an EDGAR envelope); a PDF never is one. */
function looksLikeSecText(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 200_000));
  return !head.startsWith('%PDF') && looksLikeSecDocument(head);
}

/** Commander has already checked the value against the choices; this narrows its type. */
function readSourceOption(raw: string | undefined): SourceName | undefined {
  return SOURCE_NAMES.find((source) => source === raw);
}

function printResult(file: string, result: DocumentParse): void {
  const name = basename(file);
  if (result.kind === 'unreadable')
    throw new CommandError(`${name}: ${statusWords(result.status)}: ${result.reason}`);
  if (result.kind === 'house_index') {
    printJson(result.rows);
    return;
  }
  if (result.kind === 'senate_search') {
    printJson(result.page.rows);
    return;
  }

  const unread = result.documents.filter((document) => document.status !== 'parsed');
  const trades = result.documents.flatMap((document, index) =>
    document.status === 'parsed'
      ? document.trades.map((trade) => tradeOutput(document, trade, index, name))
      : [],
  );
  for (const [index, document] of result.documents.entries()) {
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
      .filter(({ document }) => document.status !== 'parsed')
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

/** A trade with its filing's context, in the API's field names. */
function tradeOutput(document: ParsedDocument, trade: ParsedTrade, index: number, fileName: string) {
  const filing = document.filing;
  return {
    source: document.source,
    chamber: CHAMBER_OF_SOURCE[document.source],
    politician_name: filing.filer_display_name,
    filer_name: filing.filer_name,
    filer_status: filing.filer_status,
    state: filing.state,
    district: filing.district,
    agency: filing.agency,
    filing_id: filing.source_doc_id ?? documentIdFromName(document.source, fileName),
    document_index: index + 1,
    filed_date: filing.filed_date,
    is_amendment: filing.is_amendment,
    ...trade,
    days_to_disclose: trade.disclosure_date
      ? daysBetween(trade.transaction_date, trade.disclosure_date)
      : null,
  };
}

/** eFD pages do not contain their UUID, but a file saved as "<uuid>.html" does; OGE ids are file names. */
function documentIdFromName(source: TradeSource, fileName: string): string | null {
  if (source === 'oge') return fileName;
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(fileName);
  return uuid ? uuid[0].toLowerCase() : null;
}

function printSummary(file: string, result: DocumentParse): void {
  const base = { file: basename(file) };
  if (result.kind === 'unreadable') {
    printJson({ ...base, kind: 'unreadable', status: result.status, reason: result.reason });
    throw new CommandError(`${base.file}: ${statusWords(result.status)}: ${result.reason}`);
  }
  if (result.kind === 'house_index') {
    const ptrs = result.rows.filter((row) => row.is_ptr);
    printJson({
      ...base,
      kind: `house_index_${result.format}`,
      rows: result.rows.length,
      ptrs: ptrs.length,
      paper_ptrs: ptrs.filter((row) => row.is_paper).length,
    });
    return;
  }
  if (result.kind === 'senate_search') {
    printJson({
      ...base,
      kind: 'senate_search',
      records_total: result.page.records_total,
      rows: result.page.rows.length,
    });
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
    trades: document.trades.length,
    rejected: document.rejected.length,
    warnings: document.warnings,
  }));
  const count = (status: string) => result.documents.filter((document) => document.status === status).length;
  printJson({
    ...base,
    kind: result.format,
    documents: documents.length,
    parsed: count('parsed'),
    not_parsed: documents.length - count('parsed'),
    trades: documents.reduce((sum, document) => sum + document.trades, 0),
    rejected: documents.reduce((sum, document) => sum + document.rejected, 0),
    details: documents,
  });
  if (count('parsed') < documents.length) {
    throw new CommandError(`${base.file}: ${documents.length - count('parsed')} document(s) not read`);
  }
}
