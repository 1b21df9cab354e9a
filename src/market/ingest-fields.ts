// What is known about a trade the moment it is ingested, set before its trade.created event is
// written so that the event carries it: the symbol its prices come from, the sector and industry
// of that company (the company directory), and where prices exist the closes on its transaction and
// disclosure dates. They are computed exactly as the enrichment job computes them (the same
// symbol rule, the same directory, `priceOn` over the same series and calendar), so the job later
// leaves them as they are unless the data changed; everything else (windows, returns, scores)
// follows when it runs.
import type { Kysely } from 'kysely';
import { todayUtc } from '../domain/dates.js';
import {
  benchmarkDaysFrom,
  classificationOf,
  tradesForIngestFields,
  writeIngestFields,
} from '../storage/repositories/ingest-fields.js';
import { seriesOfSymbols } from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { BENCHMARK_SYMBOL } from './benchmark.js';
import { companySymbol, priceableSymbol } from './priced-symbols.js';
import { TradingCalendar } from './series.js';
import { loadSymbolData } from './series-loader.js';
import { priceOn } from './windows.js';

export async function fillKnownAtIngest(
  db: Kysely<Database>,
  tradeIds: readonly number[],
  now: Date,
): Promise<void> {
  if (tradeIds.length === 0) return;
  const today = todayUtc(now);
  const trades = (await tradesForIngestFields(db, tradeIds)).map((trade) => {
    const marketSymbol = priceableSymbol(trade.ticker, trade.asset_type, trade.transaction_date);
    return {
      ...trade,
      marketSymbol,
      companySymbol: companySymbol(marketSymbol, trade.ticker, trade.transaction_date),
    };
  });
  const classified = await classificationOf(
    db,
    trades.flatMap((trade) => (trade.companySymbol ? [trade.companySymbol] : [])),
  );
  const priced = new Set(
    (
      await seriesOfSymbols(
        db,
        trades.flatMap((trade) => (trade.marketSymbol ? [trade.marketSymbol] : [])),
      )
    ).map((meta) => meta.symbol),
  );
  const series = await loadSymbolData(db, [...priced]);
  const dates = trades
    .filter((trade) => trade.marketSymbol !== null && priced.has(trade.marketSymbol))
    .flatMap((trade) => [trade.transaction_date, ...(trade.disclosure_date ? [trade.disclosure_date] : [])])
    .sort();
  const calendar =
    dates.length > 0
      ? new TradingCalendar(await benchmarkDaysFrom(db, BENCHMARK_SYMBOL, dates[0] as string))
      : null;
  const priceAt = (symbol: string | null, date: string | null) => {
    if (symbol === null || date === null || calendar === null) return null;
    const data = series.get(symbol);
    return data ? priceOn(data.series, date, calendar, today) : null;
  };
  await writeIngestFields(
    db,
    trades.map((trade) => {
      const company = trade.companySymbol ? classified.get(trade.companySymbol) : undefined;
      return {
        id: trade.id,
        market_symbol: trade.marketSymbol,
        sector: company?.sector ?? null,
        industry: company?.industry ?? null,
        price_on_trade_date: priceAt(trade.marketSymbol, trade.transaction_date),
        price_on_disclosure: priceAt(trade.marketSymbol, trade.disclosure_date),
      };
    }),
  );
}
