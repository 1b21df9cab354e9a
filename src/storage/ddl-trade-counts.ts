// The triggers that keep the tables counting trades in step with `trades` on both databases: the
// member totals (politician_trade_totals), the per-member counts (trade_counts, trade_sector_counts,
// trade_date_counts) and the ticker descriptions search reads. The migrations create them;
// ddl.ts holds the other schema helpers.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

/**
 * Which trades politician_trade_totals counts. `current`: not superseded by an amendment (what
 * migration 0021 counted, before trades carried quality flags); `countable`: current and not left
 * out by a quality flag (storage/repositories/quality.ts, countableTrade), from migration 0061 on.
 */
export type TradeTotalsScope = 'current' | 'countable';

/** The scope's condition on a trade row (`new.`, `old.` or the bare table). */
export function inScope(scope: TradeTotalsScope, row = ''): string {
  const current = `${row}superseded_by is null`;
  return scope === 'countable' ? `${current} and ${row}quality_excluded = 0` : current;
}

/** The totals of one member's counted trades, as columns of politician_trade_totals (both dialects). */
function memberTotalsSelect(scope: TradeTotalsScope, member: string): string {
  return `select ${member}, count(*), count(price_on_trade_date), coalesce(sum(amount_low), 0), count(amount_low),
      coalesce(sum(coalesce(amount_high, amount_low)), 0), count(coalesce(amount_high, amount_low)), max(transaction_date)
    from trades where politician_id = ${member} and ${inScope(scope)}`;
}

/** The totals of the counted trades of `relation` (trades, or a statement's inserted rows) per member. */
export function totalsByMember(relation: string, scope: TradeTotalsScope): string {
  return `select politician_id, count(*), count(price_on_trade_date), coalesce(sum(amount_low), 0), count(amount_low),
      coalesce(sum(coalesce(amount_high, amount_low)), 0), count(coalesce(amount_high, amount_low)), max(transaction_date)
    from ${relation} where ${inScope(scope)} group by politician_id`;
}

export const TOTALS_COLUMNS =
  'politician_id, trade_count, enriched_trades, volume_low, volume_low_rows, volume_high, volume_high_rows, last_trade_date';

const TOTALS_REPLACE = `on conflict (politician_id) do update set trade_count = excluded.trade_count,
  enriched_trades = excluded.enriched_trades, volume_low = excluded.volume_low, volume_low_rows = excluded.volume_low_rows,
  volume_high = excluded.volume_high, volume_high_rows = excluded.volume_high_rows, last_trade_date = excluded.last_trade_date`;

/** PostgreSQL: the totals of new trades (one or a statement's) added to their member's row. */
export const TOTALS_ADD = `on conflict (politician_id) do update set
  trade_count = politician_trade_totals.trade_count + excluded.trade_count,
  enriched_trades = politician_trade_totals.enriched_trades + excluded.enriched_trades,
  volume_low = politician_trade_totals.volume_low + excluded.volume_low,
  volume_low_rows = politician_trade_totals.volume_low_rows + excluded.volume_low_rows,
  volume_high = politician_trade_totals.volume_high + excluded.volume_high,
  volume_high_rows = politician_trade_totals.volume_high_rows + excluded.volume_high_rows,
  last_trade_date = greatest(politician_trade_totals.last_trade_date, excluded.last_trade_date)`;

/** A change to these columns of a trade can move its member's totals in any way: recount the member. */
const TOTALS_RECOUNT_COLUMNS = [
  'politician_id',
  'superseded_by',
  'amount_low',
  'amount_high',
  'transaction_date',
];

