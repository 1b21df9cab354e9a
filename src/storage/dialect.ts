// The few places where SQLite and PostgreSQL differ in the queries repositories write, each behind
// one named helper. The schema side (column types, triggers, indexes the migrations create) is ddl.ts.
import {
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type SelectQueryBuilder,
  SqliteAdapter,
  sql,
} from 'kysely';
import type { Database } from './schema.js';
import { StoreDatabase } from './store-database.js';

export function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * Whether the database runs data-modifying statements (UPDATE/INSERT ... RETURNING) inside WITH, so
 * that several dependent writes go to the server as one statement: PostgreSQL does, SQLite does not.
 */
export function chainsWritesInOneStatement(db: Kysely<unknown>): boolean {
  return !isSqlite(db);
}

/** Current time as an ISO-8601 string; timestamps are stored as text on both dialects. */
export function nowIso(clock: () => Date = () => new Date()): string {
  return clock().toISOString();
}

/**
 * Case-insensitive substring match, identical on both dialects. Given the database, SQLite
 * compares without lower(): its LIKE already ignores ASCII case, the only case its lower() folds
 * (non-ASCII letters differ in both), and lower() copying every row's text costs most of a scan.
 */
export function containsInsensitive<DB>(
  column: string,
  needle: string,
  db?: Kysely<DB>,
): RawBuilder<boolean> {
  return likeInsensitive(column, containsPattern(needle), db);
}

/** The LIKE pattern (escape backslash) containsInsensitive matches. */
export function containsPattern(needle: string): string {
  return `%${escapeLike(needle.toLowerCase())}%`;
}

/** The LIKE pattern (escape backslash) startsWithInsensitive matches. */
export function prefixPattern(prefix: string): string {
  return `${escapeLike(prefix.toLowerCase())}%`;
}

/** Case-insensitive prefix match, identical on both dialects (see containsInsensitive). */
export function startsWithInsensitive<DB>(
  column: string,
  prefix: string,
  db?: Kysely<DB>,
): RawBuilder<boolean> {
  return likeInsensitive(column, prefixPattern(prefix), db);
}

