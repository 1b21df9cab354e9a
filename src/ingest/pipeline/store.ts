// Stores one parsed official document: the filing as the document describes it, and its rows as
// trades keyed by the source's own ids ("<document id>#<row>"). A row a data set already brought
// for the same report becomes that trade's alias (the official values win); a new row is a new
// trade with its trade.created event, written in the same transaction.
import type { Kysely } from 'kysely';
import { daysBetween, todayUtc } from '../../domain/dates.js';
import { fillKnownAtIngest } from '../../market/ingest-fields.js';
import { toTradeResource } from '../../resources/trade.js';
import { refreshTradeCounts } from '../../storage/repositories/filings.js';
import { recordOfficialFiling } from '../../storage/repositories/official-filings.js';
import {
  applyOfficialFields,
  liveTradesOfFiling,
  type OfficialTradeFields,
  type ReportTrade,
  tradesByKeys,
  tradesClaimedBy,
  unfiledTradesOfMember,
} from '../../storage/repositories/report-trades.js';
import { insertReviewItems } from '../../storage/repositories/review.js';
import { insertAlias, insertTrades } from '../../storage/repositories/trade-writes.js';
import { findTrades } from '../../storage/repositories/trades.js';
import type { FilingRow, NewTrade } from '../../storage/schema/disclosures.js';
import type { Database } from '../../storage/schema.js';
import { emitTypedEvent, eventFor } from '../../webhooks/events.js';
import type { ListedDocument } from '../sources/connector.js';
import type { ParsedDocument, ParsedTrade, TradeSource } from '../sources/document.js';
import type { AmendmentStyle } from '../sources/source-definition.js';
import { type ComparableTrade, FIELDS_COMPARED, pairRows } from './pairing.js';
import { reviewItemsOf } from './review-items.js';

/** A data set's row and the official row are one trade when they agree on all but at most one field. */
const TWIN_MINIMUM = FIELDS_COMPARED - 1;

/** What an amendment still has to find: House amended rows (their keys), or the eFD report it restates. */
export type PendingAmendment =
  | { kind: 'rows'; keys: string[] }
  | { kind: 'report'; reportDate: string; number: number | null };

export interface StoredDocument {
  filing: FilingRow;
  newTradeIds: number[];
  /** Rows a data set already had: aliased, not created. */
  twins: number;
  /** Rows already stored under their official key whose values changed. */
  updated: number;
  unchanged: number;
  /** Trades a data set recorded for this report that no official row confirms (kept as they are). */
  unconfirmed: number;
  pendingAmendment: PendingAmendment | null;
  /** Rows read from a scan added to the review queue (not trades until a person decides). */
  waitingReview: number;
}

export interface DocumentToStore {
  source: TradeSource;
  /** Origin recorded on the trades this connector creates and on its aliases. */
  origin: string;
  filing: FilingRow;
  listed: ListedDocument;
  parsed: ParsedDocument;
  politicianId: number | null;
  rawSha256: string | null;
  /** The ingest run (scheduler_runs.id) storing it, named on the events it emits. */
  runId?: number;
  /** How the source's amendments say what they amend. */
  amendments: AmendmentStyle;
}

export function officialKey(docId: string, row: number): string {
  return `${docId}#${row}`;
}

