// Senate eFD "Periodic Transaction Report" pages (efdsearch.senate.gov/search/view/ptr/<uuid>/).
//
// The filer is in `<h2 class="filedReport">`, the report date and any "(Amendment N)" in the h1,
// the filing time in "Filed MM/DD/YYYY @ h:mm AM", and the trades in a table whose columns are
// # | Transaction Date | Owner | Ticker | Asset Name | Asset Type | Type | Amount | Comment.
// Option, bond and company details sit in `<div class="text-muted">` blocks under the asset name.
// The page does not contain its own UUID: callers that know it (the connector) attach it.
import {
  decodeEntities,
  normalizeAssetType,
  parseAssetDescription,
  stripTags,
} from '../../../domain/asset.js';
import { normalizeOwner } from '../../../domain/owner.js';
import { splitTickerCell } from '../../../domain/ticker.js';
import { tradeKindFromWording } from '../../../domain/trade-type.js';
import {
  emptyFiling,
  type FilingInfo,
  type ParsedDocument,
  type RowOutcome,
  rejectedRow,
  tableResult,
  tableRows,
  unreadDocument,
} from '../document.js';
import { cleanText, kindAndAmountColumns, readDate, readRequiredFields } from '../trade-fields.js';

const SOURCE = 'senate_efd';

/** Splits a file of pages saved back to back into the pages (each starts with a doctype). */
export function splitEfdPages(html: string): string[] {
  const parts = html.split(/<!DOCTYPE html>/i).filter((part) => /<html/i.test(part));
  return parts.length > 0 ? parts : [html];
}

/** Every page of a file that may hold one page or many concatenated pages. */
export function parseSenatePtrPages(html: string): ParsedDocument[] {
  return splitEfdPages(html).map(parseSenatePtrPage);
}

export function parseSenatePtrPage(html: string): ParsedDocument {
  const title = firstMatch(html, /<title>([\s\S]*?)<\/title>/i);
  const heading = firstMatch(html, /<h1[^>]*>([\s\S]*?)<\/h1>/i);
  const filing = readFiling(html, heading);

  if (isPaperPage(html, title)) {
    return unreadDocument(
      SOURCE,
      'senate_paper_page',
      'paper',
      'paper filing: eFD shows only scanned page images; its transactions need OCR or manual entry',
      { ...filing, is_paper: true },
    );
  }
  if (/prohibition_agreement/i.test(html)) {
    return unreadDocument(
      SOURCE,
      'unknown',
      'failed',
      'eFD terms-of-use page, not a report (the session had not accepted the agreement)',
    );
  }
  if (!/Periodic Transaction Report/i.test(`${title} ${heading}`)) {
    const what = heading || title || 'no title';
    return unreadDocument(
      SOURCE,
      'unknown',
      'unsupported',
      `not a periodic transaction report: "${what}"`,
      filing,
    );
  }
  return readTransactions(html, filing);
}

/**
 * The page images of an eFD paper filing's page (`<img class="filingImage" src=...>`), in page
 * order, each resolved against the page's own address (the site serves them from its media host).
 */
