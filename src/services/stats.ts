// GET /stats/summary
import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../domain/dates.js';
import { chamberOfSource } from '../domain/sources.js';
import { countDisclosedSince, summaryCounts } from '../storage/repositories/stats.js';
import type { Database } from '../storage/schema.js';

export async function platformSummary(db: Kysely<Database>, now: Date) {
  const today = todayUtc(now);
  const counts = await summaryCounts(db);
  const last30 = await countDisclosedSince(db, addDays(today, -30));
  const last90 = await countDisclosedSince(db, addDays(today, -90));
  const actions = Object.fromEntries(counts.by_action.map((row) => [row.action, row.trades]));
  return {
    as_of: now.toISOString(),
    total_trades: counts.total_trades,
    total_politicians: counts.total_politicians,
    total_filings: counts.total_filings,
    trades_by_chamber: counts.by_source.map((row) => ({
      chamber: chamberOfSource(row.source) ?? row.source,
      trades: row.trades,
      politicians: row.politicians,
    })),
    buys: actions.buy ?? 0,
    sells: actions.sell ?? 0,
    exchanges: actions.exchange ?? 0,
    trades_disclosed_last_30d: last30.trades,
    politicians_disclosing_last_30d: last30.politicians,
    trades_disclosed_last_90d: last90.trades,
    latest_disclosure_date: counts.latest_disclosure_date,
    earliest_transaction_date: counts.earliest_transaction_date,
    latest_transaction_date: counts.latest_transaction_date,
  };
}
