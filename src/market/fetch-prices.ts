// Asks the price provider for the symbols trades need and the store lacks, records every
// attempt (a symbol the provider does not know is not asked again for `refetchDays`), and
// stores what arrives like an imported Stooq file.
import type { Kysely } from 'kysely';
import { addDays } from '../domain/dates.js';
import { fetchesOf, recordFetch, seriesOfSymbols } from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { checkPriceQuality, writeSeries } from './import-prices.js';
import { PriceFormatError, parsePriceFile } from './price-files.js';
import { type PriceProvider, ProviderError } from './provider.js';

export interface FetchReport {
  asked: number;
  fetched: number;
  notFound: number;
  errors: Array<{ symbol: string; error: string }>;
  bars: number;
}

export async function fetchMissingPrices(
  db: Kysely<Database>,
  provider: PriceProvider,
  symbols: readonly string[],
  options: { now: Date; refetchDays: number; progress?: (done: number, total: number) => void },
): Promise<FetchReport> {
  const report: FetchReport = { asked: 0, fetched: 0, notFound: 0, errors: [], bars: 0 };
  const stamp = options.now.toISOString();
  const priced = new Set((await seriesOfSymbols(db, symbols)).map((meta) => meta.symbol));
  const retryAfter = addDays(stamp.slice(0, 10), -options.refetchDays);
  const recent = new Set(
    (await fetchesOf(db, symbols))
      // Errors (timeouts, outages) are retried on the next run; a symbol without data waits.
      .filter((fetch) => fetch.status !== 'error' && fetch.fetched_at.slice(0, 10) > retryAfter)
      .map((fetch) => fetch.symbol),
  );
  const wanted = symbols.filter((symbol) => !priced.has(symbol) && !recent.has(symbol));
  const fetched: string[] = [];
  for (const [index, symbol] of wanted.entries()) {
    report.asked += 1;
    try {
      const result = await provider.fetchDaily(symbol);
      if (result.status === 'not_found') {
        report.notFound += 1;
        await recordFetch(db, {
          symbol,
          fetched_at: stamp,
          status: 'not_found',
          bars: 0,
          detail: result.reason,
        });
        continue;
      }
      const parsed = parsePriceFile(result.text, `${symbol}.us.txt`, symbol);
      const series = parsed.series.find((one) => one.symbol === symbol) ?? parsed.series[0];
      if (!series) {
        report.notFound += 1;
        await recordFetch(db, { symbol, fetched_at: stamp, status: 'not_found', bars: 0, detail: 'no bars' });
        continue;
      }
      await db.transaction().execute(async (trx) => {
        await writeSeries(
          trx,
          {
            symbol,
            source: provider.name,
            format: parsed.format,
            closeBasis: parsed.closeBasis,
            origin: 'provider',
            parsed: { ...series, symbol },
          },
          stamp,
        );
        await recordFetch(trx, {
          symbol,
          fetched_at: stamp,
          status: 'ok',
          bars: series.bars.length,
          detail: result.url,
        });
      });
      report.fetched += 1;
      report.bars += series.bars.length;
      fetched.push(symbol);
    } catch (error) {
      if (!(error instanceof ProviderError || error instanceof PriceFormatError)) throw error;
      report.errors.push({ symbol, error: error.message });
      await recordFetch(db, { symbol, fetched_at: stamp, status: 'error', bars: 0, detail: error.message });
    } finally {
      options.progress?.(index + 1, wanted.length);
    }
  }
  await checkPriceQuality(db, fetched, stamp);
  return report;
}
