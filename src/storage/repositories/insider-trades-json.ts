// A page of insider lines as the JSON text the database writes (GET /insiders/trades and
// GET /tickers/{ticker}/insiders), with the fields and values of the InsiderTrade resource
// (resources/insider.ts `toInsiderTrade`, which the tests hold it to): no object per line and per
// overlapping member trade, and no serializing of the page. CSV answers and events keep the objects.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  daysBetween,
  isSqlite,
  javascriptJsonNumberCall,
  jsonObjectOf,
  jsonObjectsArray,
  jsonTextsArray,
} from '../dialect.js';
import { dateLiteral, inListOrder, type ListOrder } from '../list-order.js';
import type { Database } from '../schema.js';
import { filteredInsiderTrades, type InsiderSortColumn, type InsiderTradeFilter } from './sec.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

/** What the resource takes from outside the stored row: its words for the codes and EDGAR's address. */
export interface InsiderJsonTerms {
  /** Form 4 transaction codes as words; any other code is `other`. */
  transactionTypes: Readonly<Record<string, string>>;
  other: string;
  /** The archives' address, before `<CIK>/<accession number without dashes>/`. */
  archivesUrl: string;
}

/** The fields of an overlapping member trade, in the OverlapTrade resource's order. */
const OVERLAP_FIELDS = [
  'id',
  'politician_slug',
  'politician_name',
  'trade_type',
  'transaction_date',
  'disclosure_date',
  'days_apart',
] as const;

