// PostgreSQL: the trades a statement writes are counted once per statement, not once per row. The
// counting row triggers (ddl-trade-counts.ts) wrote their member's (or ticker's) counts row once
// per trade: a batch of a member's trades updated that row once per trade, and in one transaction
// every update leaves a version the next must step over, so a large batch cost the square of a
// member's trades. Statement triggers read the statement's rows from its transition tables and
// write each key once, the keys in order. The tables, keys and conditions are the row triggers'
// and the fills' (imported from there), so both count alike. SQLite has no statement triggers: its
// row triggers count every write, and keep no versions to step over.
import { type Kysely, sql } from 'kysely';
import {
  type CountedTrades,
  countsByKey,
  DESCRIPTION_COLUMNS,
  descriptionCounts,
  descriptionKey,
  inScope,
  recountColumns,
  TOTALS_ADD,
  TOTALS_COLUMNS,
  TRADE_COUNTS,
  TRADE_DATE_COUNTS,
  TRADE_SECTOR_COUNTS,
  totalsByMember,
} from './ddl-trade-counts.js';
import { isSqlite } from './dialect.js';

/** The counts tables, in the order every writer takes their rows (after the member totals). */
const COUNTS_TABLES = [TRADE_DATE_COUNTS, TRADE_COUNTS, TRADE_SECTOR_COUNTS] as const;

/**
 * PostgreSQL's row triggers that count trades (politician_trade_totals, ticker_trade_descriptions and
 * the counts tables), in the order PostgreSQL fires them (by name).
 */
const COUNTING_ROW_TRIGGERS = [
  'ticker_descriptions',
  'trade_totals',
  ...COUNTS_TABLES.map((counts) => counts.postgresTrigger),
] as const;

/**
 * PostgreSQL: inserted trades counted once per statement. One statement trigger adds each key's
 * count and sums from the statement's inserted rows (a transition table), the keys in order; the
 * row triggers keep updates and deletes until createChangedTradesCounting.
 */
export async function createInsertedTradesCounting(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  // Each key's count added as it is (the delta helpers below weigh old rows against new ones).
  const insertedCounts = (counts: CountedTrades) => {
    const key = counts.key.join(', ');
    return `insert into ${counts.table} (${key}, trade_count) ${countsByKey(counts, 'inserted')} order by ${key}
      on conflict (${key}) do update set trade_count = ${counts.table}.trade_count + excluded.trade_count;`;
  };
  await sql
    .raw(`create function trades_inserted_counts() returns trigger language plpgsql as $$
    begin
      insert into ticker_trade_descriptions (${DESCRIPTION_COLUMNS}) ${descriptionCounts('inserted')} order by 1, 2, 3
        on conflict (ticker, described, asset_description)
        do update set trade_count = ticker_trade_descriptions.trade_count + excluded.trade_count;
      insert into politician_trade_totals (${TOTALS_COLUMNS}) ${totalsByMember('inserted', 'countable')} order by 1
        ${TOTALS_ADD};
      ${COUNTS_TABLES.map(insertedCounts).join('\n      ')}
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger trades_inserted_counts after insert on trades referencing new table as inserted
      for each statement execute function trades_inserted_counts()`)
    .execute(db);
  for (const name of COUNTING_ROW_TRIGGERS) await rowTriggerOn(db, name, 'update or delete');
}

/** Back to counting inserts row by row (what createInsertedTradesCounting replaced). */
export async function dropInsertedTradesCounting(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  for (const name of COUNTING_ROW_TRIGGERS) await rowTriggerOn(db, name, 'insert or update or delete');
  await sql.raw('drop trigger if exists trades_inserted_counts on trades').execute(db);
  await sql.raw('drop function if exists trades_inserted_counts()').execute(db);
}

/** A statement's rows that leave the counts (`old`) or enter them (`new`), as transition tables. */
interface StatementRows {
  old: string | null;
  new: string | null;
}

/**
 * The change of each key's count a statement makes: one more per counted row of its new rows, one
 * less per counted row of its old ones (an updated row is in both; where it stays counted under the
 * same key the two cancel). Keys whose count does not change are left out; the rest in key order.
 */