/** The case-insensitive LIKE of containsInsensitive and startsWithInsensitive, given the pattern itself. */
export function likeInsensitive<DB>(
  column: string,
  pattern: string,
  db: Kysely<DB> | undefined,
): RawBuilder<boolean> {
  return db && isSqlite(db as unknown as Kysely<unknown>)
    ? sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`
    : sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Whole days from the date `from` (YYYY-MM-DD text) to `today`, at least 0: what
 * `Math.max(0, daysBetween(from, today))` gives (the Trade resource's days_held).
 */
export function wholeDaysSince(db: Kysely<unknown>, from: RawBuilder<unknown>, today: string) {
  const days = daysBetween(db, from, sql`${today}`);
  return isSqlite(db) ? sql<number>`max(0, ${days})` : sql<number>`greatest(0, ${days})`;
}

/** Whole days from the date `from` to the date `to` (YYYY-MM-DD texts), negative when `to` is earlier. */
export function daysBetween(db: Kysely<unknown>, from: RawBuilder<unknown>, to: RawBuilder<unknown>) {
  return isSqlite(db)
    ? sql<number>`cast(round(julianday(${to}) - julianday(${from})) as integer)`
    : sql<number>`(cast(${to} as date) - cast(${from} as date))`;
}

/**
 * A real as the JSON number JavaScript writes (`String(x)`), for JSON the database builds.
 * SQLite: the value (its JSON spells some reals otherwise, e.g. `1001.0`; parsers read the same
 * number). PostgreSQL writes the same shortest digits, but in exponent form from 1e-4 down and
 * from 1e15 up, with two exponent digits (`1.5e-05`) where JavaScript switches below 1e-6 and
 * from 1e21 up, with no padding (`1.5e-7`): those ranges are rewritten (the exact digits through
 * numeric, which never uses an exponent; the padding off). -0 is 0; NaN and infinities are null,
 * as JSON.stringify writes them.
 */
export function javascriptJsonNumber(db: Kysely<unknown>, value: RawBuilder<unknown>): RawBuilder<unknown> {
  if (isSqlite(db)) return value;
  return sql`case when ${value} is null or not (abs(${value}) < 'Infinity'::float8) then null
    when ${value} = 0 then '0'::json
    when abs(${value}) >= 1e-4::float8 and abs(${value}) < 1e15::float8 then to_json(${value})
    when abs(${value}) >= 1e-6::float8 and abs(${value}) < 1e21::float8 then to_json(cast(${value}::text as numeric))
    else regexp_replace(${value}::text, 'e([+-])0', 'e\\1')::json end`;
}

/**
 * javascriptJsonNumber as a call of a PL/pgSQL function (migration 0029-pg-hot-path) on
 * PostgreSQL: the same value, but the planner sees one opaque call instead of the expression.
 * Inline in a page of fifty fields, the expressions were most of the time PostgreSQL spent
 * planning the /trades page query on every call (BENCHMARKS.md, "GET /trades on PostgreSQL").
 * SQLite: the value.
 */
export function javascriptJsonNumberCall(
  db: Kysely<unknown>,
  value: RawBuilder<unknown>,
): RawBuilder<unknown> {
  if (isSqlite(db)) return value;
  return sql`javascript_json_number(${value})`;
}

/** The n-th (1-based) bound parameter in hand-assembled SQL: `?` on SQLite, `$n` on PostgreSQL. */
export function parameterPlaceholder(db: Kysely<unknown>, position: number): string {
  return isSqlite(db) ? '?' : `$${position}`;
}

/**
 * Locks the rows a query selects until the transaction ends. PostgreSQL needs `for update` to
 * serialize concurrent writers that read before they write; SQLite has one writer at a time and
 * does not know the clause.
 */
export function lockingSelected<DB, Q extends { forUpdate(): Q }>(db: Kysely<DB>, query: Q): Q {
  return db.getExecutor().adapter instanceof SqliteAdapter ? query : query.forUpdate();
}

/**
 * Locks the rows a claim selects and passes over rows another transaction holds locked, so that N
 * workers claiming at once each get different rows instead of queueing behind one another
 * (PostgreSQL `for update skip locked`). SQLite has one writer at a time: the plain query.
 */
export function claimingUnlocked<DB, Q extends { forUpdate(): Q; skipLocked(): Q }>(
  db: Kysely<DB>,
  query: Q,
): Q {
  return db.getExecutor().adapter instanceof SqliteAdapter ? query : query.forUpdate().skipLocked();
}

/**
 * The integers of a JSON array text, as a parenthesized one-column subquery for `column in ...`:
 * the whole list is one bound value, so one compiled query serves lists of every length.
 * SQLite: json_each; PostgreSQL: json_array_elements_text.
 */
export function integersOfJsonArray(db: Kysely<unknown>, json: unknown): RawBuilder<number> {
  if (isSqlite(db)) return sql<number>`(select value from json_each(${json}))`;
  return sql<number>`(select cast(value as integer) from json_array_elements_text(cast(${json} as json)))`;
}

/**
 * The elements of a JSON array of integers (one bound value) as a table of `id` and its 1-based
 * `position` in the array: a list chosen in one query, read in its order by another.
 * SQLite: json_each; PostgreSQL: json_array_elements_text with ordinality.
 */
export function positionsOfJsonArray(
  db: Kysely<unknown>,
  json: unknown,
): RawBuilder<{ id: number; position: number }> {
  if (isSqlite(db)) return sql`(select key + 1 as position, value as id from json_each(${json}))`;
  return sql`(select cast(position as integer) as position, cast(value as integer) as id
    from json_array_elements_text(cast(${json} as json)) with ordinality as e(value, position))`;
}

/**
 * The rows a claim takes, chosen once: `due` selects their ids, locked as claimingUnlocked locks
 * them, into a materialized CTE named `due` for the claiming update to read. As a plain
 * `in (subquery)` with row locks, PostgreSQL may rescan the subquery and claim more rows than
 * it chose.
 */
export function withDueIds<T extends keyof Database>(
  db: Kysely<Database>,
  due: (qb: QueryCreator<Database>) => SelectQueryBuilder<Database, T, { id: number }>,
) {
  return db.with(
    (cte) => cte('due').materialized(),
    (qb) => claimingUnlocked(db, due(qb)),
  );
}

/**
 * Pages of SQLite's full-text index merged after each write of search documents. FTS5's own
 * automerge (turned off by migration 0113) merges 64 pages per level of the index each time 64
 * leaves have been written, inside whichever write crosses the mark: that write held the write
 * lock many times as long as the others, and a serving process's charge waited for it. A step of
 * this many pages after every write keeps the index as merged (FTS5 merges a level once it holds
 * four segments, as automerge did) in pieces a charge barely notices.
 */
export const FULL_TEXT_MERGE_PAGES = 16;

/** One step of merging the full-text index (SQLite; PostgreSQL's tsvector needs none). */
export async function mergeFullTextStep<DB>(db: Kysely<DB>): Promise<void> {
  if (!isSqlite(db as Kysely<unknown>)) return;
  await sql`insert into search_fts(search_fts, rank) values ('merge', ${FULL_TEXT_MERGE_PAGES})`.execute(db);
}

/** A plain lower-case word as both engines' query syntax takes it (quotes and operators dropped). */
function plainWord(term: string): string {
  return term.replace(/[^a-z0-9]/g, '');
}

/**
 * How many documents hold each word, counted up to `cap` (a word past the cap answers cap + 1):
 * the engine's own index, read no further than the cap, so a common word costs as little as a
 * rare one.
 */
export function fullTextDocumentCount<DB>(
  db: Kysely<DB>,
  term: string,
  cap: number,
): RawBuilder<{ n: number }> {
  const word = plainWord(term);
  if (isSqlite(db as Kysely<unknown>)) {
    return sql<{ n: number }>`select count(*) as n from
      (select 1 from search_fts where search_fts match ${`"${word}"`} limit ${cap + 1})`;
  }
  return sql<{ n: number }>`select count(*) as n from
    (select 1 from search_documents where tsv @@ to_tsquery('english', ${word}) limit ${cap + 1}) t`;
}

/** What the lexical retriever asks the full-text engine (see fullTextRanked). */
export interface FullTextQuery {
  /** A document must hold at least one of these words (the rare ones)... */
  anyOf: readonly string[];
  /** ...or, when anyOf is empty, every one of these. */
  allOf: readonly string[];
  /** The words the ranking weighs (every known word of the question). */
  rankBy: readonly string[];
  /**
   * Words of rankBy held by at least half of all documents, to which FTS5's bm25 gives no weight
   * (its idf, ln((N - n + 0.5) / (n + 0.5)), is not positive there and is replaced by 1e-6), so
   * SQLite leaves them out of the ranking: bm25 would otherwise walk each one's whole document
   * list to count it, most of a question's cost. PostgreSQL's ts_rank_cd has no idf and keeps them.
   */
  weightless: readonly string[];
  /**
   * How much each word of rankBy weighs, in its order (an idf: rarer words weigh more). PostgreSQL's
   * ts_rank_cd has no idf of its own, so there the score is the sum of each word's rank times its
   * weight; FTS5's bm25 weighs by its own idf and ignores these. Without them every word weighs 1.
   */
  weights?: readonly number[];
  /** At most this many matching documents are ranked (the first by id). */
  cap: number;
  /** Whether `kinds` names every kind of document (no filter by kind is needed). */
  allKinds?: boolean;
}

/**
 * Documents matching `query` (plain lower-case words), best first, with the engine's own
 * relevance over all of `rankBy`: FTS5's bm25 (negated, so higher is better; title weighs 2) or
 * PostgreSQL's ts_rank_cd over the weighted tsvector. The match set is bounded twice: the caller
 * leaves common words out of `anyOf` (they only rank), and no more than `cap` matches are scored.
 * FTS5 ranks only by words of its match expression, so the rare words are AND-ed with the OR of
 * all words (a no-op on the match set; the rare words count twice in bm25).
 */
export function fullTextRanked<DB>(
  db: Kysely<DB>,
  query: FullTextQuery,
  kinds: readonly string[],
  limit: number,
): RawBuilder<{ id: number; score: number }> {
  const words = (terms: readonly string[]) => terms.map(plainWord).filter((term) => term.length > 0);
  const anyOf = words(query.anyOf);
  const allOf = words(query.allOf);
  const rankBy = words(query.rankBy);
  const kindList = sql.join(kinds.map((kind) => sql`${kind}`));
  if (isSqlite(db as Kysely<unknown>)) {
    const quoted = (terms: readonly string[], operator: string) =>
      terms.map((word) => `"${word}"`).join(` ${operator} `);
    const weightless = new Set(words(query.weightless));
    // The rare words stay (they make the match, and on a small corpus may be in half of it).
    const weighed = rankBy.filter((word) => !weightless.has(word) || anyOf.includes(word));
    // When the rare words are all that is weighed, the AND would repeat each of them: bm25 sums
    // over the phrases of the match, so the same words once, their sum doubled, rank the same
    // (with the same scores) for half the work.
    const repeats = anyOf.length > 0 && weighed.length === anyOf.length;
    const match = repeats
      ? quoted(anyOf, 'OR')
      : anyOf.length > 0
        ? `(${quoted(anyOf, 'OR')}) AND (${quoted(weighed, 'OR')})`
        : quoted(allOf, 'AND');
    const scale = sql.raw(repeats ? '-2.0' : '-1.0');
    if (query.allKinds) {
      return sql<{ id: number; score: number }>`select id, score from
      (select rowid as id, ${scale} * bm25(search_fts, 2.0, 1.0) as score
        from search_fts where search_fts match ${match} limit ${query.cap})
      order by score desc, id limit ${limit}`;
    }
    return sql<{ id: number; score: number }>`select id, score from
      (select d.id as id, ${scale} * bm25(search_fts, 2.0, 1.0) as score
        from search_fts join search_documents d on d.id = search_fts.rowid
        where search_fts match ${match} and d.kind in (${kindList}) limit ${query.cap})
      order by score desc, id limit ${limit}`;
  }
  const filter = anyOf.length > 0 ? anyOf.join(' | ') : allOf.join(' & ');
  // Each word keeps its own weight, even where plainWord leaves a word out.
  const weighted = query.weights
    ? query.rankBy
        .map((term, i) => ({ word: plainWord(term), weight: query.weights?.[i] ?? 1 }))
        .filter(({ word }) => word.length > 0)
    : undefined;
  const score = weighted?.length
    ? sql.join(
        weighted.map(({ word, weight }) => sql`${weight} * ts_rank_cd(tsv, to_tsquery('english', ${word}))`),
        sql` + `,
      )
    : sql`ts_rank_cd(tsv, to_tsquery('english', ${rankBy.join(' | ')}))`;
  return sql<{
    id: number;
    score: number;
  }>`select id, ${score} as score
    from (select d.id, d.tsv from search_documents d
      where d.tsv @@ to_tsquery('english', ${filter}) and d.kind in (${kindList}) limit ${query.cap}) m
    order by score desc, id limit ${limit}`;
}

/**
 * Whether the database has a KNN vector index: sqlite-vec loaded into SQLite. PostgreSQL without
 * pgvector (and SQLite without the extension) answers false; search then scans exactly in memory.
 * A store asks once; any other Kysely instance (a transaction) asks on each call.
 */
export function vectorIndexAvailable<DB>(db: Kysely<DB>): Promise<boolean> {
  if (!(db instanceof StoreDatabase)) return askVectorSupport(db);
  const store: StoreDatabase = db;
  store.vectorSupport ??= askVectorSupport<Database>(store);
  return store.vectorSupport;
}

function askVectorSupport<DB>(db: Kysely<DB>): Promise<boolean> {
  if (!isSqlite(db as Kysely<unknown>)) return Promise.resolve(false);
  return sql`select vec_version() as v`.execute(db).then(
    () => true,
    () => false,
  );
}

/** (Re)creates the KNN index for vectors of `dimensions` floats, partitioned by document kind. */
export async function resetVectorIndex<DB>(db: Kysely<DB>, dimensions: number): Promise<void> {
  await sql`drop table if exists search_vec`.execute(db);
  await sql`create virtual table search_vec using vec0(kind text partition key,
    embedding float[${sql.raw(String(Math.trunc(dimensions)))}] distance_metric=cosine)`.execute(db);
}

export async function writeVectorIndex<DB>(
  db: Kysely<DB>,
  rows: readonly { id: number; kind: string; vector: Uint8Array }[],
): Promise<void> {
  if (rows.length === 0) return;
  await removeFromVectorIndex(
    db,
    rows.map((row) => row.id),
  );
  for (const row of rows) {
    await sql`insert into search_vec(rowid, kind, embedding) values (${BigInt(row.id)}, ${row.kind}, ${row.vector})`.execute(
      db,
    );
  }
}

/**
 * One statement per id: sqlite-vec finds a row of its table by `rowid = ?` but reads the whole
 * table for `rowid in (…)`, so a batch of deletes by a list cost as much as the index is large.
 */
export async function removeFromVectorIndex<DB>(db: Kysely<DB>, ids: readonly number[]): Promise<void> {
  for (const id of ids) await sql`delete from search_vec where rowid = ${id}`.execute(db);
}

/** The k nearest documents of one kind by cosine distance (0 = same direction). */
export function nearestInVectorIndex(
  query: Uint8Array,
  kind: string,
  k: number,
): RawBuilder<{ id: number; distance: number }> {
  return sql<{ id: number; distance: number }>`select rowid as id, distance from search_vec
    where embedding match ${query} and k = ${k} and kind = ${kind} order by distance`;
}

/**
 * The name columns GET /search matches by substring, each with a trigram full-text index on
 * SQLite (FTS5 `trigram`, kept by triggers; migration 0027-endpoint-indexes): politicians' name
 * and slug, companies' ticker and name (through company_names, which gives each company a stable
 * integer id), ticker_trade_descriptions' ticker and description. PostgreSQL scans, as before.
 */
export const TRIGRAM_SOURCES = [
  { index: 'politicians_trigram', table: 'politicians', columns: ['name', 'slug'] },
  { index: 'company_names_trigram', table: 'company_names', columns: ['ticker', 'name'] },
  {
    index: 'ticker_descriptions_trigram',
    table: 'ticker_trade_descriptions',
    columns: ['ticker', 'asset_description'],
  },
] as const;

export type TrigramIndex = (typeof TRIGRAM_SOURCES)[number]['index'];

/** Pages a trigram index's merge writes in one statement (optimizeTrigramIndexes). */
export const TRIGRAM_MERGE_PAGES = 16;

/**
 * Merges each trigram index into one b-tree, on SQLite. The triggers add every row written as its
 * own small segment, and a match reads every segment: after a bulk load a trigram match cost
 * 0.2-0.4 ms against 0.03-0.08 ms merged, most of a GET /search call (BENCHMARKS.md). Run after
 * each ingest run that wrote data (and once by migration 0030-endpoint-speed). FTS5's 'optimize'
 * would rewrite a whole index in one statement, holding the write lock (and, under `serve`, the
 * event loop ingest shares with the API) while it does; here FTS5's 'merge' with a negative count
 * (every segment eligible, as few as two merged) writes TRIGRAM_MERGE_PAGES pages a statement,
 * with a turn of the event loop between statements, until one segment is left: the same index as
 * 'optimize' makes. PostgreSQL has no such index.
 */
export async function optimizeTrigramIndexes<DB>(db: Kysely<DB>): Promise<void> {
  if (!isSqlite(db as unknown as Kysely<unknown>)) return;
  for (const { index } of TRIGRAM_SOURCES) {
    let { segments, pages } = await fullTextShape(db, index);
    // One pass writes about every page once; the bound only guards the loop.
    for (let step = 0; segments > 1 && step < 4 * (pages / TRIGRAM_MERGE_PAGES) + 16; step++) {
      await sql
        .raw(`insert into ${index} (${index}, rank) values ('merge', -${TRIGRAM_MERGE_PAGES})`)
        .execute(db);
      await new Promise((resolve) => setImmediate(resolve));
      ({ segments, pages } = await fullTextShape(db, index));
    }
  }
}

/**
 * An FTS5 index's segments and pages, on SQLite: FTS5 numbers each segment's pages from its id
 * shifted 37 bits (ids under that are the index's own records). How far merged an index is.
 */
export async function fullTextShape<DB>(
  db: Kysely<DB>,
  index: TrigramIndex | 'search_fts',
): Promise<{ segments: number; pages: number }> {
  const { rows } = await sql
    .raw<{ segments: number; pages: number }>(
      `select count(distinct id >> 37) as segments, count(*) as pages from ${index}_data where id >> 37 > 0`,
    )
    .execute(db);
  return { segments: Number(rows[0]?.segments ?? 0), pages: Number(rows[0]?.pages ?? 0) };
}

/** Whether trigramCandidates can answer `pattern`: SQLite, a run of three characters, no escape. */
export function trigramUsable<DB>(db: Kysely<DB>, pattern: string): boolean {
  if (!isSqlite(db as unknown as Kysely<unknown>) || pattern.includes('\\')) return false;
  return pattern.split(/[%_]/).some((run) => [...run].length >= 3);
}

/**
 * The keys (politicians.id, companies.ticker, ticker_trade_descriptions.id) of the rows whose
 * `column` may match the LIKE `pattern`, from `index`, when the trigram index can answer that: on
 * SQLite, for a pattern with a run of at least three characters and no escaped wildcard. A superset
 * (the index folds case more widely than LIKE): the caller still applies the match itself.
 * Undefined otherwise, and the caller scans.
 */
export function trigramCandidates<DB>(
  db: Kysely<DB>,
  index: TrigramIndex,
  column: string,
  pattern: string,
): RawBuilder<unknown> | undefined {
  if (!trigramUsable(db, pattern)) return undefined;
  const ids = sql`select rowid from ${sql.table(index)} where ${sql.ref(column)} like ${pattern}`;
  return index === 'company_names_trigram' ? sql`select ticker from company_names where id in (${ids})` : ids;
}

/** SQLite: the row of `r` as a JSON object with the keys `fields` in order (see jsonObjectsArray). */
function sqliteJsonObject(
  fields: readonly string[],
  kinds: { booleans?: ReadonlySet<string>; json?: ReadonlySet<string> },
): RawBuilder<string> {
  const members = fields.map((field) => {
    const column = sql.ref(`r.${field}`);
    const value = kinds.booleans?.has(field)
      ? sql`json(case when ${column} then 'true' else 'false' end)`
      : kinds.json?.has(field)
        ? sql`json(${column})`
        : column;
    return sql`${sql.lit(field)}, ${value}`;
  });
  return sql<string>`json_object(${sql.join(members)})`;
}

/**
 * Each row of the subquery aliased `r` (its columns are `fields`, in order) as the text of one
 * JSON object with those keys in that order, the rows in `order` as the text of one JSON array
 * ('[]' without rows): SQLite `json_object`, PostgreSQL `row_to_json` (its keys are the column
 * names, no spaces: the bytes JSON.stringify writes). The columns in `booleans` hold a
 * comparison: SQLite answers it 0/1, written here as false/true; PostgreSQL's is a boolean. The
 * columns in `json` hold JSON text (SQLite) or a json value (PostgreSQL), written as that JSON. On
 * SQLite `asBytes` answers the array's UTF-8 bytes (a BLOB, a Buffer in better-sqlite3): a large
 * page goes to the socket without being decoded into a string and encoded back.
 */
export function jsonObjectsArray(
  db: Kysely<unknown>,
  fields: readonly string[],
  kinds: { booleans?: ReadonlySet<string>; json?: ReadonlySet<string> },
  order: RawBuilder<unknown>,
  asBytes: boolean,
): RawBuilder<string | Buffer> {
  if (!isSqlite(db))
    return sql<string>`coalesce('[' || string_agg(row_to_json(r)::text, ',' order by ${order}) || ']', '[]')`;
  const array = sql<string>`coalesce(json_group_array(${sqliteJsonObject(fields, kinds)} order by ${order}), '[]')`;
  return asBytes ? sql<Buffer>`cast(${array} as blob)` : array;
}

/**
 * The group's values as one comma-separated text, in the given order (null for no row): SQLite
 * `group_concat(... order by)`, PostgreSQL `string_agg`.
 */
export function commaJoinedInOrder<DB>(
  db: Kysely<DB>,
  value: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
): RawBuilder<string | null> {
  if (isSqlite(db as Kysely<unknown>))
    return sql<string | null>`group_concat(${value}, ',' order by ${order})`;
  return sql<string | null>`string_agg(cast(${value} as text), ',' order by ${order})`;
}

/**
 * A comma-separated text column (trades.quality_flags) as a JSON array inside the JSON the database
 * builds: [] for null. SQLite: json() marks the text as JSON for json_object; PostgreSQL: a json value.
 */
export function commaListAsJsonArray(db: Kysely<unknown>, column: RawBuilder<unknown>) {
  if (isSqlite(db))
    return sql`(case when ${column} is null then json('[]') else json('["' || replace(${column}, ',', '","') || '"]') end)`;
  return sql`coalesce(to_json(string_to_array(${column}, ',')), '[]'::json)`;
}

/**
 * A JSON object with these keys in this order, each value an SQL expression (a value from another
 * JSON helper here nests as JSON): SQLite `json_object`, PostgreSQL `row_to_json` of a one-row
 * subquery (json_build_object would write a space around each colon, which JSON serialization of
 * the objects does not).
 */
export function jsonObjectOf(
  db: Kysely<unknown>,
  members: ReadonlyArray<readonly [string, RawBuilder<unknown>]>,
): RawBuilder<unknown> {
  if (isSqlite(db))
    return sql`json_object(${sql.join(members.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`;
  return sql`(select row_to_json(o) from (select ${sql.join(
    members.map(([key, value]) => sql`${value} as ${sql.id(key)}`),
  )}) as o)`;
}

/** The member `key` of a JSON object held as text or json, as JSON that nests (SQLite `->`, PostgreSQL `->` on json). */
export function jsonMember(db: Kysely<unknown>, json: RawBuilder<unknown>, key: string): RawBuilder<unknown> {
  return isSqlite(db)
    ? sql`(${json} -> ${sql.lit(`$.${key}`)})`
    : sql`(cast(${json} as json) -> ${sql.lit(key)})`;
}

/**
 * The group's `value`s (each the text of a JSON value) joined as the text of one JSON array, '[]'
 * without rows; on SQLite `asBytes` answers its UTF-8 bytes. SQLite takes them in the order the
 * rows arrive: sorting them again in the aggregate copied a megabyte page into a sorter and
 * tripled the query's time (BENCHMARKS.md), so the caller's ordered page subquery must be read
 * alone or be the outer loop, which SQLite keeps for a CROSS JOIN. PostgreSQL may join in any
 * order: the values are sorted by `order`.
 */
export function jsonTextsArray(
  db: Kysely<unknown>,
  value: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
  asBytes = false,
): RawBuilder<string | Buffer> {
  if (!isSqlite(db))
    return sql<string>`coalesce('[' || string_agg(${value}, ',' order by ${order}) || ']', '[]')`;
  const array = sql<string>`coalesce('[' || group_concat(${value}, ',') || ']', '[]')`;
  return asBytes ? sql<Buffer>`cast(${array} as blob)` : array;
}
