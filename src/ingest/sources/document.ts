// What every document parser returns. One shape for the House, Senate and OGE parsers so that
// storage and the `parse` command treat all sources alike, and so that a document we cannot read
// is never mistaken for one that disclosed no trades.
import type { Owner } from '../../domain/owner.js';
import type { TradeSource } from '../../domain/sources.js';
import type { ScannedDocumentInfo } from '../ocr/scanned-document.js';
import type { FieldConfidence } from '../ocr/scanned-rows.js';

export type { TradeSource };

/**
 * - `parsed`: an electronic document whose transactions were read (see `rejected` for rows that
 *   were seen but could not be turned into trades).
 * - `needs_ocr`: a scanned document without a usable text layer; its trades need OCR or manual entry.
 * - `needs_review`: a scanned document that was read, some of whose rows (or the count of its
 *   rows) the OCR stage is not sure of: they carry `needs_review` and wait for a person to check them.
 * - `paper`: a paper filing the source only shows as images (Senate eFD paper pages).
 * - `unsupported`: a readable document that is not a transaction report (annual report, 278e
 *   without a transactions part, extension notice).
 * - `failed`: not the expected kind of document at all (an error page saved as .pdf, a corrupt
 *   file, a layout we do not recognize).
 */
export type ParseStatus = 'parsed' | 'needs_review' | 'needs_ocr' | 'paper' | 'unsupported' | 'failed';

export type DocumentKind =
  | 'house_ptr_pdf'
  | 'senate_ptr_page'
  | 'senate_paper_page'
  /** A Senate paper filing's page images, fetched and bundled for the OCR stage (ocr/page-images.ts). */
  | 'senate_paper_ptr_images'
  | 'oge_278t_pdf'
  | 'oge_278e_pdf'
  | 'unknown';

/** What the document says about itself and its filer. Fields a source does not carry are null. */
export interface FilingInfo {
  /** The source's own id when the document states it (House "Filing ID #"); null otherwise. */
  source_doc_id: string | null;
  /** Report title as printed, e.g. "Periodic Transaction Report for 02/27/2020 (Amendment 1)". */
  title: string | null;
  /** Filer name as printed ("Hon. Nancy Pelosi", "Michael F Bennet", "Criswell, Deanne"). */
  filer_name: string | null;
  /** The same name in "First Last" order without honorifics, for matching. */
  filer_display_name: string | null;
  /** Name parts when the document gives them apart (eFD "(Bennet, Michael)", OGE "Criswell, Deanne"). */
  filer_first_name: string | null;
  filer_last_name: string | null;
  /** House "Status" (Member, Candidate), Senate office in parentheses, OGE position title. */
  filer_status: string | null;
  /** House seat, e.g. "CA11" ("AK00" at large). */
  state_district: string | null;
  state: string | null;
  district: string | null;
  /** OGE: the agency part of the position line. */
  agency: string | null;
  /**
   * The date the report was filed (YYYY-MM-DD): House signature, eFD "Filed", OGE filer signature
   * (a scanned 278-T: OGE's received stamp, its signature dates being handwritten).
   */
  filed_date: string | null;
  /** House and OGE: the filer's signature date (usually the filing date). */
  signed_date: string | null;
  /** eFD: the period date in the title ("Periodic Transaction Report for 02/27/2020"). */
  report_date: string | null;
  is_amendment: boolean;
  /** eFD "(Amendment N)"; null when not numbered or not an amendment. */
  amendment_number: number | null;
  is_paper: boolean;
  /** Form version line, e.g. OGE "(Updated February 2024)". */
  form_version: string | null;
  /**
   * OGE 278e: the filer's dates of service the report states ("Date of Appointment", "Date of
   * Termination"), YYYY-MM-DD, or YYYY-MM where the form gives only the month; null elsewhere.
   */
  service_start: string | null;
  service_end: string | null;
}

export interface ParsedTrade {
  /** The row's identity within its document: eFD and OGE "#" column, House row order (1-based). */
  row: number;
  /** House: the "ID" column when the filer's system printed one (amended rows carry it). */
  source_row_id: string | null;
  ticker: string;
  asset_description: string;
  asset_type: string | null;
  /** House asset code as printed in brackets ("ST", "OP", "GS"); null elsewhere. */
  asset_code: string | null;
  /** Display label: Buy, Sell, Sell (Partial), Exchange. */
  trade_type: string;
  /** Normalized action for filtering: buy, sell, exchange, exercise, expired. */
  trade_action: string;
  /** Canonical bracket, or the exact dollar text when the filer wrote a value instead of a bracket. */
  amount_range: string;
  amount_low: number;
  amount_high: number | null;
  transaction_date: string;
  /** Date the public could see the trade: the filing's filed date (see `FilingInfo.filed_date`). */
  disclosure_date: string | null;
  /** House: the "Notification Date" column; OGE: null (the form only says whether it was > 30 days). */
  notification_date: string | null;
  /** OGE: "Notification received over 30 days ago" (true/false); null elsewhere. */
  late_notification: boolean | null;
  owner: Owner | null;
  option_type: 'Call' | 'Put' | null;
  strike_price: number | null;
  option_expiry: string | null;
  /** The filer's free text about the row (House Description and Comments, eFD Comment, OGE endnote). */
  comment: string | null;
  /** House "Filing Status" sub-line (New, Amended); eFD: "Amended" on amendment pages, else "New". */
  filing_status: string | null;
  /** House "Subholding Of" sub-line (the account that holds the asset). */
  subholding_of: string | null;
  /** House "Location" sub-line. */
  location: string | null;
  /**
   * House "Cap. Gains > $200?" box: ticked (true) or empty (false) where the text layer carries it;
   * null or absent where the document does not say (other forms, boxes drawn as pictures).
   */
  cap_gains_over_200?: boolean | null;
  /**
   * An exchange's two positions when the ticker cell names both (eFD "PFE <br> VTRS"): the symbol
   * given up and the one received (domain/ticker.ts, splitTickerCell); null or absent elsewhere.
   */
  exchange_from_ticker?: string | null;
  exchange_to_ticker?: string | null;
  /** Rows read from a scan: how, how sure each field is, and whether a person must check it. */
  parse_method?: 'ocr';
  confidence?: FieldConfidence;
  needs_review?: boolean;
}

