// Reads and the one write of the fields a trade gets when it is ingested (market/ingest-fields.ts).
import type { Kysely } from 'kysely';
import { readInBatches } from '../batch.js';
import type { Database } from '../schema.js';
import { type TradeValues, updateTradesById } from './trade-updates.js';

export async function tradesForIngestFields(db: Kysely<Database>, ids: readonly number[]) {
  return readInBatches(ids, (batch) =>
    db
      .selectFrom('trades')
      .select(['id', 'ticker', 'asset_type', 'transaction_date', 'disclosure_date'])
      .where('id', 'in', batch)
      .execute(),
  );
}

/** Sector and industry of the given tickers, from the company directory. */
export async function classificationOf(
  db: Kysely<Database>,
  symbols: readonly string[],
): Promise<Map<string, { sector: string | null; industry: string | null }>> {
  const rows = await readInBatches([...new Set(symbols)], (batch) =>
    db
      .selectFrom('companies')
      .select(['ticker', 'sector', 'industry'])
      .where('ticker', 'in', batch)
      .execute(),
  );
  return new Map(rows.map((row) => [row.ticker, { sector: row.sector, industry: row.industry }]));
}

/**
 * The benchmark's trading days from `from` on (every source), with its first day: over dates on
 * or after `from` this calendar answers exactly as the whole one does.
 */
export async function benchmarkDaysFrom(
  db: Kysely<Database>,
  symbol: string,
  from: string,
): Promise<string[]> {
  const [days, first] = await Promise.all([
    db
      .selectFrom('price_bars')
      .select('date')
      .distinct()
      .where('symbol', '=', symbol)
      .where('date', '>=', from)
      .execute(),
    db
      .selectFrom('price_bars')
      .select((eb) => eb.fn.min('date').as('first'))
      .where('symbol', '=', symbol)
      .executeTakeFirst(),
  ]);
  const result = days.map((row) => row.date);
  if (first?.first) result.push(first.first);
  return result;
}

const INGEST_FIELD_COLUMNS = {
  market_symbol: 'text',
  sector: 'text',
  industry: 'text',
  price_on_trade_date: 'double precision',
  price_on_disclosure: 'double precision',
} as const;

export async function writeIngestFields(
  db: Kysely<Database>,
  rows: ReadonlyArray<TradeValues<keyof typeof INGEST_FIELD_COLUMNS>>,
): Promise<void> {
  await updateTradesById(db, INGEST_FIELD_COLUMNS, rows);
}
