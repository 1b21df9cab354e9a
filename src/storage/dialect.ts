// The few places where SQLite and PostgreSQL differ, each behind one named helper.
import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely';

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

/** An auto-incrementing integer primary key column type for the current dialect. */
export function autoIdType(db: Kysely<unknown>): 'integer' | 'serial' {
  return isSqlite(db) ? 'integer' : 'serial';
}

export function autoIdColumn(db: Kysely<unknown>) {
  return (column: ColumnDefinitionBuilder) =>
    isSqlite(db) ? column.primaryKey().autoIncrement() : column.primaryKey();
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
  return isSqlite(db)
    ? sql<number>`max(0, cast(round(julianday(${today}) - julianday(${from})) as integer))`
    : sql<number>`greatest(0, cast(${today} as date) - cast(${from} as date))`;
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

/** Creates javascriptJsonNumberCall's function (PostgreSQL; nothing on SQLite). */
export async function createJavascriptJsonNumberFunction(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  const body = javascriptJsonNumber(db, sql.ref('v')).compile(db).sql;
  await sql
    .raw(`create or replace function javascript_json_number(v double precision) returns json
      language plpgsql immutable strict as $$ begin return ${body}; end $$`)
    .execute(db);
}

/** Drops javascriptJsonNumberCall's function (PostgreSQL; nothing on SQLite). */
export async function dropJavascriptJsonNumberFunction(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists javascript_json_number(double precision)`.execute(db);
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

/** The column type of raw bytes (embedding vectors, model parameters). */
export function binaryType(db: Kysely<unknown>): 'blob' | 'bytea' {
  return isSqlite(db as Kysely<unknown>) ? 'blob' : 'bytea';
}

/**
 * The full-text index over search_documents (title weighs more than body). SQLite: an FTS5 table
 * with the Porter stemmer kept in step with the documents by triggers. PostgreSQL: a stored
 * `tsvector` column (english configuration) with a GIN index.
 */
export async function createFullTextIndex(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db as Kysely<unknown>)) {
    await sql`create virtual table search_fts using fts5(title, body, content='search_documents',
      content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger search_fts_insert after insert on search_documents begin
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
    await sql`create trigger search_fts_delete after delete on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body); end`.execute(
      db,
    );
    await sql`create trigger search_fts_update after update of title, body on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
    return;
  }
  await sql`alter table search_documents add column tsv tsvector generated always as
    (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`.execute(
    db,
  );
  await sql`create index search_documents_tsv on search_documents using gin (tsv)`.execute(db);
}

export async function dropFullTextIndex(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db as Kysely<unknown>)) await sql`drop table if exists search_fts`.execute(db);
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

const vectorSupport = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the database has a KNN vector index: sqlite-vec loaded into SQLite. PostgreSQL without
 * pgvector (and SQLite without the extension) answers false; search then scans exactly in memory.
 */
export function vectorIndexAvailable<DB>(db: Kysely<DB>): Promise<boolean> {
  const executor = db.getExecutor();
  let known = vectorSupport.get(executor);
  if (!known) {
    known = isSqlite(db as Kysely<unknown>)
      ? sql`select vec_version() as v`.execute(db).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
    vectorSupport.set(executor, known);
  }
  return known;
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

export async function removeFromVectorIndex<DB>(db: Kysely<DB>, ids: readonly number[]): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    const chunk = ids.slice(at, at + 500).map((id) => sql`${id}`);
    await sql`delete from search_vec where rowid in (${sql.join(chunk)})`.execute(db);
  }
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
 * Which trades politician_trade_totals counts. `current`: not superseded by an amendment (what
 * migration 0021 counted, before trades carried quality flags); `countable`: current and not left
 * out by a quality flag (storage/repositories/quality.ts, countableTrade), from migration 0061 on.
 */
export type TradeTotalsScope = 'current' | 'countable';

/** The scope's condition on a trade row (`new.`, `old.` or the bare table). */
function inScope(scope: TradeTotalsScope, row = ''): string {
  const current = `${row}superseded_by is null`;
  return scope === 'countable' ? `${current} and ${row}quality_excluded = 0` : current;
}

/** The totals of one member's counted trades, as columns of politician_trade_totals (both dialects). */
function memberTotalsSelect(scope: TradeTotalsScope, member: string): string {
  return `select ${member}, count(*), count(price_on_trade_date), coalesce(sum(amount_low), 0), count(amount_low),
      coalesce(sum(coalesce(amount_high, amount_low)), 0), count(coalesce(amount_high, amount_low)), max(transaction_date)
    from trades where politician_id = ${member} and ${inScope(scope)}`;
}

const TOTALS_COLUMNS =
  'politician_id, trade_count, enriched_trades, volume_low, volume_low_rows, volume_high, volume_high_rows, last_trade_date';

const TOTALS_REPLACE = `on conflict (politician_id) do update set trade_count = excluded.trade_count,
  enriched_trades = excluded.enriched_trades, volume_low = excluded.volume_low, volume_low_rows = excluded.volume_low_rows,
  volume_high = excluded.volume_high, volume_high_rows = excluded.volume_high_rows, last_trade_date = excluded.last_trade_date`;

/** A change to these columns of a trade can move its member's totals in any way: recount the member. */
const TOTALS_RECOUNT_COLUMNS = [
  'politician_id',
  'superseded_by',
  'amount_low',
  'amount_high',
  'transaction_date',
];

function recountColumns(scope: TradeTotalsScope): string[] {
  return scope === 'countable' ? [...TOTALS_RECOUNT_COLUMNS, 'quality_excluded'] : TOTALS_RECOUNT_COLUMNS;
}

/**
 * The one place politician_trade_totals is maintained: triggers on trades, so every writer (ingest,
 * amendments superseding trades, enrichment setting prices, imports, hand-written SQL) keeps it
 * exact. A new current trade adds to its member's totals; enrichment pricing or unpricing a
 * trade moves enriched_trades by one; a change of member, supersession, amount or date, and a
 * delete, recount the member(s) concerned over the trades index. Under the `countable` scope a
 * change of quality_excluded recounts too, so a flag leaving a trade out of statistics leaves it
 * out of the totals. Fills the table (which must be empty) from the trades already stored.
 * SQLite: triggers with WHEN clauses; PostgreSQL: one PL/pgSQL row trigger.
 */
export async function createTradeTotalsTriggers(db: Kysely<unknown>, scope: TradeTotalsScope): Promise<void> {
  await sql
    .raw(`insert into politician_trade_totals (${TOTALS_COLUMNS})
      select politician_id, count(*), count(price_on_trade_date), coalesce(sum(amount_low), 0), count(amount_low),
        coalesce(sum(coalesce(amount_high, amount_low)), 0), count(coalesce(amount_high, amount_low)), max(transaction_date)
      from trades where ${inScope(scope)} group by politician_id`)
    .execute(db);
  const columns = recountColumns(scope);
  const recountChanged = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  if (isSqlite(db)) {
    const recount = (member: string) =>
      `insert into politician_trade_totals (${TOTALS_COLUMNS}) ${memberTotalsSelect(scope, member)} ${TOTALS_REPLACE};`;
    const sqliteChanged = recountChanged.replaceAll('is distinct from', 'is not');
    const unchanged = columns.map((column) => `old.${column} is new.${column}`).join(' and ');
    await sql
      .raw(`create trigger trade_totals_insert after insert on trades when ${inScope(scope, 'new.')} begin
        insert into politician_trade_totals (${TOTALS_COLUMNS}) values (new.politician_id, 1,
          new.price_on_trade_date is not null, coalesce(new.amount_low, 0), new.amount_low is not null,
          coalesce(new.amount_high, new.amount_low, 0), coalesce(new.amount_high, new.amount_low) is not null,
          new.transaction_date)
        on conflict (politician_id) do update set trade_count = trade_count + 1,
          enriched_trades = enriched_trades + excluded.enriched_trades,
          volume_low = volume_low + excluded.volume_low, volume_low_rows = volume_low_rows + excluded.volume_low_rows,
          volume_high = volume_high + excluded.volume_high, volume_high_rows = volume_high_rows + excluded.volume_high_rows,
          last_trade_date = case when last_trade_date is null or excluded.last_trade_date > last_trade_date
            then excluded.last_trade_date else last_trade_date end;
      end`)
      .execute(db);
    await sql
      .raw(`create trigger trade_totals_recount after update on trades when ${sqliteChanged} begin
        ${recount('old.politician_id')}
        ${recount('new.politician_id')}
      end`)
      .execute(db);
    await sql
      .raw(`create trigger trade_totals_priced after update of price_on_trade_date on trades
        when ${inScope(scope, 'new.')} and ${unchanged}
          and (old.price_on_trade_date is null) <> (new.price_on_trade_date is null) begin
        update politician_trade_totals
          set enriched_trades = enriched_trades + (case when new.price_on_trade_date is null then -1 else 1 end)
          where politician_id = new.politician_id;
      end`)
      .execute(db);
    await sql
      .raw(`create trigger trade_totals_delete after delete on trades when ${inScope(scope, 'old.')} begin
        ${recount('old.politician_id')}
      end`)
      .execute(db);
    return;
  }
  await sql
    .raw(`create function trade_totals_recount(member_id integer) returns void language sql as $$
      insert into politician_trade_totals (${TOTALS_COLUMNS}) ${memberTotalsSelect(scope, 'member_id')} ${TOTALS_REPLACE}
    $$`)
    .execute(db);
  await sql
    .raw(`create function trade_totals_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if ${inScope(scope, 'new.')} then
          insert into politician_trade_totals (${TOTALS_COLUMNS}) values (new.politician_id, 1,
            (new.price_on_trade_date is not null)::int, coalesce(new.amount_low, 0), (new.amount_low is not null)::int,
            coalesce(new.amount_high, new.amount_low, 0), (coalesce(new.amount_high, new.amount_low) is not null)::int,
            new.transaction_date)
          on conflict (politician_id) do update set trade_count = politician_trade_totals.trade_count + 1,
            enriched_trades = politician_trade_totals.enriched_trades + excluded.enriched_trades,
            volume_low = politician_trade_totals.volume_low + excluded.volume_low,
            volume_low_rows = politician_trade_totals.volume_low_rows + excluded.volume_low_rows,
            volume_high = politician_trade_totals.volume_high + excluded.volume_high,
            volume_high_rows = politician_trade_totals.volume_high_rows + excluded.volume_high_rows,
            last_trade_date = greatest(politician_trade_totals.last_trade_date, excluded.last_trade_date);
        end if;
      elsif tg_op = 'DELETE' then
        if ${inScope(scope, 'old.')} then perform trade_totals_recount(old.politician_id); end if;
      elsif ${recountChanged} then
        perform trade_totals_recount(old.politician_id);
        if new.politician_id <> old.politician_id then perform trade_totals_recount(new.politician_id); end if;
      elsif ${inScope(scope, 'new.')} and (old.price_on_trade_date is null) <> (new.price_on_trade_date is null) then
        update politician_trade_totals
          set enriched_trades = enriched_trades + (case when new.price_on_trade_date is null then -1 else 1 end)
          where politician_id = new.politician_id;
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger trade_totals after insert or update or delete on trades
      for each row execute function trade_totals_change()`)
    .execute(db);
}

export async function dropTradeTotalsTriggers(db: Kysely<unknown>): Promise<void> {
  await dropRowTriggers(db, {
    sqlite: ['trade_totals_insert', 'trade_totals_recount', 'trade_totals_priced', 'trade_totals_delete'],
    postgres: {
      trigger: 'trade_totals',
      functions: ['trade_totals_change()', 'trade_totals_recount(integer)'],
    },
  });
}

/**
 * Drops the row triggers a migration put on `trades`: SQLite's, one per event, by name;
 * PostgreSQL's one trigger, then the functions it (and they) call.
 */
async function dropRowTriggers(
  db: Kysely<unknown>,
  names: { sqlite: readonly string[]; postgres: { trigger: string; functions: readonly string[] } },
): Promise<void> {
  if (isSqlite(db)) {
    for (const name of names.sqlite) await sql.raw(`drop trigger if exists ${name}`).execute(db);
    return;
  }
  await sql.raw(`drop trigger if exists ${names.postgres.trigger} on trades`).execute(db);
  for (const fn of names.postgres.functions) await sql.raw(`drop function if exists ${fn}`).execute(db);
}

/** A trade's key in ticker_trade_descriptions (migration 0027-endpoint-indexes): ticker, described, text. */
const descriptionKey = (row: 'new' | 'old') =>
  `${row}.ticker, case when ${row}.asset_description is null then 0 else 1 end, coalesce(${row}.asset_description, '')`;
const DESCRIPTION_MATCH = (row: 'new' | 'old') =>
  `ticker = ${row}.ticker and described = (case when ${row}.asset_description is null then 0 else 1 end)
    and asset_description = coalesce(${row}.asset_description, '')`;

/**
 * Keeps ticker_trade_descriptions (current trades counted per ticker and asset description) equal
 * to the aggregate over the trades on every insert, update and delete, and fills it from the
 * trades already stored. GET /search reads it instead of scanning every trade.
 */
export async function createTickerDescriptionTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`insert into ticker_trade_descriptions (ticker, described, asset_description, trade_count)
      select ticker, case when asset_description is null then 0 else 1 end, coalesce(asset_description, ''), count(*)
      from trades where superseded_by is null
      group by ticker, case when asset_description is null then 0 else 1 end, coalesce(asset_description, '')`)
    .execute(db);
  const count = (
    row: 'new' | 'old',
  ) => `insert into ticker_trade_descriptions (ticker, described, asset_description, trade_count)
      values (${descriptionKey(row)}, 1)
      on conflict (ticker, described, asset_description)
      do update set trade_count = ticker_trade_descriptions.trade_count + 1;`;
  const uncount = (row: 'new' | 'old') => `update ticker_trade_descriptions set trade_count = trade_count - 1
      where ${DESCRIPTION_MATCH(row)};
    delete from ticker_trade_descriptions where ${DESCRIPTION_MATCH(row)} and trade_count <= 0;`;
  if (isSqlite(db)) {
    const moved = `old.ticker is not new.ticker or old.asset_description is not new.asset_description
      or (old.superseded_by is null) <> (new.superseded_by is null)`;
    await sql
      .raw(`create trigger ticker_descriptions_insert after insert on trades when new.superseded_by is null begin
        ${count('new')}
      end`)
      .execute(db);
    await sql
      .raw(`create trigger ticker_descriptions_uncount after update on trades
        when old.superseded_by is null and (${moved}) begin
        ${uncount('old')}
      end`)
      .execute(db);
    await sql
      .raw(`create trigger ticker_descriptions_count after update on trades
        when new.superseded_by is null and (${moved}) begin
        ${count('new')}
      end`)
      .execute(db);
    await sql
      .raw(`create trigger ticker_descriptions_delete after delete on trades when old.superseded_by is null begin
        ${uncount('old')}
      end`)
      .execute(db);
    return;
  }
  await sql
    .raw(`create function ticker_descriptions_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.superseded_by is null then ${count('new')} end if;
      elsif tg_op = 'DELETE' then
        if old.superseded_by is null then ${uncount('old')} end if;
      elsif old.ticker is distinct from new.ticker or old.asset_description is distinct from new.asset_description
          or (old.superseded_by is null) <> (new.superseded_by is null) then
        if old.superseded_by is null then ${uncount('old')} end if;
        if new.superseded_by is null then ${count('new')} end if;
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger ticker_descriptions after insert or update or delete on trades
      for each row execute function ticker_descriptions_change()`)
    .execute(db);
}

export async function dropTickerDescriptionTriggers(db: Kysely<unknown>): Promise<void> {
  await dropRowTriggers(db, {
    sqlite: [
      'ticker_descriptions_insert',
      'ticker_descriptions_uncount',
      'ticker_descriptions_count',
      'ticker_descriptions_delete',
    ],
    postgres: { trigger: 'ticker_descriptions', functions: ['ticker_descriptions_change()'] },
  });
}

/**
 * The name columns GET /search matches by substring, each with a trigram full-text index on
 * SQLite (FTS5 `trigram`, kept by triggers; migration 0027-endpoint-indexes): politicians' name
 * and slug, companies' ticker and name (through company_names, which gives each company a stable
 * integer id), ticker_trade_descriptions' ticker and description. PostgreSQL scans, as before.
 */
const TRIGRAM_SOURCES = [
  { index: 'politicians_trigram', table: 'politicians', columns: ['name', 'slug'] },
  { index: 'company_names_trigram', table: 'company_names', columns: ['ticker', 'name'] },
  {
    index: 'ticker_descriptions_trigram',
    table: 'ticker_trade_descriptions',
    columns: ['ticker', 'asset_description'],
  },
] as const;

export type TrigramIndex = (typeof TRIGRAM_SOURCES)[number]['index'];

export async function createTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create table company_names (id integer primary key, ticker text not null unique, name text)`.execute(
    db,
  );
  await sql`insert into company_names (ticker, name) select ticker, name from companies order by ticker`.execute(
    db,
  );
  await sql
    .raw(`create trigger company_names_insert after insert on companies begin
      insert into company_names (ticker, name) values (new.ticker, new.name); end`)
    .execute(db);
  await sql
    .raw(`create trigger company_names_update after update of ticker, name on companies begin
      update company_names set ticker = new.ticker, name = new.name where ticker = old.ticker; end`)
    .execute(db);
  await sql
    .raw(`create trigger company_names_delete after delete on companies begin
      delete from company_names where ticker = old.ticker; end`)
    .execute(db);
  for (const { index, table, columns } of TRIGRAM_SOURCES) {
    const list = columns.join(', ');
    const values = (row: 'new' | 'old') => columns.map((column) => `${row}.${column}`).join(', ');
    await sql
      .raw(`create virtual table ${index} using fts5(${list}, content='${table}', content_rowid='id',
      tokenize='trigram')`)
      .execute(db);
    await sql.raw(`insert into ${index} (${index}) values ('rebuild')`).execute(db);
    await sql
      .raw(`create trigger ${index}_insert after insert on ${table} begin
      insert into ${index} (rowid, ${list}) values (new.id, ${values('new')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_delete after delete on ${table} begin
      insert into ${index} (${index}, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_update after update of id, ${list} on ${table} begin
      insert into ${index} (${index}, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into ${index} (rowid, ${list}) values (new.id, ${values('new')}); end`)
      .execute(db);
  }
}

/**
 * Merges each trigram index into one b-tree (FTS5 'optimize'), on SQLite. The triggers add every
 * row written as its own small segment, and a match reads every segment: after a bulk load a
 * trigram match cost 0.2-0.4 ms against 0.03-0.08 ms merged, most of a GET /search call
 * (BENCHMARKS.md). Run after each ingest run (and once by migration 0030-endpoint-speed);
 * ~0.25 s over the bench database's 17,000 companies. PostgreSQL has no such index.
 */
export async function optimizeTrigramIndexes<DB>(db: Kysely<DB>): Promise<void> {
  if (!isSqlite(db as unknown as Kysely<unknown>)) return;
  for (const { index } of TRIGRAM_SOURCES)
    await sql.raw(`insert into ${index} (${index}) values ('optimize')`).execute(db);
}

export async function dropTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  for (const { index } of TRIGRAM_SOURCES) {
    for (const event of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger if exists ${index}_${event}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  }
  for (const event of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger if exists company_names_${event}`).execute(db);
  await sql`drop table if exists company_names`.execute(db);
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

/** What separates the objects jsonObjectsJoined returns (JSON text never holds it unescaped). */
export const JSON_OBJECT_SEPARATOR = '\u001e';

/**
 * Each row of the subquery aliased `r` (its columns are `fields`, in order) as the text of one
 * JSON object with those keys in that order, the rows joined by JSON_OBJECT_SEPARATOR in the
 * subquery's order (null without rows): SQLite `json_object`, PostgreSQL `row_to_json` (its keys
 * are the column names, no spaces: the bytes JSON.stringify writes). The columns in `booleans`
 * hold a comparison: SQLite answers it 0/1, written here as false/true; PostgreSQL's is a boolean.
 */
export function jsonObjectsJoined(
  db: Kysely<unknown>,
  fields: readonly string[],
  booleans: ReadonlySet<string>,
): RawBuilder<string | null> {
  if (!isSqlite(db)) return sql<string | null>`string_agg(row_to_json(r)::text, chr(30))`;
  const members = fields.map((field) => {
    const column = sql.ref(`r.${field}`);
    const value = booleans.has(field) ? sql`json(case when ${column} then 'true' else 'false' end)` : column;
    return sql`${sql.lit(field)}, ${value}`;
  });
  return sql<string | null>`group_concat(json_object(${sql.join(members)}), char(30))`;
}

/**
 * Trade columns the touch trigger does not compare: bookkeeping, not part of what a trade says (a
 * write that changes only these, enrichment stamping `enriched_at` on a trade whose market fields
 * came out the same, is not a change a client syncing with `updated_since` needs to see), and
 * columns whose one writer stamps `updated_at` itself.
 */
const TRADE_BOOKKEEPING_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'created_at',
  'updated_at',
  'enriched_at',
  'enrich_due',
  'awaiting_prices',
  // The quality pass's columns: the pass stamps `updated_at` with its run's clock when it changes
  // them (storage/repositories/quality.ts). Compared here, a pass whose clock reads the stored time
  // (a test's fixed clock) would have its stamp replaced by the database's clock.
  'quality_flags',
  'quality_excluded',
  'identity_match',
]);

/** The columns of `trades` as the database has them now. */
async function tradeColumns(db: Kysely<unknown>): Promise<string[]> {
  const rows = isSqlite(db)
    ? await sql<{ name: string }>`select name from pragma_table_info('trades') order by cid`.execute(db)
    : await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'trades' order by ordinal_position`.execute(
        db,
      );
  return rows.rows.map((row) => row.name);
}

/**
 * Keeps `trades.updated_at` the time of the last change to what a trade says, whoever writes it:
 * ingest and amendments (which stamp it themselves, with their clock), and every other writer
 * (enrichment's market fields, sectors, signals, ticker resolution, hand-written SQL), for which a
 * trigger stamps it with the database's clock when one of the trade's columns (all but the
 * bookkeeping ones, as the table has them when this runs) changes value and the writer left
 * `updated_at` alone. A rewrite that changes nothing leaves it as it was. A migration that adds a
 * column to `trades` calls dropTradeTouchTriggers and then this again, so the new column counts.
 * SQLite: an AFTER UPDATE trigger with a WHEN clause; PostgreSQL: a BEFORE UPDATE row trigger.
 */
export async function createTradeTouchTriggers(db: Kysely<unknown>): Promise<void> {
  const columns = (await tradeColumns(db)).filter((column) => !TRADE_BOOKKEEPING_COLUMNS.has(column));
  if (isSqlite(db)) {
    const changed = columns.map((column) => `old.${column} is not new.${column}`).join(' or ');
    await sql
      .raw(`create trigger trades_touch after update on trades
        when new.updated_at is old.updated_at and (${changed}) begin
        update trades set updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') where id = new.id;
      end`)
      .execute(db);
    return;
  }
  const changed = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  await sql
    .raw(`create function trades_touch() returns trigger language plpgsql as $$
    begin
      if new.updated_at is not distinct from old.updated_at and (${changed}) then
        new.updated_at := to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      end if;
      return new;
    end $$`)
    .execute(db);
  await sql
    .raw('create trigger trades_touch before update on trades for each row execute function trades_touch()')
    .execute(db);
}

/**
 * Runs a migration step that adds or drops columns of `trades` with the touch trigger out of the
 * way, then creates it again over the columns the table has now (when it was there): a trigger
 * lists the columns it compares, so a new column would otherwise not count as a change, and
 * SQLite refuses to drop a column a trigger names. Migrations that run before the trigger exists
 * (it comes with 0055-trade-sync-fields) leave it alone; it then sees their columns when created.
 */
export async function withTradeTouchTriggersRefreshed(
  db: Kysely<unknown>,
  step: () => Promise<void>,
): Promise<void> {
  const present = isSqlite(db)
    ? await sql`select 1 from sqlite_master where type = 'trigger' and name = 'trades_touch'`.execute(db)
    : await sql`select 1 from pg_trigger where tgname = 'trades_touch' and not tgisinternal`.execute(db);
  if (present.rows.length === 0) return step();
  await dropTradeTouchTriggers(db);
  await step();
  await createTradeTouchTriggers(db);
}

export async function dropTradeTouchTriggers(db: Kysely<unknown>): Promise<void> {
  await dropRowTriggers(db, {
    sqlite: ['trades_touch'],
    postgres: { trigger: 'trades_touch', functions: ['trades_touch()'] },
  });
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