/** A row the parser saw but could not turn into a trade, with the reason; never dropped silently. */
export interface RejectedRow {
  row: number;
  reason: string;
  text: string;
}

export interface ParsedDocument {
  source: TradeSource;
  kind: DocumentKind;
  status: ParseStatus;
  /** Why the status is not `parsed`, or a note on a parsed document (e.g. rows rejected). */
  reason: string | null;
  filing: FilingInfo;
  trades: ParsedTrade[];
  rejected: RejectedRow[];
  /** Non-fatal oddities worth a look (unknown owner code, exact amount instead of a bracket). */
  warnings: string[];
  /** A scan read by the OCR stage: its pages and every row with its confidences. */
  ocr?: ScannedDocumentInfo;
}

export function emptyFiling(overrides: Partial<FilingInfo> = {}): FilingInfo {
  return {
    source_doc_id: null,
    title: null,
    filer_name: null,
    filer_display_name: null,
    filer_first_name: null,
    filer_last_name: null,
    filer_status: null,
    state_district: null,
    state: null,
    district: null,
    agency: null,
    filed_date: null,
    signed_date: null,
    report_date: null,
    is_amendment: false,
    amendment_number: null,
    is_paper: false,
    form_version: null,
    service_start: null,
    service_end: null,
    ...overrides,
  };
}

/** A result for a document that yielded no trades, with the reason. */
export function unreadDocument(
  source: TradeSource,
  kind: DocumentKind,
  status: Exclude<ParseStatus, 'parsed'>,
  reason: string,
  filing: FilingInfo = emptyFiling(),
): ParsedDocument {
  return { source, kind, status, reason, filing, trades: [], rejected: [], warnings: [] };
}

/**
 * What one row of a transactions table became: a trade with its oddities, a row that holds no
 * trade (an account heading; its warnings are kept) or a row that could not be read, with why.
 */
export type RowOutcome =
  | { kind: 'trade'; trade: ParsedTrade; warnings: string[] }
  | { kind: 'heading'; warnings: string[] }
  | { kind: 'rejected'; rejected: RejectedRow };

/** A row that could not be read: its number, why, and its text as the parser saw it. */
export function rejectedRow(row: number, reason: string, text: string): RowOutcome {
  return { kind: 'rejected', rejected: { row, reason, text } };
}

/** What a transactions table's rows came to, in row order. */
export interface TableRows {
  trades: ParsedTrade[];
  rejected: RejectedRow[];
  warnings: string[];
}

export function tableRows(outcomes: Iterable<RowOutcome>): TableRows {
  const read: TableRows = { trades: [], rejected: [], warnings: [] };
  for (const outcome of outcomes) {
    if (outcome.kind === 'rejected') read.rejected.push(outcome.rejected);
    else {
      if (outcome.kind === 'trade') read.trades.push(outcome.trade);
      read.warnings.push(...outcome.warnings);
    }
  }
  return read;
}

/**
 * The result for a document whose transactions table was read. A table without rows is a report
 * that lists none (Senate, OGE) or a layout we misread (House PTRs always list at least one);
 * a table none of whose rows became a trade is a failure, with the rows' reasons.
 */
export function tableResult(
  source: TradeSource,
  kind: DocumentKind,
  filing: FilingInfo,
  read: TableRows,
  emptyTable: 'lists none' | 'failed',
): ParsedDocument {
  const { trades, rejected, warnings } = read;
  if (trades.length === 0 && rejected.length === 0) {
    if (emptyTable === 'failed')
      return unreadDocument(source, kind, 'failed', 'the transactions table has no rows', filing);
    return {
      source,
      kind,
      status: 'parsed',
      reason: 'the report lists no transactions',
      filing,
      trades,
      rejected,
      warnings,
    };
  }
  if (trades.length === 0) {
    const reasons = [...new Set(rejected.map((row) => row.reason))].join('; ');
    const reason = `none of the ${rejected.length} rows could be read (${reasons})`;
    return { ...unreadDocument(source, kind, 'failed', reason, filing), rejected, warnings };
  }
  const reason = rejected.length > 0 ? `${rejected.length} row(s) could not be read` : null;
  return { source, kind, status: 'parsed', reason, filing, trades, rejected, warnings };
}