function countsDelta(counts: CountedTrades, rows: StatementRows): string {
  const key = counts.key.join(', ');
  const signed = (relation: string, sign: number) =>
    `select ${key}, ${sign} as change from ${relation} where ${counts.counted('')}`;
  return countsUpsert(counts.table, key, key, signedUnion(rows, signed));
}

/** ticker_trade_descriptions' delta, as countsDelta's, then its keys left without a trade removed. */
function descriptionsDelta(rows: StatementRows): string {
  const keyOf = descriptionKey(undefined, { described: 'key_described', text: 'key_description' });
  const signed = (relation: string, sign: number) =>
    `select ${keyOf}, ${sign} as change from ${relation} where superseded_by is null`;
  const upsert = countsUpsert(
    'ticker_trade_descriptions',
    'ticker, described, asset_description',
    'ticker, key_described, key_description',
    signedUnion(rows, signed),
  );
  if (!rows.old) return upsert;
  return `${upsert}
      ${joining(`delete from ticker_trade_descriptions d using (select distinct ${keyOf} from ${rows.old}
          where superseded_by is null) k
        where d.ticker = k.ticker and d.described = k.key_described and d.asset_description = k.key_description
          and d.trade_count <= 0`)}`;
}

/**
 * Statements of at most this many rows run the joins below as static statements, larger ones
 * through EXECUTE. PL/pgSQL keeps the plan a static statement got on its first run in a session:
 * one planned for a one-row update joined the next update's hundred thousand rows in a nested
 * loop. EXECUTE plans for the rows at hand, but planning costs more than a small update itself.
 * Below this size any plan is cheap. The other statements read each transition table once, where
 * any plan is linear.
 */
const SMALL_STATEMENT_ROWS = 50;

/** A statement that joins a transition table, planned for a small statement or for the rows at hand. */
function joining(statement: string): string {
  return `if small then ${statement}; else execute $statement$ ${statement} $statement$; end if;`;
}

/** joining's loop: `body` for each row `member` of `query`. */
function joiningLoop(query: string, body: string): string {
  return `if small then
        for member in ${query} loop ${body} end loop;
      else
        for member in execute $query$ ${query} $query$ loop ${body} end loop;
      end if;`;
}

function signedUnion(rows: StatementRows, signed: (relation: string, sign: number) => string): string {
  const parts: string[] = [];
  if (rows.new) parts.push(signed(rows.new, 1));
  if (rows.old) parts.push(signed(rows.old, -1));
  return parts.join(' union all ');
}

function countsUpsert(table: string, columns: string, keys: string, changes: string): string {
  return `insert into ${table} (${columns}, trade_count)
        select ${keys}, sum(change) from (${changes}) changes group by ${keys} having sum(change) <> 0 order by ${keys}
        on conflict (${columns}) do update set trade_count = ${table}.trade_count + excluded.trade_count;`;
}

/**
 * politician_trade_totals after an update statement, as the row trigger kept it: a member one of
 * whose trades changed a column that can move the totals in any way (member, supersession, amount,
 * date, quality exclusion) is recounted, once however many of their trades moved, and both members
 * of a trade given to another; a member whose counted trades were only priced or unpriced has
 * enriched_trades moved by the difference. Members in order.
 */
function updatedTotals(): string {
  const changed = recountColumns('countable')
    .map((column) => `o.${column} is distinct from n.${column}`)
    .join(' or ');
  return joiningLoop(
    `with pairs as (
          select o.politician_id as old_member, n.politician_id as new_member, (${changed}) as moved,
            case when ${inScope('countable', 'n.')}
                and (o.price_on_trade_date is null) <> (n.price_on_trade_date is null)
              then case when n.price_on_trade_date is null then -1 else 1 end else 0 end as priced
          from old_rows o join new_rows n on n.id = o.id
        )
        select politician_id, bool_or(moved) as moved, sum(priced) as priced from (
          select old_member as politician_id, moved, case when moved then 0 else priced end as priced from pairs
          union all
          select new_member, true, 0 from pairs where moved and new_member <> old_member
        ) members group by politician_id having bool_or(moved) or sum(priced) <> 0 order by politician_id`,
    `if member.moved then
          perform trade_totals_recount(member.politician_id);
        else
          update politician_trade_totals set enriched_trades = enriched_trades + member.priced
            where politician_id = member.politician_id;
        end if;`,
  );
}

