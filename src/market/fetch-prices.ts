// What `enrich` asks the providers for: the symbols trades need and the store has no series of.
// Every attempt is recorded (a symbol no provider knows is not asked again for `refetchDays`), and
// what arrives is stored and checked like an imported file. Keeping known symbols current is the
// daily price job's (price-refresh.ts).
import type { Kysely } from 'kysely';
import { addDays } from '../domain/dates.js';
import { fetchesOf, seriesOfSymbols } from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { checkPriceQuality } from './import-prices.js';
import type { PriceChain } from './price-chain.js';

export interface FetchReport {
  asked: number;
  fetched: number;
  notFound: number;
  errors: Array<{ symbol: string; error: string }>;
  bars: number;
}

/** Symbols recently found unknown (status not_found within `refetchDays`): not asked again yet. */
export async function recentlyUnknown(
  db: Kysely<Database>,
  symbols: readonly string[],
  today: string,
  refetchDays: number,
): Promise<Set<string>> {
  const retryAfter = addDays(today, -refetchDays);
  return new Set(
    (await fetchesOf(db, symbols))
      .filter((fetch) => fetch.status === 'not_found' && fetch.fetched_at.slice(0, 10) > retryAfter)
      .map((fetch) => fetch.symbol),
  );
}

export async function fetchMissingPrices(
  db: Kysely<Database>,
  chain: PriceChain,
  symbols: readonly string[],
  options: { now: Date; refetchDays: number; progress?: (done: number, total: number) => void },
): Promise<FetchReport> {
  const report: FetchReport = { asked: 0, fetched: 0, notFound: 0, errors: [], bars: 0 };
  const stamp = options.now.toISOString();
  const priced = new Set((await seriesOfSymbols(db, symbols)).map((meta) => meta.symbol));
  // Errors (timeouts, outages) are retried on the next run; a symbol without data waits.
  const unknown = await recentlyUnknown(db, symbols, stamp.slice(0, 10), options.refetchDays);
  const wanted = symbols.filter((symbol) => !priced.has(symbol) && !unknown.has(symbol));
  const fetched: string[] = [];
  for (const [index, symbol] of wanted.entries()) {
    report.asked += 1;
    const outcome = await chain.refreshSymbol(db, symbol, { historyFrom: null, stamp });
    if (outcome.kind === 'not_found') report.notFound += 1;
    else if (outcome.kind === 'failed') report.errors.push({ symbol, error: outcome.error });
    else if (outcome.bars > 0) {
      report.fetched += 1;
      report.bars += outcome.bars;
      fetched.push(symbol);
    } else report.notFound += 1;
    options.progress?.(index + 1, wanted.length);
  }
  await checkPriceQuality(db, fetched, stamp);
  return report;
}
