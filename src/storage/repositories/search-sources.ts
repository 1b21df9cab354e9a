// The rows search documents are worded from (the wording itself is search/source-documents.ts'): each
// source table paged by id and update time, the records a document also reads (committee seats,
// bill topics, traded tickers, company names), and the watermarks (search_sources) that make the
// refresh incremental. The documents are search-index.ts'. SQL only.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../schema.js';
import { companySymbolOfTrade, filedSymbolsOf, onCompanyOfTrade } from './company-symbols.js';

export interface Watermark {
  last_id: number;
  last_updated: string;
}

export async function searchWatermark(db: Kysely<Database>, source: string): Promise<Watermark> {
  const row = await db
    .selectFrom('search_sources')
    .select(['last_id', 'last_updated'])
    .where('source', '=', source)
    .executeTakeFirst();
  return { last_id: Number(row?.last_id ?? 0), last_updated: row?.last_updated ?? '' };
}

/** Forgets every source's watermark: the next refresh reads every record again. */
export async function resetSearchWatermarks(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('search_sources').execute();
}

export async function saveSearchWatermark(
  db: Kysely<Database>,
  source: string,
  mark: Watermark,
): Promise<void> {
  await db
    .insertInto('search_sources')
    .values({ source, last_id: mark.last_id, last_updated: mark.last_updated })
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({ last_id: mark.last_id, last_updated: mark.last_updated }),
    )
    .execute();
}

/** The latest of ISO timestamps (text compares in time order). */
function latest(start: string, stamps: readonly string[]): string {
  let out = start;
  for (const stamp of stamps) if (stamp > out) out = stamp;
  return out;
}

/** Which rows of a source one page reads: ids in (fromId, toId], and when set, updated after. */
export interface SourceWindow {
  fromId: number;
  toId: number;
  updatedAfter: string | undefined;
}

/** The largest id a serial (PostgreSQL integer) column holds: the open end of an id window. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The source tables of the index and the columns their documents are worded from (the wording is
 * search/source-documents.ts'). Each is paged the same way: ids past the watermark, then older rows
 * updated since (windowedRows).
 */
const SOURCE_QUERIES = {
  politicians: {
    alias: 'p.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('politicians as p')
        .select([
          'p.id',
          'p.slug',
          'p.name',
          'p.first_name',
          'p.last_name',
          'p.nickname',
          'p.party',
          'p.state',
          'p.chamber',
          'p.district',
          'p.title',
          'p.agency',
          'p.in_office',
          'p.updated_at',
        ]),
  },
  trades: {
    alias: 't.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('trades as t')
        .innerJoin('politicians as p', 'p.id', 't.politician_id')
        // The company's name as it trades now, by the company the trade was in.
        .leftJoin('companies as c', onCompanyOfTrade)
        .select([
          't.id',
          't.source',
          't.source_key',
          't.superseded_by',
          't.ticker',
          't.asset_description',
          't.asset_type',
          't.trade_type',
          't.trade_action',
          't.amount_range',
          't.transaction_date',
          't.owner',
          't.comment',
          't.option_type',
          't.sector',
          't.industry',
          't.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.party',
          'p.state',
          'p.chamber',
          'c.name as company',
        ]),
  },
  filings: {
    alias: 'f.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('filings as f')
        .leftJoin('politicians as p', 'p.id', 'f.politician_id')
        .select([
          'f.id',
          'f.source',
          'f.source_doc_id',
          'f.kind',
          'f.filer_name',
          'f.filed_date',
          'f.trade_count',
          'f.is_amendment',
          'f.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.chamber',
          'p.party',
        ]),
  },
  insider_trades: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('insider_trades')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'issuer_name',
          'ticker',
          'insider_name',
          'insider_title',
          'is_director',
          'is_officer',
          'is_ten_percent_owner',
          'security',
          'transaction_date',
          'code',
          'shares',
          'updated_at',
        ]),
  },
  whale_positions: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('whale_positions')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'filed_date',
          'issuer_name',
          'ticker',
          'filer_name',
          'person_type',
          'percent_of_class',
          'updated_at',
        ]),
  },
  lobbying_filings: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('lobbying_filings')
        .select([
          'id',
          'filing_uuid',
          'filing_type_display',
          'filing_year',
          'registrant_name',
          'client_name',
          'client_description',
          'issues',
          'government_entities',
          'ticker',
          'amount',
          'updated_at',
        ]),
  },
  contract_awards: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('contract_awards')
        .select([
          'id',
          'award_key',
          'award_id',
          'recipient_name',
          'parent_name',
          'awarding_agency',
          'awarding_sub_agency',
          'award_date',
          'description',
          'naics_description',
          'psc_description',
          'ticker',
          'amount',
          'updated_at',
        ]),
  },
};