export function recountColumns(scope: TradeTotalsScope): string[] {
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
    .raw(`insert into politician_trade_totals (${TOTALS_COLUMNS}) ${totalsByMember('trades', scope)}`)
    .execute(db);
  const columns = recountColumns(scope);
  const recountChanged = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  if (isSqlite(db)) {
    const recount = (member: string) =>
      `insert into politician_trade_totals (${TOTALS_COLUMNS}) ${memberTotalsSelect(scope, member)} ${TOTALS_REPLACE};`;
    const sqliteChanged = recountChanged.replaceAll('is distinct from', 'is not');
    const unchanged = columns.map((column) => `old.${column} is new.${column}`).join(' and ');
    await createSqliteTrigger(
      db,
      'trade_totals_insert after insert',
      inScope(scope, 'new.'),
      `insert into politician_trade_totals (${TOTALS_COLUMNS}) values (new.politician_id, 1,
          new.price_on_trade_date is not null, coalesce(new.amount_low, 0), new.amount_low is not null,
          coalesce(new.amount_high, new.amount_low, 0), coalesce(new.amount_high, new.amount_low) is not null,
          new.transaction_date)
        on conflict (politician_id) do update set trade_count = trade_count + 1,
          enriched_trades = enriched_trades + excluded.enriched_trades,
          volume_low = volume_low + excluded.volume_low, volume_low_rows = volume_low_rows + excluded.volume_low_rows,
          volume_high = volume_high + excluded.volume_high, volume_high_rows = volume_high_rows + excluded.volume_high_rows,
          last_trade_date = case when last_trade_date is null or excluded.last_trade_date > last_trade_date
            then excluded.last_trade_date else last_trade_date end;`,
    );
    await createSqliteTrigger(
      db,
      'trade_totals_recount after update',
      sqliteChanged,
      `${recount('old.politician_id')} ${recount('new.politician_id')}`,
    );
    await createSqliteTrigger(
      db,
      'trade_totals_priced after update of price_on_trade_date',
      `${inScope(scope, 'new.')} and ${unchanged}
          and (old.price_on_trade_date is null) <> (new.price_on_trade_date is null)`,
      `update politician_trade_totals
          set enriched_trades = enriched_trades + (case when new.price_on_trade_date is null then -1 else 1 end)
          where politician_id = new.politician_id;`,
    );
    await createSqliteTrigger(
      db,
      'trade_totals_delete after delete',
      inScope(scope, 'old.'),
      recount('old.politician_id'),
    );
    return;
  }
  await sql
    .raw(`create function trade_totals_recount(member_id integer) returns void language sql as $$
      insert into politician_trade_totals (${TOTALS_COLUMNS}) ${memberTotalsSelect(scope, 'member_id')} ${TOTALS_REPLACE}
    $$`)
    .execute(db);
  await createRowTrigger(
    db,
    'trade_totals',
    `if tg_op = 'INSERT' then
        if ${inScope(scope, 'new.')} then
          insert into politician_trade_totals (${TOTALS_COLUMNS}) values (new.politician_id, 1,
            (new.price_on_trade_date is not null)::int, coalesce(new.amount_low, 0), (new.amount_low is not null)::int,
            coalesce(new.amount_high, new.amount_low, 0), (coalesce(new.amount_high, new.amount_low) is not null)::int,
            new.transaction_date)
          ${TOTALS_ADD};
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
      end if;`,
  );
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
 * A table of trades counted per key, kept exact by triggers on trades: `counted` is the condition
 * (on `new.`, `old.` or the bare table) a trade meets to be counted, `moved` every column whose
 * change can take a trade into, out of or across keys.
 */
export interface CountedTrades {
  table: string;
  key: readonly string[];
  counted: (row: string) => string;
  moved: readonly string[];
  /** SQLite's triggers are `<name>_insert`, `_delete`, `_leave` and `_enter`. */
  sqliteName: string;
  /** PostgreSQL's one trigger; see createCountTriggers on its name. */
  postgresTrigger: string;
}

/** trade_counts (migration 0078): countable trades per member, source and direction. */
export const TRADE_COUNTS: CountedTrades = {
  table: 'trade_counts',
  key: ['politician_id', 'source', 'trade_action'],
  counted: (row) => inScope('countable', row),
  moved: ['politician_id', 'source', 'trade_action', 'superseded_by', 'quality_excluded'],
  sqliteName: 'trade_counts',
  postgresTrigger: 'trade_totals_by_key',
};

/** trade_sector_counts (migration 0079): countable trades per member whose sector or industry is known. */
export const TRADE_SECTOR_COUNTS: CountedTrades = {
  table: 'trade_sector_counts',
  key: ['politician_id'],
  counted: (row) =>
    `${inScope('countable', row)} and (${row}sector is not null or ${row}industry is not null)`,
  moved: ['politician_id', 'superseded_by', 'quality_excluded', 'sector', 'industry'],
  sqliteName: 'trade_sector_counts',
  postgresTrigger: 'trade_totals_by_sector',
};

/**
 * trade_date_counts (migration 0103): countable trades per member and transaction date, so that a
 * count of a member's trades from a day on reads one row per day traded, not one per trade.
 */
export const TRADE_DATE_COUNTS: CountedTrades = {
  table: 'trade_date_counts',
  key: ['politician_id', 'transaction_date'],
  counted: (row) => inScope('countable', row),
  moved: ['politician_id', 'transaction_date', 'superseded_by', 'quality_excluded'],
  sqliteName: 'trade_date_counts',
  postgresTrigger: 'trade_totals_by_date',
};

/** The counted trades of `relation` (trades, or a statement's inserted rows) per key of `counts`. */
export function countsByKey(counts: CountedTrades, relation: string): string {
  const key = counts.key.join(', ');
  return `select ${key}, count(*) from ${relation} where ${counts.counted('')} group by ${key}`;
}

/**
 * Triggers on trades that add one to the key of a trade entering the counted set (inserted, or
 * updated into it) and take one from the key of a trade leaving it (deleted, or updated out of it
 * or to another key). Only counts are kept, so no change ever needs a recount. Fills the table
 * (which must be empty) from the trades already stored.
 */
async function createCountTriggers(db: Kysely<unknown>, counts: CountedTrades): Promise<void> {
  const { table } = counts;
  const key = counts.key.join(', ');
  await sql.raw(`insert into ${table} (${key}, trade_count) ${countsByKey(counts, 'trades')}`).execute(db);
  const keyOf = (row: 'new' | 'old') => counts.key.map((column) => `${row}.${column}`).join(', ');
  const keyIs = (row: 'new' | 'old') =>
    counts.key.map((column) => `${column} = ${row}.${column}`).join(' and ');
  const add = `insert into ${table} (${key}, trade_count) values (${keyOf('new')}, 1)
    on conflict (${key}) do update set trade_count = ${table}.trade_count + 1;`;
  const take = `update ${table} set trade_count = trade_count - 1 where ${keyIs('old')};`;
  if (isSqlite(db)) {
    const changed = counts.moved.map((column) => `old.${column} is not new.${column}`).join(' or ');
    const name = counts.sqliteName;
    await createSqliteTrigger(db, `${name}_insert after insert`, counts.counted('new.'), add);
    await createSqliteTrigger(db, `${name}_delete after delete`, counts.counted('old.'), take);
    // Two triggers for an update, each with its own condition: SQLite's trigger body has no if.
    const update = `after update of ${counts.moved.join(', ')}`;
    await createSqliteTrigger(
      db,
      `${name}_leave ${update}`,
      `(${changed}) and ${counts.counted('old.')}`,
      take,
    );
    await createSqliteTrigger(
      db,
      `${name}_enter ${update}`,
      `(${changed}) and ${counts.counted('new.')}`,
      add,
    );
    return;
  }
  const changed = counts.moved.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  // PostgreSQL fires a table's triggers in the order of their names: every counting trigger's name
  // sorts after the member totals' (`trade_totals`), so a writer takes the member's totals row
  // before its counts rows, in the same order as every other writer of that member's trades.
  await createRowTrigger(
    db,
    counts.postgresTrigger,
    `if tg_op in ('UPDATE', 'DELETE') and ${counts.counted('old.')}
          and (tg_op = 'DELETE' or ${changed}) then
        ${take}
      end if;
      if tg_op in ('INSERT', 'UPDATE') and ${counts.counted('new.')}
          and (tg_op = 'INSERT' or ${changed}) then
        ${add}
      end if;`,
  );
}

async function dropCountTriggers(db: Kysely<unknown>, counts: CountedTrades): Promise<void> {
  await dropRowTriggers(db, {
    sqlite: ['insert', 'delete', 'leave', 'enter'].map((event) => `${counts.sqliteName}_${event}`),
    postgres: { trigger: counts.postgresTrigger, functions: [`${counts.postgresTrigger}_change()`] },
  });
}

/** The one place trade_counts is maintained (createCountTriggers); fills it from the stored trades. */
export async function createTradeCountTriggers(db: Kysely<unknown>): Promise<void> {
  await createCountTriggers(db, TRADE_COUNTS);
}

export async function dropTradeCountTriggers(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, TRADE_COUNTS);
}

