// Turns one trade-set row into a trade ready to store, or says why it cannot be one.
import { createHash } from 'node:crypto';
import { parseAmountRange } from '../../domain/amount.js';
import { normalizeAssetType, parseAssetDescription } from '../../domain/asset.js';
import { daysBetween, parseDate } from '../../domain/dates.js';
import { normalizeOwner } from '../../domain/owner.js';
import { normalizeTicker, splitTickerCell } from '../../domain/ticker.js';
import { normalizeTradeType, tradeKindFromWording } from '../../domain/trade-type.js';
import type { TradeSetRow } from './read.js';

export interface NormalizedTrade {
  ticker: string;
  assetDescription: string;
  assetType: string | null;
  tradeType: string;
  tradeAction: string;
  /**
   * The action the form's box gives, before the wording relabels it (an "Exercised ..." Purchase):
   * another set that lost the wording files the same trade under this one.
   */
  filedAction: string;
  amountRange: string;
  amountLow: number;
  amountHigh: number | null;
  transactionDate: string;
  disclosureDate: string | null;
  daysToDisclose: number | null;
  owner: string | null;
  comment: string | null;
  optionType: string | null;
  strikePrice: number | null;
  optionExpiry: string | null;
  /** The House cap-gains box as the set gives it (null: not given). */
  capGainsOver200: boolean | null;
  /** An exchange's symbols when the ticker cell names two (domain/ticker.ts, splitTickerCell). */
  exchangeFromTicker: string | null;
  exchangeToTicker: string | null;
  /** Stable digest of what the row says, used with the report id to identify it. */
  contentDigest: string;
}

export type RowOutcome =
  | { kind: 'trade'; trade: NormalizedTrade }
  /** The row only announces a filing (e.g. a paper PTR placeholder): record the filing, no trade. */
  | { kind: 'filing-only'; status: 'paper'; reason: string }
  | { kind: 'skip'; reason: string };

const EARLIEST_YEAR = 2000;

export function normalizeRow(row: TradeSetRow, today: string): RowOutcome {
  if (isPaperPlaceholder(row)) {
    return {
      kind: 'filing-only',
      status: 'paper',
      reason: 'paper filing: its transactions are only in the scanned document',
    };
  }
  if (row.filerName.trim() === '') return { kind: 'skip', reason: 'no filer name' };

  const typed = normalizeTradeType(row.type);
  if (!typed) return { kind: 'skip', reason: `unknown transaction type "${row.type ?? ''}"` };

  const transactionDate = parseDate(row.transactionDate);
  if (!transactionDate) return { kind: 'skip', reason: 'missing or malformed transaction date' };
  if (!plausible(transactionDate, today)) return { kind: 'skip', reason: 'implausible transaction date' };

  let disclosureDate: string | null = null;
  if (row.filedDate !== null) {
    disclosureDate = parseDate(row.filedDate);
    if (!disclosureDate) return { kind: 'skip', reason: 'malformed disclosure date' };
    if (!plausible(disclosureDate, today)) return { kind: 'skip', reason: 'implausible disclosure date' };
    if (disclosureDate < transactionDate)
      return { kind: 'skip', reason: 'transaction date after disclosure date' };
  }

  const amount = parseAmountRange(row.amount);
  if (!amount) return { kind: 'skip', reason: 'amount is not a disclosure bracket' };

  const cell = splitTickerCell(row.ticker);
  const ticker = cell.ticker;
  const asset = parseAssetDescription(row.assetDescription, transactionDate);
  const kind = tradeKindFromWording(typed, asset.description);
  const optionDetails = asset.optionType !== null;
  const assetDescription =
    asset.details && !optionDetails ? `${asset.description} (${asset.details})` : asset.description;
  const owner = normalizeOwner(row.owner);
  const comment = cleanComment(row.comment);

  const trade: NormalizedTrade = {
    ticker,
    assetDescription,
    assetType: normalizeAssetType(row.assetType, ticker, asset),
    tradeType: kind.label,
    tradeAction: kind.action,
    filedAction: typed.action,
    amountRange: amount.range,
    amountLow: amount.low,
    amountHigh: amount.high,
    transactionDate,
    disclosureDate,
    daysToDisclose: disclosureDate ? daysBetween(transactionDate, disclosureDate) : null,
    owner,
    comment,
    optionType: asset.optionType,
    strikePrice: asset.strikePrice,
    optionExpiry: asset.optionExpiry,
    capGainsOver200: row.capGainsOver200 ?? null,
    exchangeFromTicker: cell.exchangeFrom,
    exchangeToTicker: cell.exchangeTo,
    contentDigest: '',
  };
  // What the row says as filed (the ticker cell and the form's type, not what is read from them),
  // so a row keeps its key when the reading improves and a re-import finds it again.
  trade.contentDigest = digest([
    transactionDate,
    owner ?? '',
    normalizeTicker(row.ticker),
    assetDescription.toLowerCase(),
    typed.label,
    String(amount.low),
  ]);
  return { kind: 'trade', trade };
}

function isPaperPlaceholder(row: TradeSetRow): boolean {
  if (row.assetType && /pdf disclosed filing/i.test(row.assetType)) return true;
  return row.isPaper && row.type === null && row.transactionDate === null;
}

function plausible(date: string, today: string): boolean {
  return Number(date.slice(0, 4)) >= EARLIEST_YEAR && date <= today;
}

function cleanComment(raw: string | null): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  return text === '' || text === '--' ? null : text;
}

export function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u001f')).digest('hex').slice(0, 16);
}