export type SearchSourceName = keyof typeof SOURCE_QUERIES;
/** The indexed source tables, in the order a refresh reads them. */
export const SEARCH_SOURCE_NAMES = Object.keys(SOURCE_QUERIES) as SearchSourceName[];
export type SearchSourceRow<N extends SearchSourceName> = Awaited<
  ReturnType<ReturnType<(typeof SOURCE_QUERIES)[N]['query']>['execute']>
>[number];

/** One page of a source's rows in a window, by id. */
export async function searchSourceRows<N extends SearchSourceName>(
  db: Kysely<Database>,
  name: N,
  window: SourceWindow,
  limit: number,
): Promise<SearchSourceRow<N>[]> {
  const source = SOURCE_QUERIES[name];
  // Each entry's builder is typed by its own table; the window's columns are read by name.
  const base = source.query(db) as unknown as SelectQueryBuilder<Database, 'politicians', SearchSourceRow<N>>;
  const id = sql.ref<number>(`${source.alias}id`);
  let query = base.where(id, '>', window.fromId).where(id, '<=', window.toId);
  if (window.updatedAfter !== undefined)
    query = query.where(sql.ref<string>(`${source.alias}updated_at`), '>', window.updatedAfter);
  return (await query.orderBy(id).limit(limit).execute()) as SearchSourceRow<N>[];
}

export interface CommitteeSeatRow {
  politician_id: number;
  committee_id: string;
  name: string;
  parent_name: string | null;
  chamber: string;
  title: string | null;
  side: string | null;
}

// The documents list these related rows in the order read, and keep only the first few names or the
// first 3,000 characters of subjects: without an order a PostgreSQL plan chosen on other statistics
// would word the same records differently.

/** The committee seats of these members, with the parent committee of a subcommittee. */
export async function committeeSeatsOf(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<CommitteeSeatRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees as c', 'c.id', 'm.committee_id')
    .leftJoin('committees as parent', 'parent.id', 'c.parent_id')
    .select([
      'm.politician_id',
      'm.committee_id',
      'c.name',
      'parent.name as parent_name',
      'c.chamber',
      'm.title',
      'm.side',
    ])
    .where('m.politician_id', 'in', [...ids])
    .orderBy('m.politician_id')
    .orderBy('m.committee_id')
    .execute();
}

/** Bills changed since the watermark (bills have text keys: found by updated_at alone). */
export async function changedBillRows(db: Kysely<Database>) {
  const mark = await searchWatermark(db, 'bills');
  const rows = await db
    .selectFrom('bills')
    .select([
      'id',
      'title',
      'short_title',
      'policy_area',
      'latest_action_text',
      'introduced_date',
      'updated_at',
      'congress',
    ])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length > 0) {
    await saveSearchWatermark(db, 'bills', {
      last_id: 0,
      last_updated: latest(
        mark.last_updated,
        rows.map((row) => row.updated_at),
      ),
    });
  }
  return rows;
}

/** The subjects and the committees of these bills. */
export async function billTopics(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return { subjects: [], committees: [] };
  const subjects = await db
    .selectFrom('bill_subjects')
    .select(['bill_id', 'subject'])
    .where('bill_id', 'in', [...ids])
    .orderBy('bill_id')
    .orderBy('subject')
    .execute();
  const committees = await db
    .selectFrom('bill_committee_activities')
    .select(['bill_id', 'committee_name', 'chamber'])
    .distinct()
    .where('bill_id', 'in', [...ids])
    .orderBy('bill_id')
    .orderBy('chamber')
    .orderBy('committee_name')
    .execute();
  return { subjects, committees };
}