/** The one place trade_sector_counts is maintained (createCountTriggers); fills it from the stored trades. */
export async function createTradeSectorCountTriggers(db: Kysely<unknown>): Promise<void> {
  await createCountTriggers(db, TRADE_SECTOR_COUNTS);
}

export async function dropTradeSectorCountTriggers(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, TRADE_SECTOR_COUNTS);
}

/** The one place trade_date_counts is maintained (createCountTriggers); fills it from the stored trades. */
export async function createTradeDateCountTriggers(db: Kysely<unknown>): Promise<void> {
  await createCountTriggers(db, TRADE_DATE_COUNTS);
}

export async function dropTradeDateCountTriggers(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, TRADE_DATE_COUNTS);
}

/**
 * One of SQLite's row triggers on `trades` (one per event; `nameAndEvent` reads "name after
 * update …"): `body` runs for each row for which `when` holds.
 */
async function createSqliteTrigger(db: Kysely<unknown>, nameAndEvent: string, when: string, body: string) {
  await sql.raw(`create trigger ${nameAndEvent} on trades when ${when} begin ${body} end`).execute(db);
}

/**
 * PostgreSQL's one row trigger on `trades` for insert, update and delete (SQLite needs one per
 * event): function `<name>_change()` runs `branches`, an if/elsif on tg_op, and returns null as
 * an after trigger may. dropRowTriggers removes it. From migration 0109 on the counting triggers
 * fire on update and delete only, and from 0114 on not at all: statement triggers count instead
 * (ddl-trade-counts-statements.ts). One made again must be limited or dropped the same way.
 */
