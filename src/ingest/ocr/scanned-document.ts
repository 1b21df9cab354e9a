// A read scan as the one ParsedDocument shape every parser returns. Rows whose every field was
// read surely become trades; the others wait for review (they are listed in `ocr.rows` with
// their reasons, and rows missing a required field are also among `rejected`). A scan whose
// rows could not all be told apart is sent to review whole.
import { optionTermsFromText } from '../../domain/asset.js';
import {
  type DocumentKind,
  emptyFiling,
  type FilingInfo,
  type ParsedDocument,
  type ParsedTrade,
  type RejectedRow,
  type TradeSource,
} from '../sources/document.js';
import { houseAssetType } from '../sources/house/asset-codes.js';
import { filingOfFiler, judgedFiler, type ScannedFiler } from './oge-filer.js';
import type { ScannedPage } from './read-scan.js';
import type { ScannedRow } from './scanned-rows.js';

/**
 * What the reason of every filing read from a scan says (the review queue finds them by it: a
 * person may add a row such a filing's reader missed).
 */
export const READ_BY_OCR = 'scan read by OCR';

export interface ScannedPageInfo {
  number: number;
  quarterTurns: number;
  skew: number;
  dpi: number;
  layout: string;
  rows: number;
  headings: string[];
  example_row: boolean;
  nothing_to_report: boolean;
  uncertain: string[];
  cpu_ms: number;
}

export interface ScannedDocumentInfo {
  pages: ScannedPageInfo[];
  rows: ScannedRow[];
  /** Why the rows of this scan cannot all be served as read (empty when they can). */
  review_reasons: string[];
  /** The filer as the scan names them (an OGE 278-T's pages), and how it was judged; absent when no page does. */
  filer?: ScannedFiler;
}

export interface ScannedContext {
  source: TradeSource;
  kind: DocumentKind;
  filing?: Partial<FilingInfo>;
}

export function scannedDocument(
  pages: readonly ScannedPage[],
  rows: readonly ScannedRow[],
  context: ScannedContext,
): ParsedDocument {
  // What the index or the parser knew comes first; the scan fills what they left empty.
  const filer = judgedFiler(pages);
  const known = Object.entries(context.filing ?? {}).filter(
    ([, value]) => value !== null && value !== undefined,
  );
  const filing = emptyFiling({
    is_paper: true,
    title: 'Periodic Transaction Report',
    ...(filer ? filingOfFiler(filer) : {}),
    ...Object.fromEntries(known),
  });
  const uncertain = pages.flatMap((page) => page.form.uncertain.map((why) => `page ${page.number}: ${why}`));
  const unreadPages = pages.filter((page) => !page.form.understood && page.form.uncertain.length > 0);
  const nothingToReport = pages.some((page) => page.form.nothingToReport);
  const reviewReasons = [...uncertain];
  // Rows on a page whose row count is uncertain are all checked: one row may hide another.
  const doubtfulPages = new Set(
    uncertain.length > 0
      ? pages.filter((page) => page.form.uncertain.length > 0).map((page) => page.number)
      : [],
  );
  const checked = rows.map((row) =>
    doubtfulPages.has(row.page) && !row.needs_review
      ? {
          ...row,
          needs_review: true,
          reasons: [...row.reasons, 'the rows of this page could not all be told apart'],
        }
      : row,
  );
  if (rows.length === 0 && !nothingToReport) {
    reviewReasons.push(
      unreadPages.length === pages.length
        ? 'no page of the scan holds a transactions table the reader understands'
        : 'no transaction rows were read from the scan',
    );
  }
  const trades: ParsedTrade[] = [];
  const rejected: RejectedRow[] = [];
  for (const row of checked) {
    const trade = toTrade(row, filing);
    if (trade) trades.push(trade);
    else
      rejected.push({
        row: row.row,
        reason: `needs review: ${row.reasons.join('; ')}`,
        text: row.read.asset,
      });
  }
  const waiting = checked.filter((row) => row.needs_review).length;
  const status = reviewReasons.length > 0 || waiting > 0 ? 'needs_review' : 'parsed';
  const reason =
    rows.length === 0 && nothingToReport
      ? `the filer reports nothing (${READ_BY_OCR})`
      : status === 'parsed'
        ? `${READ_BY_OCR}: ${rows.length} row(s)`
        : `${READ_BY_OCR}: ${waiting} of ${rows.length} row(s) wait for review${reviewReasons.length > 0 ? ` (${reviewReasons.join('; ')})` : ''}`;
  return {
    source: context.source,
    kind: context.kind,
    status,
    reason,
    filing,
    trades,
    rejected,
    warnings: [],
    ocr: {
      pages: pages.map((page) => ({
        number: page.number,
        quarterTurns: page.quarterTurns,
        skew: page.skew,
        dpi: page.dpi,
        layout: page.form.layout,
        rows: page.form.rows.length,
        headings: page.form.headings,
        example_row: page.form.exampleRow,
        nothing_to_report: page.form.nothingToReport,
        uncertain: page.form.uncertain,
        cpu_ms: page.cpuMs,
      })),
      rows: checked,
      review_reasons: reviewReasons,
      ...(filer ? { filer } : {}),
    },
  };
}