export function paperImageUrls(html: string, pageUrl: string): string[] {
  const urls: string[] = [];
  const page = new URL(pageUrl);
  for (const tag of html.matchAll(/<img\b[^>]*>/gi)) {
    const markup = tag[0];
    if (!/class=["'][^"']*\bfilingImage\b/i.test(markup)) continue;
    const src = /\bsrc=["']([^"']+)["']/i.exec(markup)?.[1];
    if (!src) continue;
    let url: URL;
    try {
      url = new URL(decodeEntities(src.trim()), pageUrl);
    } catch {
      // A src that is no address names no image to fetch.
      continue;
    }
    // Only the site's own hosts: a page (altered, or not the site's) must not send the connector
    // to another host, an internal address, another scheme or another port (another service on
    // the same machine).
    const sameService = url.protocol === page.protocol && url.port === page.port;
    if (sameService && sameSite(url.hostname, page.hostname)) urls.push(url.toString());
  }
  return urls;
}

/** The same host, or a host of the same parent domain (efd-media-public.senate.gov for efdsearch.senate.gov). */
function sameSite(host: string, pageHost: string): boolean {
  if (host === pageHost) return true;
  if (/^[\d.]+$|:/.test(pageHost)) return false;
  const parent = pageHost.split('.').slice(-2).join('.');
  return parent.includes('.') && (host === parent || host.endsWith(`.${parent}`));
}

function isPaperPage(html: string, title: string): boolean {
  return /class="[^"]*filingImage/i.test(html) || /paper/i.test(title);
}

function readFiling(html: string, heading: string): FilingInfo {
  const filing = emptyFiling();
  filing.title = heading || null;
  const reportDate = /for\s+(\d{1,2}\/\d{1,2}\/\d{4})/i.exec(heading);
  if (reportDate) filing.report_date = dateOrNull(reportDate[1]);
  const amendment = /\(Amendment\s*(\d+)?\)/i.exec(heading);
  if (amendment) {
    filing.is_amendment = true;
    filing.amendment_number = amendment[1] ? Number(amendment[1]) : null;
  }

  const filer = firstMatch(html, /<h2[^>]*class="[^"]*filedReport[^"]*"[^>]*>([\s\S]*?)<\/h2>/i);
  Object.assign(filing, readFilerHeading(filer));
  const filed = /Filed\s+(\d{1,2}\/\d{1,2}\/\d{4})/i.exec(html);
  filing.filed_date = filed ? dateOrNull(filed[1]) : null;
  return filing;
}

/** The titles a filer heading may put before the name ("The Honorable Mr. Jon Tester"), dropped for display. */
export const FILER_HONORIFICS = ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr'] as const;
const LEADING_HONORIFIC = new RegExp(`^(${FILER_HONORIFICS.join('|')})\\.?\\s+`, 'i');

/**
 * "The Honorable Michael F Bennet (Bennet, Michael)" or "The Honorable Lamar Alexander (Former
 * Senator)": the parenthesis holds either "Last, First" or the office.
 */
export function readFilerHeading(heading: string): Pick<
  FilingInfo,
  'filer_name' | 'filer_display_name' | 'filer_status'
> & {
  filer_last_name: string | null;
  filer_first_name: string | null;
} {
  const text = heading.replace(/\s+/g, ' ').trim();
  const paren = /\(([^)]*)\)\s*$/.exec(text);
  const name = (paren ? text.slice(0, paren.index) : text)
    .replace(/^(The\s+)?Honorable\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const inside = paren?.[1]?.trim() ?? '';
  const comma = inside.indexOf(',');
  const isName = comma > 0 && !/senator|candidate|officer|member/i.test(inside);
  const display = name.replace(LEADING_HONORIFIC, '');
  return {
    filer_name: name === '' ? null : name,
    filer_display_name: display === '' ? null : display,
    filer_status: !isName && inside !== '' ? inside : null,
    filer_last_name: isName ? inside.slice(0, comma).trim() : null,
    filer_first_name: isName ? inside.slice(comma + 1).trim() : null,
  };
}

const COLUMN_NAMES: Record<string, string> = {
  '#': 'number',
  'transaction date': 'date',
  owner: 'owner',
  ticker: 'ticker',
  'asset name': 'asset',
  'asset type': 'asset_type',
  type: 'type',
  amount: 'amount',
  comment: 'comment',
};

function readTransactions(html: string, filing: FilingInfo): ParsedDocument {
  const table = transactionsTable(html);
  if (!table) {
    return unreadDocument(SOURCE, 'senate_ptr_page', 'failed', 'no transactions table on the page', filing);
  }
  const header = [...table.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/gi)].map((match) =>
    stripTags(match[1] ?? '').toLowerCase(),
  );
  const columns = header.map((name) => COLUMN_NAMES[name] ?? name);
  const missing = ['date', 'owner', 'ticker', 'asset', 'type', 'amount'].filter(
    (name) => !columns.includes(name),
  );
  if (missing.length > 0) {
    return unreadDocument(
      SOURCE,
      'senate_ptr_page',
      'failed',
      `transactions table lacks column(s) ${missing.join(', ')}`,
      filing,
    );
  }

  const body = /<tbody[^>]*>([\s\S]*?)<\/tbody>/i.exec(table)?.[1] ?? '';
  const outcomes: RowOutcome[] = [];
  for (const rowMatch of body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells = [...(rowMatch[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gi)].map(
      (cell) => cell[1] ?? '',
    );
    const byName: Record<string, string> = {};
    columns.forEach((name, index) => {
      byName[name] = cells[index] ?? '';
    });
    outcomes.push(toTrade(byName, outcomes.length + 1, filing));
  }
  const read = tableRows(outcomes);

  const declared = /\((\d+)\s+transactions?\s+total\)/i.exec(html);
  const declaredCount = declared ? Number(declared[1]) : null;
  if (declaredCount !== null && declaredCount !== outcomes.length) {
    read.warnings.push(
      `the page announces ${declaredCount} transactions but its table has ${outcomes.length} rows`,
    );
  }
  return tableResult(SOURCE, 'senate_ptr_page', filing, read, 'lists none');
}

/** The table captioned "List of transactions added to this report" (or the first striped table). */
function transactionsTable(html: string): string | null {
  const tables = [...html.matchAll(/<table[^>]*>([\s\S]*?)<\/table>/gi)].map((match) => match[1] ?? '');
  return tables.find((table) => /list of transactions/i.test(table)) ?? tables[0] ?? null;
}

function toTrade(cells: Record<string, string>, order: number, filing: FilingInfo): RowOutcome {
  const number = /^\s*(\d+)\s*$/.exec(stripTags(cells.number ?? ''));
  const row = number ? Number(number[1]) : order;
  const text = Object.values(cells).map(stripTags).join(' | ');
  const fields = readRequiredFields({
    type: stripTags(cells.type ?? ''),
    date: stripTags(cells.date ?? ''),
    amount: stripTags(cells.amount ?? ''),
  });
  if (!fields.ok) return rejectedRow(row, fields.reason, text);
  const { kind, date, amount } = fields.value;

  const warnings: string[] = [];
  if (fields.warning) warnings.push(`row ${row}: ${fields.warning}`);
  const ownerText = stripTags(cells.owner ?? '');
  const owner = normalizeOwner(ownerText);
  if (owner === null) warnings.push(`row ${row}: unknown owner "${ownerText}"`);

  // An exchange prints the symbol given up above the one received; both stay apart, and the
  // trade's ticker is the first one named, as every other Senate source records it.
  const cell = splitTickerCell(cells.ticker ?? '');
  const ticker = cell.ticker;
  const asset = parseAssetDescription(joinExchangeParts(cells.asset ?? ''), date);
  const tradeKind = tradeKindFromWording(kind, asset.description);
  const hasOptionTerms = asset.optionType !== null || asset.strikePrice !== null;
  // Bond coupons, maturities and company notes stay readable in the description.
  const description =
    asset.details && !hasOptionTerms ? `${asset.description} (${asset.details})` : asset.description;

  return {
    kind: 'trade',
    warnings,
    trade: {
      row,
      source_row_id: null,
      ticker,
      asset_description: description,
      asset_type: normalizeAssetType(stripTags(cells.asset_type ?? ''), ticker, asset),
      asset_code: null,
      ...kindAndAmountColumns(tradeKind, amount),
      transaction_date: date,
      disclosure_date: filing.filed_date,
      notification_date: null,
      late_notification: null,
      owner,
      option_type: asset.optionType,
      strike_price: asset.strikePrice,
      option_expiry: asset.optionExpiry,
      comment: cleanText(stripTags(cells.comment ?? '')),
      filing_status: filing.is_amendment ? 'Amended' : 'New',
      subholding_of: null,
      location: null,
      exchange_from_ticker: cell.exchangeFrom,
      exchange_to_ticker: cell.exchangeTo,
    },
  };
}

/** Keeps the two halves of an exchange apart in the description ("X (Exchanged) / Y (Received)"). */
function joinExchangeParts(cell: string): string {
  const split = cell.search(/<div/i);
  const name = split === -1 ? cell : cell.slice(0, split);
  const details = split === -1 ? '' : cell.slice(split);
  const parts = name
    .split(/<br\s*\/?>/i)
    .map((part) => part.trim())
    .filter((part) => stripTags(part) !== '');
  return `${parts.join(' / ')}${details}`;
}

function firstMatch(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  return match ? stripTags(match[1] ?? '') : '';
}

function dateOrNull(text: string | undefined): string | null {
  const result = readDate(text ?? '', 'date');
  return result.ok ? result.value : null;
}
