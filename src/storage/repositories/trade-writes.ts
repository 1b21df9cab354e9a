// Writes of trades by importers and connectors: identity lookups, inserts, merges and aliases.
import type { Kysely } from 'kysely';
import { daysBetween } from '../../domain/dates.js';
import { chunk, rowsPerInsert } from '../batch.js';
import type { NewTrade, TradeRow } from '../schema/disclosures.js';
import type { Database } from '../schema.js';
import { withQuality } from './quality.js';

/** The fields an importer may complete on an existing trade (never overwriting a known value). */
export const FILLABLE_FIELDS = [
  'filing_id',
  'disclosure_date',
  'days_to_disclose',
  'asset_type',
  'owner',
  'comment',
  'option_type',
  'strike_price',
  'option_expiry',
  'cap_gains_over_200',
] as const;

export type FillableField = (typeof FILLABLE_FIELDS)[number];
export type KnownTrade = Pick<
  TradeRow,
  | 'id'
  | 'origin'
  | 'politician_id'
  | 'transaction_date'
  | 'ticker'
  | 'trade_action'
  | 'amount_low'
  | FillableField
> & {
  filing_doc_id: string | null;
};

export interface SourceIdentities {
  /** Every known key of the source (own keys and aliases) to its trade. */
  byKey: Map<string, KnownTrade>;
  /** Trades of the source by member, dates, ticker, action and amount (see twinContentKey). */
  byContent: Map<string, KnownTrade[]>;
  /** Origins that already claim each trade (its own origin and its aliases' origins). */
  claims: Map<number, Set<string>>;
}

export async function loadSourceIdentities(db: Kysely<Database>, source: string): Promise<SourceIdentities> {
  const rows = await db
    .selectFrom('trades')
    .leftJoin('filings', 'filings.id', 'trades.filing_id')
    .select((eb) => [
      'trades.id',
      'trades.source_key',
      'trades.origin',
      'trades.politician_id',
      'trades.transaction_date',
      // A trade whose ticker was resolved from its description is still the filed one for
      // recognizing its twin in another data set (which files it as N/A too).
      eb.fn.coalesce('trades.filed_ticker', 'trades.ticker').as('ticker'),
      'trades.trade_action',
      'trades.amount_low',
      'trades.filing_id',
      'trades.disclosure_date',
      'trades.days_to_disclose',
      'trades.asset_type',
      'trades.owner',
      'trades.comment',
      'trades.option_type',
      'trades.strike_price',
      'trades.option_expiry',
      'trades.cap_gains_over_200',
      'filings.source_doc_id as filing_doc_id',
    ])
    .where('trades.source', '=', source)
    .execute();
  const byKey = new Map<string, KnownTrade>();
  const byId = new Map<number, KnownTrade>();
  const claims = new Map<number, Set<string>>();
  const identities: SourceIdentities = { byKey, byContent: new Map(), claims };
  for (const { source_key, ...trade } of rows) {
    byId.set(trade.id, trade);
    addIdentity(identities, source_key, trade);
  }
  const aliases = await db
    .selectFrom('trade_aliases')
    .select(['source_key', 'trade_id', 'origin'])
    .where('source', '=', source)
    .execute();
  for (const alias of aliases) {
    const trade = byId.get(alias.trade_id);
    if (!trade) continue;
    byKey.set(alias.source_key, trade);
    claims.get(trade.id)?.add(alias.origin);
  }
  return identities;
}

function addIdentity(identities: SourceIdentities, key: string, trade: KnownTrade): void {
  identities.byKey.set(key, trade);
  identities.claims.set(trade.id, new Set([trade.origin]));
  const content = twinContentKey(
    trade.politician_id,
    trade.transaction_date,
    trade.ticker,
    trade.trade_action,
    trade.amount_low,
  );
  const list = identities.byContent.get(content) ?? [];
  list.push(trade);
  identities.byContent.set(content, list);
}