export async function storeParsedDocument(
  db: Kysely<Database>,
  document: DocumentToStore,
  now: Date,
): Promise<StoredDocument> {
  const stamp = now.toISOString();
  const { parsed, listed, source } = document;
  const info = parsed.filing;
  const filing = await recordOfficialFiling(
    db,
    document.filing.id,
    {
      politicianId: document.politicianId,
      filerName: listed.filerName ?? info.filer_name,
      filedDate: info.filed_date ?? listed.filedDate,
      url: listed.url,
      isPaper: info.is_paper || listed.isPaper,
      rawSha256: document.rawSha256,
      parseStatus: parsed.status,
      parseReason: parsed.reason,
      isAmendment: info.is_amendment || listed.isAmendment,
      amendmentNumber: info.amendment_number,
      reportDate: info.report_date,
    },
    stamp,
  );
  const outcome: StoredDocument = {
    filing,
    newTradeIds: [],
    twins: 0,
    updated: 0,
    unchanged: 0,
    unconfirmed: 0,
    pendingAmendment: null,
    waitingReview: 0,
  };
  // Rows read from a scan that the OCR stage is not sure of wait for a person (review.ts): kept
  // in the review queue, not among the trades, so nothing serves or announces them yet.
  outcome.waitingReview = await insertReviewItems(db, reviewItemsOf(parsed, listed.docId, filing.id, stamp));
  const served = parsed.trades.filter((trade) => trade.needs_review !== true);
  if (served.length === 0) return outcome;
  const politicianId = filing.politician_id;
  if (politicianId === null) throw new Error(`filing ${filing.id} has trades but no politician`);

  const rows = keyedRows(listed.docId, served);
  const known = await tradesByKeys(
    db,
    source,
    rows.map((row) => row.key),
  );
  const fresh = rows.filter((row) => !known.has(row.key));
  const twins = await findTwins(db, document, filing, fresh, known);
  const pending: NewTrade[] = [];
  for (const row of rows) {
    const fields = officialFields(row.trade, filing);
    const existing = known.get(row.key);
    if (existing) {
      if (await applyOfficialFields(db, existing.id, fields, stamp)) outcome.updated += 1;
      else outcome.unchanged += 1;
      continue;
    }
    const twin = twins.pairs.get(row.key);
    if (twin) {
      await insertAlias(db, { source, sourceKey: row.key, tradeId: twin.id, origin: document.origin });
      await applyOfficialFields(db, twin.id, fields, stamp);
      outcome.twins += 1;
      continue;
    }
    pending.push({
      ...fields,
      politician_id: politicianId,
      source,
      source_key: row.key,
      origin: document.origin,
      is_ma_affected: 0,
      created_at: stamp,
      updated_at: stamp,
    });
  }
  outcome.unconfirmed = twins.unpaired;
  outcome.newTradeIds = await insertTrades(db, pending);
  // Sector, industry and the closes on its dates, where known now, go out with trade.created.
  await fillKnownAtIngest(db, outcome.newTradeIds, now);
  await emitTradeCreated(db, outcome.newTradeIds, now, document.runId);
  await refreshTradeCounts(db, [filing.id]);
  outcome.pendingAmendment = pendingAmendmentOf(document.amendments, parsed, rows);
  return outcome;
}

interface KeyedRow {
  key: string;
  trade: ParsedTrade;
}

/** Rows keyed by document and row; a row number printed twice keeps both rows (".2" on the second). */
function keyedRows(docId: string, trades: readonly ParsedTrade[]): KeyedRow[] {
  const seen = new Map<string, number>();
  return trades.map((trade) => {
    const base = officialKey(docId, trade.row);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { key: count === 1 ? base : `${base}.${count}`, trade };
  });
}

function officialFields(trade: ParsedTrade, filing: FilingRow): OfficialTradeFields {
  const disclosureDate = trade.disclosure_date ?? filing.filed_date;
  const days =
    disclosureDate !== null && disclosureDate >= trade.transaction_date
      ? daysBetween(trade.transaction_date, disclosureDate)
      : null;
  return {
    filing_id: filing.id,
    ticker: trade.ticker,
    asset_description: trade.asset_description,
    asset_type: trade.asset_type,
    trade_type: trade.trade_type,
    trade_action: trade.trade_action,
    amount_range: trade.amount_range,
    amount_low: trade.amount_low,
    amount_high: trade.amount_high,
    transaction_date: trade.transaction_date,
    disclosure_date: disclosureDate,
    days_to_disclose: days,
    owner: trade.owner,
    comment: trade.comment,
    option_type: trade.option_type,
    strike_price: trade.strike_price,
    option_expiry: trade.option_expiry,
    cap_gains_over_200: capGainsFlag(trade.cap_gains_over_200),
    exchange_from_ticker: trade.exchange_from_ticker ?? null,
    exchange_to_ticker: trade.exchange_to_ticker ?? null,
    parse_method: trade.parse_method ?? 'text',
    parse_confidence: lowestConfidence(trade),
  };
}

/** A row read by OCR: its least sure field's confidence; null for a row read from text. */
export function lowestConfidence(trade: Pick<ParsedTrade, 'confidence'>): number | null {
  const values = Object.values(trade.confidence ?? {});
  return values.length === 0 ? null : Math.min(...values);
}