/** politician_trade_totals after a delete statement: each member who lost a counted trade, recounted. */
function deletedTotals(): string {
  return `for member in
        select distinct politician_id from removed where ${inScope('countable')} order by politician_id
      loop
        perform trade_totals_recount(member.politician_id);
      end loop;`;
}

/**
 * An update that changes none of the columns any count reads (most of enrichment's) counts nothing.
 * Checked on small statements only, where the check costs less than the counting it saves.
 */
function unchangedSmallUpdate(): string {
  const columns = new Set([
    'ticker',
    'asset_description',
    ...recountColumns('countable'),
    ...COUNTS_TABLES.flatMap((counts) => counts.moved),
  ]);
  const changed = [...columns].map((column) => `o.${column} is distinct from n.${column}`);
  changed.push('(o.price_on_trade_date is null) <> (n.price_on_trade_date is null)');
  return `if small then
        if not exists (select 1 from old_rows o join new_rows n on n.id = o.id where ${changed.join(' or ')}) then
          return null;
        end if;
      end if;`;
}

/** A statement trigger's function: the descriptions, the member totals, then the counts tables. */
function countingFunction(name: string, rows: StatementRows, totals: string): string {
  return `create function ${name}() returns trigger language plpgsql as $$
    declare
      member record;
      small boolean;
    begin
      small := (select count(*) from ${rows.old ?? rows.new}) <= ${SMALL_STATEMENT_ROWS};
      ${rows.new && rows.old ? unchangedSmallUpdate() : ''}
      ${descriptionsDelta(rows)}
      ${totals}
      ${COUNTS_TABLES.map((counts) => countsDelta(counts, rows)).join('\n      ')}
      return null;
    end $$`;
}

/**
 * PostgreSQL: updated and deleted trades counted once per statement too (inserts are, from
 * createInsertedTradesCounting on), by statement triggers over the statement's old and new rows,
 * and the counting row triggers dropped (their functions stay, for dropChangedTradesCounting).
 * Writers take the rows in the order the row triggers did: descriptions, member totals (members in
 * order), then trade_date_counts, trade_counts and trade_sector_counts, each in key order.
 */
export async function createChangedTradesCounting(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql
    .raw(countingFunction('trades_updated_counts', { old: 'old_rows', new: 'new_rows' }, updatedTotals()))
    .execute(db);
  await sql
    .raw(countingFunction('trades_deleted_counts', { old: 'removed', new: null }, deletedTotals()))
    .execute(db);
  // A trigger with transition tables cannot name columns (`update of …`): it fires for every update.
  await sql
    .raw(`create trigger trades_updated_counts after update on trades
      referencing old table as old_rows new table as new_rows
      for each statement execute function trades_updated_counts()`)
    .execute(db);
  await sql
    .raw(`create trigger trades_deleted_counts after delete on trades referencing old table as removed
      for each statement execute function trades_deleted_counts()`)
    .execute(db);
  for (const name of COUNTING_ROW_TRIGGERS) await sql.raw(`drop trigger ${name} on trades`).execute(db);
}

/** Back to counting updates and deletes row by row (what createChangedTradesCounting replaced). */
export async function dropChangedTradesCounting(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  for (const name of COUNTING_ROW_TRIGGERS) await rowTriggerOn(db, name, 'update or delete');
  for (const name of ['trades_updated_counts', 'trades_deleted_counts']) {
    await sql.raw(`drop trigger if exists ${name} on trades`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
}

/** PostgreSQL: the row trigger `name` (ddl-trade-counts.ts's createRowTrigger) made again for `events` only. */
async function rowTriggerOn(db: Kysely<unknown>, name: string, events: string): Promise<void> {
  await sql.raw(`drop trigger if exists ${name} on trades`).execute(db);
  await sql
    .raw(`create trigger ${name} after ${events} on trades for each row execute function ${name}_change()`)
    .execute(db);
}
