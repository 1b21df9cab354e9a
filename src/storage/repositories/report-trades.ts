// The trades of a report: finding the stored trades a parsed document's rows match, applying the
// official fields to them, and marking trades an amendment replaced.
import type { Kysely } from 'kysely';
import { chunk } from '../batch.js';
import type { TradeRow } from '../schema/disclosures.js';
import type { Database } from '../schema.js';

export type ReportTrade = Pick<
  TradeRow,
  | 'id'
  | 'politician_id'
  | 'filing_id'
  | 'origin'
  | 'source_key'
  | 'ticker'
  | 'asset_description'
  | 'transaction_date'
  | 'owner'
  | 'trade_action'
  | 'amount_low'
  | 'superseded_by'
>;

const REPORT_TRADE_COLUMNS = [
  'id',
  'politician_id',
  'filing_id',
  'origin',
  'source_key',
  'ticker',
  'asset_description',
  'transaction_date',
  'owner',
  'trade_action',
  'amount_low',
  'superseded_by',
] as const;

/** Trades a set of source keys (own keys or aliases) already identify, by key. */
export async function tradesByKeys(
  db: Kysely<Database>,
  source: string,
  keys: readonly string[],
): Promise<Map<string, ReportTrade>> {
  const found = new Map<string, ReportTrade>();
  for (const batch of chunk([...keys], 500)) {
    if (batch.length === 0) continue;
    const own = await db
      .selectFrom('trades')
      .select(REPORT_TRADE_COLUMNS)
      .where('source', '=', source)
      .where('source_key', 'in', batch)
      .execute();
    for (const trade of own) found.set(trade.source_key, trade);
    const aliased = await db
      .selectFrom('trade_aliases as a')
      .innerJoin('trades as t', 't.id', 'a.trade_id')
      .select(['a.source_key as alias_key', ...REPORT_TRADE_COLUMNS.map((column) => `t.${column}` as const)])
      .where('a.source', '=', source)
      .where('a.source_key', 'in', batch)
      .execute();
    for (const { alias_key, ...trade } of aliased) found.set(alias_key, trade);
  }
  return found;
}

/** Live trades recorded for a filing (by a data set or an earlier parse), in id order. */
export async function liveTradesOfFiling(db: Kysely<Database>, filingId: number): Promise<ReportTrade[]> {
  return db
    .selectFrom('trades')
    .select(REPORT_TRADE_COLUMNS)
    .where('filing_id', '=', filingId)
    .where('superseded_by', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * A member's live trades that no report holds (data sets without report ids, e.g. the House Stock
 * Watcher export) disclosed on a given day: they may be rows of the report filed that day.
 */
export async function unfiledTradesOfMember(
  db: Kysely<Database>,
  source: string,
  politicianId: number,
  disclosureDate: string,
): Promise<ReportTrade[]> {
  return db
    .selectFrom('trades')
    .select(REPORT_TRADE_COLUMNS)
    .where('source', '=', source)
    .where('politician_id', '=', politicianId)
    .where('filing_id', 'is', null)
    .where('disclosure_date', '=', disclosureDate)
    .where('superseded_by', 'is', null)
    .orderBy('id')
    .execute();
}

/** Trade ids some origin already claims (its own rows and its aliases). */
export async function tradesClaimedBy(
  db: Kysely<Database>,
  source: string,
  origin: string,
  tradeIds: readonly number[],
): Promise<Set<number>> {
  const claimed = new Set<number>();
  for (const batch of chunk([...tradeIds], 500)) {
    if (batch.length === 0) continue;
    const own = await db
      .selectFrom('trades')
      .select('id')
      .where('id', 'in', batch)
      .where('origin', '=', origin)
      .execute();
    for (const row of own) claimed.add(row.id);
    const aliased = await db
      .selectFrom('trade_aliases')
      .select('trade_id')
      .where('source', '=', source)
      .where('origin', '=', origin)
      .where('trade_id', 'in', batch)
      .execute();
    for (const row of aliased) claimed.add(row.trade_id);
  }
  return claimed;
}

/** Fields of a trade the official parse sets when it confirms a data set's twin. */
export const OFFICIAL_TRADE_FIELDS = [
  'filing_id',
  'ticker',
  'asset_description',
  'asset_type',
  'trade_type',
  'trade_action',
  'amount_range',
  'amount_low',
  'amount_high',
  'transaction_date',
  'disclosure_date',
  'days_to_disclose',
  'owner',
  'comment',
  'option_type',
  'strike_price',
  'option_expiry',
  'cap_gains_over_200',
  'exchange_from_ticker',
  'exchange_to_ticker',
  // Where the values came from (migration 0066-trade-parse-method).
  'parse_method',
  'parse_confidence',
] as const;
export type OfficialTradeFields = Pick<TradeRow, (typeof OFFICIAL_TRADE_FIELDS)[number]>;

/**
 * Official fields a document may not say (the House cap-gains box, drawn as a picture in the
 * 2022+ PDFs; an exchange's two symbols, which only eFD pages print): null from the document keeps
 * what a data set said.
 */
const KEPT_WHEN_UNSAID: ReadonlySet<keyof OfficialTradeFields> = new Set([
  'cap_gains_over_200',
  'exchange_from_ticker',
  'exchange_to_ticker',
]);

/** Sets the official values on a trade; returns whether anything changed. */
export async function applyOfficialFields(
  db: Kysely<Database>,
  tradeId: number,
  fields: OfficialTradeFields,
  now: string,
): Promise<boolean> {
  const existing = await db
    .selectFrom('trades')
    .select(OFFICIAL_TRADE_FIELDS)
    .where('id', '=', tradeId)
    .executeTakeFirstOrThrow();
  const changes: Partial<OfficialTradeFields> = {};
  for (const field of OFFICIAL_TRADE_FIELDS) {
    if (fields[field] === null && KEPT_WHEN_UNSAID.has(field)) continue;
    if (!sameValue(existing[field], fields[field])) Object.assign(changes, { [field]: fields[field] });
  }
  if (Object.keys(changes).length === 0) return false;
  await db
    .updateTable('trades')
    .set({ ...changes, updated_at: now })
    .where('id', '=', tradeId)
    .execute();
  return true;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  return a === b;
}

export interface MemberTrade extends ReportTrade {
  filed_date: string | null;
  filing_doc_id: string | null;
}

/** A member's live trades of one source outside one filing, with their filing's date. */
export async function liveTradesOfMember(
  db: Kysely<Database>,
  source: string,
  politicianId: number,
  excludeFilingId: number,
): Promise<MemberTrade[]> {
  return db
    .selectFrom('trades as t')
    .leftJoin('filings as f', 'f.id', 't.filing_id')
    .select([
      ...REPORT_TRADE_COLUMNS.map((column) => `t.${column}` as const),
      'f.filed_date',
      'f.source_doc_id as filing_doc_id',
    ])
    .where('t.source', '=', source)
    .where('t.politician_id', '=', politicianId)
    .where('t.superseded_by', 'is', null)
    .where((eb) => eb.or([eb('t.filing_id', 'is', null), eb('t.filing_id', '<>', excludeFilingId)]))
    .orderBy('t.id')
    .execute();
}

export async function supersedeTrade(
  db: Kysely<Database>,
  oldTradeId: number,
  newTradeId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('trades')
    .set({ superseded_by: newTradeId, updated_at: now })
    .where('id', '=', oldTradeId)
    .where('superseded_by', 'is', null)
    .execute();
}