/**
 * A row as read, in a trade's fields: null where the scan gave no value a trade could hold (no
 * type or bracket marked, a date that is no date, no name). `dcledger parse` prints rows that are
 * no trade this way, flagged, so that a person sees every row the reader found.
 */
export type RowAsRead = Omit<
  ParsedTrade,
  | 'trade_type'
  | 'trade_action'
  | 'amount_range'
  | 'amount_low'
  | 'amount_high'
  | 'transaction_date'
  | 'asset_description'
> & {
  trade_type: string | null;
  trade_action: string | null;
  amount_range: string | null;
  amount_low: number | null;
  amount_high: number | null;
  transaction_date: string | null;
  asset_description: string | null;
};

export function rowAsRead(row: ScannedRow, filing: FilingInfo): RowAsRead {
  const terms = /\b(PUT|CALL)\b/i.test(row.asset_description)
    ? optionTermsFromText(row.asset_description)
    : null;
  return {
    row: row.row,
    source_row_id: null,
    ticker: row.ticker,
    asset_description: row.asset_description === '' ? null : row.asset_description,
    asset_type: terms ? 'Option' : houseAssetType(null, row.ticker),
    asset_code: null,
    trade_type: row.trade_type,
    trade_action: row.trade_action,
    amount_range: row.amount?.range ?? null,
    amount_low: row.amount?.low ?? null,
    amount_high: row.amount?.high ?? null,
    transaction_date: row.transaction_date,
    disclosure_date: filing.filed_date,
    notification_date: row.notification_date,
    late_notification: row.late_notification ?? null,
    owner: row.owner,
    option_type: terms?.optionType ?? null,
    strike_price: terms?.strikePrice ?? null,
    option_expiry: terms?.optionExpiry ?? null,
    comment: row.comment,
    filing_status: null,
    subholding_of: row.subholding_of,
    location: null,
    parse_method: 'ocr',
    confidence: row.confidence,
    needs_review: row.needs_review,
  };
}

/** Whether a row as read has every field a trade needs (sure or not). */
function isTrade(row: RowAsRead): row is ParsedTrade {
  return (
    Boolean(row.trade_type && row.trade_action && row.transaction_date && row.asset_description) &&
    row.amount_range !== null &&
    row.amount_low !== null
  );
}

/** A row as a trade, when it has every field a trade needs (sure or not). */
export function toTrade(row: ScannedRow, filing: FilingInfo): ParsedTrade | null {
  const read = rowAsRead(row, filing);
  return isTrade(read) ? read : null;
}
