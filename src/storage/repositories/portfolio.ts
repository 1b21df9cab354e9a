// Reads of reconstructed portfolios (written by the enrichment job).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export async function holdingsOf(
  db: Kysely<Database>,
  politicianId: number,
  options: { status?: 'open' | 'closed'; valueBasis?: 'market' | 'cost' } = {},
) {
  let query = db.selectFrom('portfolio_holdings').selectAll().where('politician_id', '=', politicianId);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.valueBasis) query = query.where('value_basis', '=', options.valueBasis);
  // Open holdings first, largest first; closed ones by their last trade.
  return query
    .orderBy('status', 'desc')
    .orderBy('value_mid', 'desc')
    .orderBy('last_trade_date', 'desc')
    .orderBy('ticker')
    .execute();
}

export type HoldingRecord = Awaited<ReturnType<typeof holdingsOf>>[number];

export async function portfolioComputedAt(
  db: Kysely<Database>,
  politicianId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('politician_stats')
    .select('computed_at')
    .where('politician_id', '=', politicianId)
    .executeTakeFirst();
  return row?.computed_at ?? null;
}