/** Adds a just-inserted trade to the identities loaded before it existed. */
export function rememberTrade(
  identities: SourceIdentities,
  id: number,
  trade: NewTrade,
  filingDocIds: ReadonlyMap<number, string>,
): void {
  addIdentity(identities, trade.source_key, {
    id,
    origin: trade.origin,
    politician_id: trade.politician_id,
    transaction_date: trade.transaction_date,
    ticker: trade.ticker,
    trade_action: trade.trade_action,
    amount_low: trade.amount_low ?? null,
    filing_id: trade.filing_id ?? null,
    disclosure_date: trade.disclosure_date ?? null,
    days_to_disclose: trade.days_to_disclose ?? null,
    asset_type: trade.asset_type ?? null,
    owner: trade.owner ?? null,
    comment: trade.comment ?? null,
    option_type: trade.option_type ?? null,
    strike_price: trade.strike_price ?? null,
    option_expiry: trade.option_expiry ?? null,
    cap_gains_over_200: trade.cap_gains_over_200 ?? null,
    filing_doc_id: trade.filing_id ? (filingDocIds.get(trade.filing_id) ?? null) : null,
  });
}

/** What two descriptions of one transaction must share to be considered the same trade. */
export function twinContentKey(
  politicianId: number,
  transactionDate: string,
  ticker: string,
  action: string,
  amountLow: number | null,
): string {
  return `${politicianId}|${transactionDate}|${ticker}|${action}|${amountLow ?? ''}`;
}

export async function insertTrades(db: Kysely<Database>, trades: readonly NewTrade[]): Promise<number[]> {
  const ids: number[] = [];
  // Every trade is stored with its identity match and quality flags (repositories/quality.ts).
  for (const batch of chunk(await withQuality(db, trades), rowsPerInsert(33))) {
    const inserted = await db
      .insertInto('trades')
      .values([...batch])
      .returning('id')
      .execute();
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}

export async function fillTrade(
  db: Kysely<Database>,
  id: number,
  fill: Partial<Pick<TradeRow, FillableField>>,
  now: string,
): Promise<void> {
  await db
    .updateTable('trades')
    .set({ ...fill, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Gives a trade the label its filing's wording states (an exercise filed as a Purchase). */
export async function relabelTrade(
  db: Kysely<Database>,
  id: number,
  label: Pick<TradeRow, 'trade_type' | 'trade_action'>,
  now: string,
): Promise<void> {
  await db
    .updateTable('trades')
    .set({ ...label, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function insertAlias(
  db: Kysely<Database>,
  alias: { source: string; sourceKey: string; tradeId: number; origin: string },
): Promise<void> {
  await db
    .insertInto('trade_aliases')
    .values({
      source: alias.source,
      source_key: alias.sourceKey,
      trade_id: alias.tradeId,
      origin: alias.origin,
    })
    .execute();
}

/**
 * Gives trades without a disclosure date their filing's date, where the filing has one that is not
 * before the transaction. Returns how many trades were dated.
 */
export async function backfillDisclosureDates(
  db: Kysely<Database>,
  filingIds: Iterable<number>,
  stamp: string,
): Promise<number> {
  let dated = 0;
  for (const ids of chunk([...filingIds], 500)) {
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom('trades as t')
      .innerJoin('filings as f', 'f.id', 't.filing_id')
      .select(['t.id', 't.transaction_date', 'f.filed_date'])
      .where('t.filing_id', 'in', ids)
      .where('t.disclosure_date', 'is', null)
      .where('f.filed_date', 'is not', null)
      .whereRef('f.filed_date', '>=', 't.transaction_date')
      .execute();
    for (const row of rows) {
      const filed = row.filed_date as string;
      await db
        .updateTable('trades')
        .set({
          disclosure_date: filed,
          days_to_disclose: daysBetween(row.transaction_date, filed),
          updated_at: stamp,
        })
        .where('id', '=', row.id)
        .execute();
      dated += 1;
    }
  }
  return dated;
}
