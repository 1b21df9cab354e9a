// The fields computed across trades, refreshed for every trade (cheap in memory, and any new
// trade or gain can move its peers): sector and industry from the company directory, then
// peer_z_score and conviction_score. Only rows whose values changed are written.
import type { Kysely } from 'kysely';
import { underJurisdiction } from '../domain/committee-sectors.js';
import { companySymbol } from '../market/priced-symbols.js';
import { sectorsBySymbol } from '../storage/repositories/companies.js';
import { committeesByMember, signalRows, writeSignals } from '../storage/repositories/enrichment.js';
import type { Database } from '../storage/schema.js';
import { convictionScores, peerZScores, type SignalTrade } from './trade-signals.js';

function same(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) < 1e-9;
}

export async function refreshSignals(
  db: Kysely<Database>,
): Promise<{ updated: number; members: Set<number> }> {
  const [rows, companies, committees] = await Promise.all([
    signalRows(db),
    sectorsBySymbol(db),
    committeesByMember(db),
  ]);
  const classified = rows.map((row) => {
    const symbol = companySymbol(row.market_symbol, row.ticker, row.transaction_date);
    const company = symbol === null ? undefined : companies.get(symbol);
    return { row, symbol, sector: company?.sector ?? null, industry: company?.industry ?? null };
  });
  const trades: SignalTrade[] = classified.map(({ row, symbol, sector, industry }) => ({
    id: row.id,
    politicianId: row.politician_id,
    symbol,
    action: row.trade_action,
    transactionDate: row.transaction_date,
    daysToDisclose: row.days_to_disclose,
    amountLow: row.amount_low,
    amountHigh: row.amount_high,
    gain30d: row.gain_30d,
    committeeRelevant: underJurisdiction(committees.get(row.politician_id) ?? [], sector, industry),
  }));
  const peers = peerZScores(trades);
  const conviction = convictionScores(trades);
  const changed: Array<{
    id: number;
    sector: string | null;
    industry: string | null;
    peer_z_score: number | null;
    conviction_score: number | null;
  }> = [];
  const members = new Set<number>();
  for (const { row, sector, industry } of classified) {
    const next = {
      id: row.id,
      sector,
      industry,
      peer_z_score: peers.get(row.id) ?? null,
      conviction_score: conviction.get(row.id)?.total ?? null,
    };
    if (
      next.sector !== row.sector ||
      next.industry !== row.industry ||
      !same(next.peer_z_score, row.peer_z_score) ||
      !same(next.conviction_score, row.conviction_score)
    ) {
      changed.push(next);
      members.add(row.politician_id);
    }
  }
  await db.transaction().execute((trx) => writeSignals(trx, changed));
  return { updated: changed.length, members };
}