/** Tickers of companies changed since the watermark. */
export async function changedCompanyTickers(db: Kysely<Database>): Promise<string[]> {
  const mark = await searchWatermark(db, 'companies');
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'updated_at'])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length === 0) return [];
  await saveSearchWatermark(db, 'companies', {
    last_id: 0,
    last_updated: latest(
      mark.last_updated,
      rows.map((row) => row.updated_at),
    ),
  });
  return rows.map((row) => row.ticker);
}

/**
 * Each traded company among `tickers` (all when more than a few hundred: one grouped scan is cheaper
 * than many IN lists), by the symbol it trades under now: a renamed company's trades filed under its
 * former symbol count as its own (company-symbols.ts). Its company's names and taxonomy, how often
 * members traded it and how many members did.
 */
export async function tradedTickerRows(db: Kysely<Database>, tickers: ReadonlySet<string> | 'all') {
  if (tickers !== 'all' && tickers.size === 0) return [];
  const wanted = tickers === 'all' ? [] : [...tickers];
  let trades = db
    .selectFrom('trades as t')
    .select([
      companySymbolOfTrade('t.ticker', 't.transaction_date').as('ticker'),
      't.politician_id',
      't.asset_description',
      't.sector',
      't.industry',
    ])
    .where('t.ticker', '<>', 'N/A')
    .where('t.superseded_by', 'is', null);
  if (tickers !== 'all' && wanted.length <= 400)
    trades = trades.where('t.ticker', 'in', filedSymbolsOf(wanted));
  const rows = await db
    .selectFrom(trades.as('t'))
    .leftJoin('companies as c', 'c.ticker', 't.ticker')
    .select((eb) => [
      't.ticker',
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.count<number>('t.politician_id').distinct().as('member_count'),
      eb.fn.max('t.asset_description').as('description'),
      eb.fn.max('c.name').as('company'),
      eb.fn.max(sql<string>`coalesce(c.sector, t.sector)`).as('sector'),
      eb.fn.max(sql<string>`coalesce(c.industry, t.industry)`).as('industry'),
      eb.fn.max('c.gics_sector').as('gics_sector'),
      eb.fn.max('c.gics_sub_industry').as('gics_sub_industry'),
      eb.fn.max('c.nasdaq_sector').as('nasdaq_sector'),
      eb.fn.max('c.nasdaq_industry').as('nasdaq_industry'),
    ])
    .groupBy('t.ticker')
    .execute();
  return tickers === 'all' ? rows : rows.filter((row) => tickers.has(row.ticker));
}

/** Members in office or with trades, with their name parts and trade counts (the name index). */
export async function memberNameRows(db: Kysely<Database>) {
  return db
    .selectFrom('politicians as p')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('trades')
          .select((inner) => ['politician_id', inner.fn.countAll<number>().as('n')])
          .where('superseded_by', 'is', null)
          .groupBy('politician_id')
          .as('t'),
      (join) => join.onRef('t.politician_id', '=', 'p.id'),
    )
    .select(['p.id', 'p.slug', 'p.name', 'p.first_name', 'p.last_name', 'p.nickname', 'p.in_office', 't.n'])
    .where((eb) => eb.or([eb('p.in_office', '=', 1), eb('t.n', '>', 0)]))
    .execute();
}

/** Every name the company directory files give these tickers (older and other spellings). */
export async function listedCompanyNames(db: Kysely<Database>, tickers: readonly string[]) {
  if (tickers.length === 0) return [];
  const names: { ticker: string; name: string }[] = [];
  for (let at = 0; at < tickers.length; at += 500) {
    const rows = await db
      .selectFrom('company_listings')
      .select(['ticker', 'name'])
      .distinct()
      .where('ticker', 'in', tickers.slice(at, at + 500))
      .where('name', 'is not', null)
      .orderBy('ticker')
      .orderBy('name')
      .execute();
    for (const row of rows) if (row.name) names.push({ ticker: row.ticker, name: row.name });
  }
  return names;
}