async function createRowTrigger(db: Kysely<unknown>, name: string, branches: string): Promise<void> {
  await sql
    .raw(`create function ${name}_change() returns trigger language plpgsql as $$
    begin
      ${branches}
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger ${name} after insert or update or delete on trades
      for each row execute function ${name}_change()`)
    .execute(db);
}

/**
 * Drops the row triggers a migration put on `trades`: SQLite's, one per event, by name;
 * PostgreSQL's one trigger, then the functions it (and they) call.
 */
export async function dropRowTriggers(
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

const described = (prefix: string) => `case when ${prefix}asset_description is null then 0 else 1 end`;
const describedText = (prefix: string) => `coalesce(${prefix}asset_description, '')`;

/**
 * A trade's key in ticker_trade_descriptions (migration 0027-endpoint-indexes): ticker, described,
 * text. `row` qualifies the trade's columns (a trigger's `new` or `old`); `as` names the last two.
 */
export function descriptionKey(row?: string, as?: { described: string; text: string }): string {
  const prefix = row ? `${row}.` : '';
  const name = (alias: string | undefined) => (alias ? ` as ${alias}` : '');
  return `${prefix}ticker, ${described(prefix)}${name(as?.described)}, ${describedText(prefix)}${name(as?.text)}`;
}
const DESCRIPTION_MATCH = (row: 'new' | 'old') =>
  `ticker = ${row}.ticker and described = (${described(`${row}.`)})
    and asset_description = ${describedText(`${row}.`)}`;

export const DESCRIPTION_COLUMNS = 'ticker, described, asset_description, trade_count';

/** The current trades of `relation` (trades, or a statement's inserted rows) per ticker_trade_descriptions key. */
export function descriptionCounts(relation: string): string {
  return `select ${descriptionKey()}, count(*) from ${relation} where superseded_by is null group by ${descriptionKey()}`;
}

/**
 * Keeps ticker_trade_descriptions (current trades counted per ticker and asset description) equal
 * to the aggregate over the trades on every insert, update and delete, and fills it from the
 * trades already stored. GET /search reads it instead of scanning every trade.
 */
export async function createTickerDescriptionTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`insert into ticker_trade_descriptions (${DESCRIPTION_COLUMNS}) ${descriptionCounts('trades')}`)
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
    await createSqliteTrigger(
      db,
      'ticker_descriptions_insert after insert',
      'new.superseded_by is null',
      count('new'),
    );
    await createSqliteTrigger(
      db,
      'ticker_descriptions_uncount after update',
      `old.superseded_by is null and (${moved})`,
      uncount('old'),
    );
    await createSqliteTrigger(
      db,
      'ticker_descriptions_count after update',
      `new.superseded_by is null and (${moved})`,
      count('new'),
    );
    await createSqliteTrigger(
      db,
      'ticker_descriptions_delete after delete',
      'old.superseded_by is null',
      uncount('old'),
    );
    return;
  }
  await createRowTrigger(
    db,
    'ticker_descriptions',
    `if tg_op = 'INSERT' then
        if new.superseded_by is null then ${count('new')} end if;
      elsif tg_op = 'DELETE' then
        if old.superseded_by is null then ${uncount('old')} end if;
      elsif old.ticker is distinct from new.ticker or old.asset_description is distinct from new.asset_description
          or (old.superseded_by is null) <> (new.superseded_by is null) then
        if old.superseded_by is null then ${uncount('old')} end if;
        if new.superseded_by is null then ${count('new')} end if;
      end if;`,
  );
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
