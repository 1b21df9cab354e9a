// GET /search: members, tickers and bills that match a name, symbol or prefix, best first.
import type { Kysely } from 'kysely';
import { givenNameForms, nameTokens } from '../domain/names.js';
import { pick } from '../domain/pick.js';
import { linkedSymbols, symbolNow, symbolSpans } from '../domain/symbol-changes.js';
import {
  billCandidates,
  companyNamesOf,
  companyTradeCounts,
  listedTickers,
  politicianCandidates,
  tickerCandidates,
  tradeCountsFor,
} from '../storage/repositories/search.js';
import type { Database } from '../storage/schema.js';

export const SEARCH_TYPES = ['politicians', 'tickers', 'bills'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/**
 * How well `text` answers `query`: 100 exact, 80 prefix, 60 a word starts with it, 40 contains it,
 * 0 otherwise. Pure, so the ranking is tested directly.
 */
export function matchScore(query: string, text: string | null | undefined): number {
  if (!text) return 0;
  const q = query.trim().toLowerCase();
  const t = text.trim().toLowerCase();
  if (q === '' || t === '') return 0;
  if (t === q) return 100;
  if (t.startsWith(q)) return 80;
  if (t.split(/[^a-z0-9]+/).some((word) => word.startsWith(q))) return 60;
  return t.includes(q) ? 40 : 0;
}

function best(query: string, ...texts: (string | null | undefined)[]): number {
  return Math.max(0, ...texts.map((text) => matchScore(query, text)));
}

/** "hr 21", "H.R.21", "s. 35" -> "hr21"; null when the query does not look like a bill number. */
export function compactBillId(query: string): string | null {
  const compact = query.toLowerCase().replace(/[\s.]/g, '');
  return /^(hr|s|hres|sres|hjres|sjres|hconres|sconres)\d+(-\d+)?$/.test(compact) ? compact : null;
}

export async function globalSearch(
  db: Kysely<Database>,
  params: { q: string; types: readonly SearchType[]; limit: number },
) {
  const query = params.q.trim();
  const wanted = new Set(params.types);
  const politicians = wanted.has('politicians') ? await rankPoliticians(db, query, params.limit) : [];
  const tickers = wanted.has('tickers') ? await rankTickers(db, query, params.limit) : [];
  const bills = wanted.has('bills') ? await rankBills(db, query, params.limit) : [];
  return { query, politicians, tickers, bills, total: politicians.length + tickers.length + bills.length };
}

/**
 * "Tom Carper" is in no roster name ("Thomas R. Carper"): when the whole query matches nobody, the
 * members of its last word whose given name, nickname or one of their forms is its first word.
 * The given names of the roster's display name count too: "Val Hoyle" is "Val T. Hoyle" (a middle
 * initial between), and "Mike Conaway" is "K. Michael Conaway" (known by the middle name).
 */
async function byGivenNameForm(db: Kysely<Database>, tokens: readonly string[]) {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (tokens.length < 2 || !first || !last || last.length < 3) return [];
  const forms = givenNameForms(first);
  return (await politicianCandidates(db, last)).filter((row) => {
    const lastNames = nameTokens(row.last_name ?? '');
    if (!lastNames.includes(last)) return false;
    const given = [
      nameTokens(row.first_name ?? '')[0],
      nameTokens(row.nickname ?? '')[0],
      ...nameTokens(row.name).filter((token) => !lastNames.includes(token)),
    ];
    return given.some((name) => name !== undefined && forms.has(name));
  });
}

async function rankPoliticians(db: Kysely<Database>, query: string, limit: number) {
  const words = nameTokens(query);
  const tokens = words.join(' ');
  const named = await politicianCandidates(db, query);
  const rows = named.length > 0 ? named : await byGivenNameForm(db, words);
  return rows
    .map((row) => ({
      politician_id: row.id,
      ...pick(row, ['name', 'slug', 'party', 'state', 'chamber']),
      trade_count: Number(row.trade_count),
      score: best(
        tokens || query,
        row.name,
        row.last_name,
        row.slug.replace(/-/g, ' '),
        `${row.nickname ?? row.first_name ?? ''} ${row.last_name ?? ''}`,
        // The name without its initials: "Michael Conaway" is all of "K. Michael Conaway".
        nameTokens(row.name)
          .filter((token) => token.length > 1)
          .join(' '),
        // Found through a form of the given name: scored as the roster's own name would be.
        named.length > 0 ? null : tokens,
      ),
    }))
    .sort((a, b) => b.score - a.score || b.trade_count - a.trade_count || a.politician_id - b.politician_id)
    .slice(0, limit);
}

/**
 * What a filer's description counts for less when the company directory does not list its ticker:
 * such a ticker is often the filer's typo ("XMO" written for Exxon), and an exact match of that
 * description should not rank it above the listed company whose name the query begins.
 */
const UNLISTED_DESCRIPTION = 25;

async function rankTickers(db: Kysely<Database>, query: string, limit: number) {
  const { traded, companies, byDescription } = await tickerCandidates(db, query);
  const listed = await listedTickers(
    db,
    [...traded, ...byDescription].map((row) => row.ticker),
  );
  for (const row of companies) listed.add(row.ticker);
  const found = new Map<
    string,
    { ticker: string; company_name: string | null; trade_count: number; score: number }
  >();
  const consider = (ticker: string, name: string | null, count: number) => {
    const named = best(query, name) - (listed.has(ticker) ? 0 : UNLISTED_DESCRIPTION);
    const score = Math.max(best(query, ticker) + 5, named);
    const known = found.get(ticker);
    if (!known || score > known.score) {
      found.set(ticker, {
        ticker,
        company_name: name ?? known?.company_name ?? null,
        trade_count: Math.max(count, known?.trade_count ?? 0),
        score,
      });
    }
  };
  for (const row of traded) consider(row.ticker, row.description ?? null, Number(row.n));
  for (const row of byDescription) consider(row.ticker, row.description ?? null, Number(row.n));
  const counts = await tradeCountsFor(
    db,
    companies.map((row) => row.ticker),
  );
  for (const row of companies) consider(row.ticker, row.name, counts.get(row.ticker) ?? 0);
  return (await asCompaniesNow(db, [...found.values()]))
    .map((entry) => ({ ...entry, score: Math.min(100, entry.score) }))
    .sort((a, b) => b.score - a.score || b.trade_count - a.trade_count || a.ticker.localeCompare(b.ticker))
    .slice(0, limit);
}

type TickerEntry = { ticker: string; company_name: string | null; trade_count: number; score: number };

/**
 * The matched tickers as the companies they name: a renamed company's former symbol or name ("FB",
 * "Facebook") answers as the company under its current symbol (META), and a current symbol counts
 * the trades filed under its former ones, each by the table's dates (a BBT trade of 2015 is Truist's,
 * TFC; Beacon Financial's BBT of 2025 is its own). Tickers the symbol-change table does not name
 * are left as they are.
 */
async function asCompaniesNow(db: Kysely<Database>, entries: readonly TickerEntry[]): Promise<TickerEntry[]> {
  const changed = entries.filter((entry) => linkedSymbols(entry.ticker).length > 1);
  if (changed.length === 0) return [...entries];
  const spans = symbolSpans();
  // The companies a matched symbol meant: what its trades mean on their dates, and what it names now.
  const meant = (ticker: string) =>
    new Set([
      symbolNow(ticker),
      ...spans.filter((span) => span.filed === ticker).map((span) => span.company),
    ]);
  const companies = [...new Set(changed.flatMap((entry) => [...meant(entry.ticker)]))];
  const counts = await companyTradeCounts(db, companies);
  const names = await companyNamesOf(db, companies);
  const out = new Map(
    entries.filter((entry) => !changed.includes(entry)).map((entry) => [entry.ticker, entry] as const),
  );
  for (const entry of changed) {
    for (const company of meant(entry.ticker)) {
      const known = out.get(company);
      out.set(company, {
        ticker: company,
        company_name: names.get(company) ?? known?.company_name ?? entry.company_name,
        trade_count: counts.get(company) ?? 0,
        score: Math.max(entry.score, known?.score ?? 0),
      });
    }
  }
  return [...out.values()];
}

async function rankBills(db: Kysely<Database>, query: string, limit: number) {
  const compact = compactBillId(query);
  const rows = await billCandidates(db, query, compact);
  return rows
    .map((row) => ({
      bill_id: row.id,
      congress: row.congress,
      bill_type: row.bill_type,
      number: row.number,
      title: row.short_title ?? row.title,
      latest_action_date: row.latest_action_date,
      score:
        compact && row.id.startsWith(compact)
          ? row.id === compact || row.id.split('-')[0] === compact
            ? 100
            : 80
          : best(query, row.short_title, row.title),
    }))
    .sort((a, b) => b.score - a.score || b.congress - a.congress || a.bill_id.localeCompare(b.bill_id))
    .slice(0, limit);
}
