// Trades grouped by company across a symbol change: the symbol a company trades under now, as a SQL
// expression over a trade's filed ticker and transaction date, built from the reviewed table
// (src/domain/symbol-changes.ts) so that FB-filed trades count as Meta's (META) and a BBT trade of
// 2015 as Truist's (TFC) while Beacon Financial's BBT of 2025 stays BBT.
import { type JoinBuilder, type RawBuilder, sql } from 'kysely';
import { linkedSymbols, symbolSpans } from '../../domain/symbol-changes.js';

/**
 * The company symbol of a trade: its ticker, or the current symbol the table gives it on its
 * transaction date. The table's values are inlined (reviewed constants): the expression is the same
 * text wherever a query groups or filters by it.
 */
export function companySymbolOfTrade(ticker: string, transactionDate: string): RawBuilder<string> {
  const spans = symbolSpans();
  const tickerRef = sql.ref(ticker);
  const dateRef = sql.ref(transactionDate);
  const cases = spans.map((span) => {
    const conditions = [sql`${tickerRef} = ${sql.lit(span.filed)}`];
    if (span.from) conditions.push(sql`${dateRef} >= ${sql.lit(span.from)}`);
    if (span.until) conditions.push(sql`${dateRef} < ${sql.lit(span.until)}`);
    return sql`when ${sql.join(conditions, sql` and `)} then ${sql.lit(span.company)}`;
  });
  return sql<string>`(case ${sql.join(cases, sql` `)} else ${tickerRef} end)`;
}

/** `companySymbolOfTrade` for one trade, read in code: the same spans, so the same answer. */
export function companySymbolOn(ticker: string, transactionDate: string): string {
  const span = symbolSpans().find(
    (candidate) =>
      candidate.filed === ticker &&
      (candidate.from === null || transactionDate >= candidate.from) &&
      (candidate.until === null || transactionDate < candidate.until),
  );
  return span?.company ?? ticker;
}

/**
 * The join condition of a trade (`t`) with the directory row of the company it was in (`c`): by
 * company symbol, since the directory's row for a symbol reused since names a later company (PARA:
 * Banzai International). `.leftJoin('companies as c', onCompanyOfTrade)`.
 */
export function onCompanyOfTrade<DB, TB extends keyof DB>(join: JoinBuilder<DB, TB>): JoinBuilder<DB, TB> {
  return join.on(
    sql<boolean>`${sql.ref('c.ticker')} = ${companySymbolOfTrade('t.ticker', 't.transaction_date')}`,
  );
}

/** The filed symbols whose trades may belong to these companies (each symbol and those the table links to it). */
export function filedSymbolsOf(companies: Iterable<string>): string[] {
  return [...new Set([...companies].flatMap((symbol) => linkedSymbols(symbol)))];
}