/** The cap-gains box as stored: 1 ticked, 0 empty, null unknown. */
function capGainsFlag(value: boolean | null | undefined): number | null {
  return value === undefined || value === null ? null : Number(value);
}

/** The fields twins and amendments are paired on, from a parsed row or a stored trade alike. */
export function comparable(
  trade: Pick<
    ReportTrade,
    'ticker' | 'asset_description' | 'transaction_date' | 'owner' | 'trade_action' | 'amount_low'
  >,
): ComparableTrade {
  return {
    ticker: trade.ticker,
    assetDescription: trade.asset_description,
    transactionDate: trade.transaction_date,
    owner: trade.owner,
    action: trade.trade_action,
    amountLow: trade.amount_low,
  };
}

/**
 * Trades a data set recorded for this report that the official rows describe, paired one-to-one,
 * exact agreement first: the trades of the same filing (agreeing on at least 4 of 5 fields), then
 * the member's trades a set without report ids disclosed on the filing's date (all 5 fields, the
 * importer's own rule for such sets). Trades the official origin already claims, or that are
 * already some official row's trade, are not candidates.
 */
async function findTwins(
  db: Kysely<Database>,
  document: DocumentToStore,
  filing: FilingRow,
  fresh: readonly KeyedRow[],
  known: ReadonlyMap<string, ReportTrade>,
): Promise<{ pairs: Map<string, ReportTrade>; unpaired: number }> {
  const pairs = new Map<string, ReportTrade>();
  const taken = new Set([...known.values()].map((trade) => trade.id));
  const available = async (trades: readonly ReportTrade[]) => {
    const claimed = await tradesClaimedBy(
      db,
      document.source,
      document.origin,
      trades.map((trade) => trade.id),
    );
    return trades.filter((trade) => !taken.has(trade.id) && !claimed.has(trade.id));
  };
  const pair = (rows: readonly KeyedRow[], candidates: readonly ReportTrade[], minimum: number) => {
    const matched = pairRows(
      rows.map((row) => comparable(row.trade)),
      candidates.map(comparable),
      minimum,
    );
    for (const match of matched) {
      const row = rows[match.left];
      const trade = candidates[match.right];
      if (row && trade) pairs.set(row.key, trade);
    }
    return matched.length;
  };
  const sameReport = await available(await liveTradesOfFiling(db, filing.id));
  const paired = fresh.length > 0 ? pair(fresh, sameReport, TWIN_MINIMUM) : 0;
  const rest = fresh.filter((row) => !pairs.has(row.key));
  if (rest.length > 0 && filing.politician_id !== null && filing.filed_date !== null) {
    const unfiled = await available(
      await unfiledTradesOfMember(db, document.source, filing.politician_id, filing.filed_date),
    );
    if (unfiled.length > 0) pair(rest, unfiled, FIELDS_COMPARED);
  }
  return { pairs, unpaired: sameReport.length - paired };
}

export async function emitTradeCreated(
  db: Kysely<Database>,
  ids: readonly number[],
  now: Date,
  runId: number | undefined,
): Promise<void> {
  if (ids.length === 0) return;
  const records = await findTrades(
    db,
    { ids, includeSuperseded: true },
    { column: 'id', direction: 'asc' },
    { limit: ids.length, offset: 0 },
  );
  const today = todayUtc(now);
  const stamp = now.toISOString();
  for (const record of records) {
    await emitTypedEvent(db, eventFor('trade.created', toTradeResource(record, today)), stamp, { runId });
  }
}

/**
 * A restated report (eFD): an "(Amendment N)" page restates the report filed on its title's date.
 * Amended rows (House): rows whose Filing Status is "Amended" replace rows of an earlier report.
 */
function pendingAmendmentOf(
  style: AmendmentStyle,
  parsed: ParsedDocument,
  rows: readonly KeyedRow[],
): PendingAmendment | null {
  if (style === 'restated-report') {
    const reportDate = parsed.filing.report_date;
    if (!parsed.filing.is_amendment || reportDate === null) return null;
    return { kind: 'report', reportDate, number: parsed.filing.amendment_number };
  }
  if (style === 'amended-rows') {
    const keys = rows
      .filter((row) => row.trade.filing_status?.toLowerCase() === 'amended')
      .map((row) => row.key);
    return keys.length > 0 ? { kind: 'rows', keys } : null;
  }
  return null;
}