/** findInsiderTrades' page with each line's overlapping member trades, as one JSON array. */
export async function findInsiderTradesJson(
  db: Kysely<Database>,
  filter: InsiderTradeFilter,
  order: ListOrder<InsiderSortColumn>,
  terms: InsiderJsonTerms,
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  // The ticker and the date range are written into the SQL, as inListOrder writes the limit: bound,
  // they are values SQLite's planner reads, so it would parse and plan this long statement again on
  // every run (as trades-json.ts explains for the trade page). Dates only of a known form; the
  // ticker as a quoted literal.
  let kept = filteredInsiderTrades(db, {
    ...filter,
    ticker: undefined,
    dateFrom: dateLiteral(filter.dateFrom) ?? filter.dateFrom,
    dateTo: dateLiteral(filter.dateTo) ?? filter.dateTo,
  });
  if (filter.ticker) kept = kept.where('it.ticker', '=', sql.lit(filter.ticker.toUpperCase()));
  const page = inListOrder(kept.selectAll('it'), `it.${order.column}`, 'it.id', order);
  const lines = db
    .selectFrom(page.as('p'))
    .select([
      lineText(plain, terms).as('line'),
      sql.ref(`p.${order.column}`).as('sort_value'),
      sql.ref('p.id').as('id'),
    ]);
  const direction = sql.raw(order.direction);
  // SQLite joins the texts as the page's rows arrive (in its order); PostgreSQL sorts them again.
  const json = jsonTextsArray(
    plain,
    sql.ref('r.line'),
    sql`r.sort_value ${direction}, r.id ${direction}`,
    order.limit > BYTES_PAGE_ROWS,
  );
  const row = await db
    .selectFrom(lines.as('r'))
    .select([json.as('json'), sql<number>`count(*)`.as('rows')])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/**
 * A member of a line's object: a plain SQL value, a number (JavaScript's spelling on PostgreSQL),
 * JSON text, or a condition written as true/false.
 */
type Member = readonly [string, 'value' | 'number' | 'json' | 'truth', RawBuilder<unknown>];

/** Each dialect's (true: SQLite) line object, compiled for the terms it was last asked with. */
const compiledLines = new Map<boolean, { terms: InsiderJsonTerms; text: RawBuilder<string> }>();

/**
 * One line's JSON object as text over the page row `p`. Its SQL binds no values and is the same on
 * every call, so it is compiled once per dialect: building and compiling it cost as much as
 * running the page's query.
 */
function lineText(db: Kysely<unknown>, terms: InsiderJsonTerms): RawBuilder<string> {
  const sqlite = isSqlite(db);
  const known = compiledLines.get(sqlite);
  if (known?.terms === terms) return known.text;
  const compiled = objectText(db, insiderMembers(db, terms)).compile(db);
  if (compiled.parameters.length > 0) throw new Error('a line object must bind no values');
  const text = sql.raw<string>(compiled.sql);
  compiledLines.set(sqlite, { terms, text });
  return text;
}

/**
 * The members as the text of one JSON object, keys in order. SQLite: the members' JSON texts
 * concatenated, so that stored JSON (footnotes) and the subqueries' arrays are passed through
 * rather than parsed again by json(); PostgreSQL: row_to_json of the members (jsonObjectOf).
 */
function objectText(db: Kysely<unknown>, members: readonly Member[]): RawBuilder<string> {
  if (!isSqlite(db)) {
    const values = members.map(([key, kind, value]) => {
      if (kind === 'number') return [key, javascriptJsonNumberCall(db, value)] as const;
      if (kind === 'json') return [key, sql`cast(${value} as json)`] as const;
      return [key, kind === 'truth' ? sql`(${value})` : value] as const;
    });
    return sql<string>`cast(${jsonObjectOf(db, values)} as text)`;
  }
  const parts = members.map(([key, kind, value], index) => {
    const json =
      kind === 'json'
        ? value
        : kind === 'truth'
          ? sql`(case when ${value} then 'true' else 'false' end)`
          : sql`json_quote(${value})`;
    return sql`${sql.lit(`${index === 0 ? '{' : ','}${JSON.stringify(key)}:`)} || ${json}`;
  });
  return sql<string>`(${sql.join(parts, sql` || `)} || '}')`;
}

/** Each member of a line's object, in the resource's order, as SQL over the page row `p`. */
function insiderMembers(db: Kysely<unknown>, terms: InsiderJsonTerms): Member[] {
  const column = (name: string) => sql.ref(`p.${name}`);
  const words = Object.entries(terms.transactionTypes).map(
    ([code, word]) => sql`when ${sql.lit(code)} then ${sql.lit(word)}`,
  );
  // A CIK as a number (leading zeros off); without one, the filer's part of the accession number.
  const company = sql`case when ${column('issuer_cik')} is null or ${column('issuer_cik')} = ''
    then ltrim(substr(${column('accession_number')}, 1, 10), '0')
    else coalesce(nullif(ltrim(${column('issuer_cik')}, '0'), ''), '0') end`;
  const overlaps = sql`exists (select 1 ${overlappingTrades()})`;
  return [
    ['id', 'value', column('id')],
    ['accession_number', 'value', column('accession_number')],
    ['line', 'value', column('line')],
    ['form', 'value', column('form')],
    ['insider_name', 'value', column('insider_name')],
    ['insider_cik', 'value', column('insider_cik')],
    ['insider_title', 'value', column('insider_title')],
    ['is_director', 'truth', sql`${column('is_director')} = 1`],
    ['is_officer', 'truth', sql`${column('is_officer')} = 1`],
    ['is_ten_percent_owner', 'truth', sql`${column('is_ten_percent_owner')} = 1`],
    ['issuer_name', 'value', sql`coalesce(${column('issuer_name')}, '')`],
    ['issuer_cik', 'value', column('issuer_cik')],
    ['ticker', 'value', column('ticker')],
    ['security', 'value', column('security')],
    ['table', 'value', column('table_kind')],
    [
      'transaction_type',
      'value',
      sql`(case ${column('code')} ${sql.join(words, sql` `)} else ${sql.lit(terms.other)} end)`,
    ],
    ['transaction_code', 'value', sql`coalesce(${column('code')}, '')`],
    ['transaction_date', 'value', column('transaction_date')],
    ['filed_date', 'value', column('filed_date')],
    ['shares', 'number', column('shares')],
    ['price_per_share', 'number', column('price')],
    ['total_value', 'number', column('total_value')],
    ['acquired_disposed', 'value', column('acquired_disposed')],
    ['shares_owned_after', 'number', column('shares_after')],
    ['direct_indirect', 'value', column('direct_indirect')],
    ['ten_b5_1', 'truth', sql`${column('ten_b5_1')} = 1`],
    // Stored as JSON.stringify wrote them.
    ['footnotes', 'json', column('footnotes')],
    ['has_politician_overlap', 'truth', overlaps],
    // Most lines have no member trade near them: the slugs' window function runs only for those that do.
    [
      'overlapping_politicians',
      'json',
      sql`(case when ${overlaps} then ${overlappingSlugs(db)} else '[]' end)`,
    ],
    ['politician_trades', 'json', overlapping(db)],
    [
      'url',
      'value',
      sql`${sql.lit(terms.archivesUrl)} || ${company} || '/' || replace(${column('accession_number')}, '-', '') || '/'`,
    ],
  ];
}

/**
 * The members' trades of the line's ticker inside its window (the bounds stored with the line),
 * as `from ... where ...` with the trade `t` and its member `m`.
 */
function overlappingTrades(): RawBuilder<unknown> {
  return sql`from trades t inner join politicians m on m.id = t.politician_id
    where t.ticker = p.ticker and t.transaction_date >= p.overlap_from
      and t.transaction_date <= p.overlap_to and t.superseded_by is null`;
}

/** The line's politician_trades as a JSON array text, oldest trade first. */
function overlapping(db: Kysely<unknown>): RawBuilder<unknown> {
  const rows = sql`select t.id as id, m.slug as politician_slug, m.name as politician_name,
    t.trade_type as trade_type, t.transaction_date as transaction_date,
    t.disclosure_date as disclosure_date,
    ${daysBetween(db, sql.ref('p.transaction_date'), sql.ref('t.transaction_date'))} as days_apart
    ${overlappingTrades()}`;
  const array = jsonObjectsArray(db, OVERLAP_FIELDS, {}, sql`r.transaction_date, r.id`, false);
  return sql`(select ${array} from (${rows}) as r)`;
}

/** The line's overlapping_politicians as a JSON array text: each slug once, in its first trade's place. */
function overlappingSlugs(db: Kysely<unknown>): RawBuilder<unknown> {
  const ranked = sql`select m.slug as slug, row_number() over (order by t.transaction_date, t.id) as n
    ${overlappingTrades()}`;
  const slugs = sql`select s.slug as slug, min(s.n) as first from (${ranked}) as s group by s.slug`;
  const array = isSqlite(db)
    ? sql`json_group_array(r.slug order by r.first)`
    : sql`coalesce('[' || string_agg(to_json(r.slug)::text, ',' order by r.first) || ']', '[]')`;
  return sql`(select ${array} from (${slugs}) as r)`;
}
