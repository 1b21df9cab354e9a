// Read queries over politicians: profiles with trade counts, lists, committees.
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { type PoliticianSortColumn, STAT_SORT_COLUMNS } from '../../domain/sorts.js';
import { compiledOnce } from '../compiled-queries.js';
import {
  containsInsensitive,
  isSqlite,
  javascriptJsonNumber,
  jsonObjectsArray,
  positionsOfJsonArray,
} from '../dialect.js';
import { pageLimit } from '../list-order.js';
import type { Database } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

const STAT_SORTS = new Set<PoliticianSortColumn>(STAT_SORT_COLUMNS);

export interface ProfileOrder {
  column: PoliticianSortColumn;
  direction: 'asc' | 'desc';
  /** A statistic ranks only members with this many enriched trades; the others follow (0: all). */
  minTrades?: number;
}

export interface PoliticianListFilter {
  search?: string;
  chambers?: readonly string[];
  parties?: readonly string[];
  states?: readonly string[];
  inOffice?: boolean;
  hasTrades?: boolean;
  /** Members holding one of these leadership titles (lower case) on `on`, or before it and not on it. */
  role?: { titles: readonly string[]; on: string; former: boolean };
}

/** A stored sum, or null when no trade had an amount (as SUM over no value answers). */
const volume = (sum: 'volume_low' | 'volume_high') =>
  sql<number | null>`case when ${sql.ref(`s.${sum}_rows`)} > 0 then ${sql.ref(`s.${sum}`)} end`;

/**
 * The member's own columns a summary serves as they are, after its id and in the resource's order:
 * read by profileQuery, written into the JSON by summaryFields and copied by toSummary
 * (services/politicians.ts).
 */
export const SUMMARY_MEMBER_COLUMNS = [
  'name',
  'party',
  'party_name',
  'state',
  'chamber',
  'slug',
  'bioguide_id',
  'district',
  'title',
  'agency',
  'service_start',
  'service_end',
] as const;

// The trade totals come from politician_trade_totals, kept by triggers on every trade write
// (migration 0021-politician-stats): no aggregate over the trades per call.
function profileQuery(db: Kysely<Database>) {
  return db
    .selectFrom('politicians as p')
    .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id')
    .leftJoin('politician_stats as ps', 'ps.politician_id', 'p.id')
    .select([
      'p.id as politician_id',
      ...SUMMARY_MEMBER_COLUMNS.map((column) => `p.${column}` as const),
      'p.in_office',
      sql<number>`coalesce(s.trade_count, 0)`.as('trade_count'),
      sql<number>`coalesce(s.enriched_trades, 0)`.as('enriched_trades'),
      's.last_trade_date',
      volume('volume_low').as('total_volume_low'),
      volume('volume_high').as('total_volume_high'),
      'ps.win_rate',
      'ps.wins',
      'ps.losses',
      'ps.avg_alpha_30d',
      'ps.avg_alpha_90d',
      'ps.sharpe_ratio',
      'ps.sharpe_ratio_low',
      'ps.sharpe_ratio_high',
      'ps.portfolio_return',
      'ps.portfolio_return_low',
      'ps.portfolio_return_high',
      'ps.cagr',
      'ps.cagr_low',
      'ps.cagr_high',
      'ps.conflict_score',
      'ps.conflict_score_low',
      'ps.conflict_score_high',
      'ps.holdings_count',
      'ps.priced_share',
      'ps.portfolio_start',
      'ps.portfolio_end',
      'ps.computed_at as stats_computed_at',
    ]);
}

type ProfileQuery = SelectQueryBuilder<
  Database & {
    p: Database['politicians'];
    s: Database['politician_trade_totals'];
    ps: Database['politician_stats'];
  },
  'p' | 's' | 'ps',
  object
>;

export type ProfileRecord = Awaited<ReturnType<ReturnType<typeof profileQuery>['execute']>>[number];

/** By numeric id or slug. */
export async function findProfile(
  db: Kysely<Database>,
  idOrSlug: string,
): Promise<ProfileRecord | undefined> {
  const id = await findPoliticianId(db, idOrSlug);
  if (id === undefined) return undefined;
  return profileQuery(db).where('p.id', '=', id).executeTakeFirst();
}

export async function findPoliticianId(db: Kysely<Database>, idOrSlug: string): Promise<number | undefined> {
  const query = db.selectFrom('politicians').select('id');
  const row = /^\d{1,9}$/.test(idOrSlug)
    ? await query.where('id', '=', Number(idOrSlug)).executeTakeFirst()
    : await query.where('slug', '=', idOrSlug.toLowerCase()).executeTakeFirst();
  return row?.id;
}

function filtered(db: Kysely<Database>, filter: PoliticianListFilter) {
  return applyFilter(profileQuery(db), filter);
}

function applyFilter<Q extends ProfileQuery>(profiles: Q, filter: PoliticianListFilter): Q {
  let query = profiles as ProfileQuery;
  if (filter.search) {
    const needle = filter.search;
    query = query.where((eb) =>
      eb.or([
        containsInsensitive('p.name', needle),
        containsInsensitive('p.slug', needle.replace(/\s+/g, '-')),
      ]),
    );
  }
  if (filter.chambers?.length) query = query.where('p.chamber', 'in', [...filter.chambers]);
  if (filter.parties?.length) query = query.where('p.party', 'in', [...filter.parties]);
  if (filter.states?.length) query = query.where('p.state', 'in', [...filter.states]);
  if (filter.inOffice !== undefined) query = query.where('p.in_office', '=', filter.inOffice ? 1 : 0);
  if (filter.hasTrades !== undefined) {
    query = filter.hasTrades
      ? query.where('s.trade_count', '>', 0)
      : query.where((eb) => eb.or([eb('s.trade_count', 'is', null), eb('s.trade_count', '=', 0)]));
  }
  const role = filter.role;
  // The members who held one of the titles on the date (a term ends on the day the next begins, as
  // the legislators files date them), or, `former`, who held it before the date and not on it.
  if (role) {
    query = query.where((eb) => {
      const titled = () =>
        eb
          .selectFrom('politician_roles as r')
          .select('r.politician_id')
          .where(sql<string>`lower(${sql.ref('r.title')})`, 'in', [...role.titles]);
      const heldOn = () =>
        titled()
          .where('r.start_date', '<=', role.on)
          .where((inner) => inner.or([inner('r.end_date', 'is', null), inner('r.end_date', '>', role.on)]));
      const holders = role.former
        ? titled().where('r.end_date', '<=', role.on).where('r.politician_id', 'not in', heldOn())
        : heldOn();
      return eb('p.id', 'in', holders);
    });
  }
  return query as Q;
}

/**
 * A page of profiles, ranked. The ranking needs every member's sort key (no index holds it, and
 * the roster has every member since 1789: ~12,800 rows), so the page's ids are chosen first over
 * the sort keys alone, and only those rows are read in full: sorting ~12,800 forty-column rows
 * cost most of a `/politicians?limit=100` call (BENCHMARKS.md).
 */
export async function listProfiles(
  db: Kysely<Database>,
  filter: PoliticianListFilter,
  order: ProfileOrder,
  page: { limit: number; offset: number },
): Promise<ProfileRecord[]> {
  const ids =
    order.column === 'trade_count'
      ? await idsByTradeCount(db, filter, order.direction, page)
      : await idsBySortKeys(db, filter, order, page);
  if (ids.length === 0) return [];
  return ranked(profileQuery(db).where('p.id', 'in', ids), order).execute();
}

/**
 * listProfiles' page as the text of its JSON array: each member's summary (the politician
 * resource's fields in its order, as the object path's toSummary computes them, `rank` last), built
 * by the database: no JS object per member and field (a 100-member page read as objects cost 0.94
 * ms of SQLite's time against 0.32 as JSON, BENCHMARKS.md), and no string work per member here.
 * The page's ids, chosen first in rank order, are bound as one JSON array and the rows written in
 * that order, each ranked `offset` + its position. The fields in `nulled` are null (plan gating).
 * Compiled once per set of nulled fields; on SQLite prepared once and run synchronously.
 */
export async function listProfilesJson(
  db: Kysely<Database>,
  filter: PoliticianListFilter,
  order: ProfileOrder,
  page: { limit: number; offset: number },
  nulled: ReadonlySet<string>,
): Promise<{ json: string | Buffer; rows: number }> {
  const ids =
    order.column === 'trade_count'
      ? await idsByTradeCount(db, filter, order.direction, page)
      : await idsBySortKeys(db, filter, order, page);
  if (ids.length === 0) return { json: '[]', rows: 0 };
  const asBytes = isSqlite(db as unknown as Kysely<unknown>) && ids.length > BYTES_PAGE_ROWS;
  const key = `profiles.json${asBytes ? '.bytes' : ''}:${[...nulled].join(',')}`;
  const build = (param: (name: 'ids' | 'offset') => never) =>
    summariesJsonQuery(db, param('ids'), param('offset'), nulled, asBytes);
  const values = { ids: JSON.stringify(ids), offset: page.offset };
  const sqlite = syncSqliteOf(db);
  const row = sqlite
    ? (preparedQuery<'ids' | 'offset'>(sqlite, key, build).get(values) as
        | { json: string | Buffer }
        | undefined)
    : (await compiledOnce<'ids' | 'offset', { json: string }>(db, key, build).execute(values))[0];
  return { json: row?.json ?? '[]', rows: ids.length };
}

/** The SQL of each summary field, in the resource's order (toSummary and statsOf in services/politicians.ts). */
function summaryFields(db: Kysely<Database>) {
  const real = (value: RawBuilder<unknown>) => javascriptJsonNumber(db as unknown as Kysely<unknown>, value);
  const ref = (column: string) => sql.ref(column);
  const stat = (column: string) => real(ref(`ps.${column}`));
  // The counts of the statistics are numbers once they were computed (Number(null) is 0), else null.
  const computedCount = (column: string) =>
    sql`case when ps.computed_at is not null then coalesce(${ref(`ps.${column}`)}, 0) end`;
  return [
    ['politician_id', ref('p.id')],
    ...SUMMARY_MEMBER_COLUMNS.map((column) => [column, ref(`p.${column}`)] as const),
    ['in_office', sql`(p.in_office = 1)`],
    ['trade_count', sql`coalesce(s.trade_count, 0)`],
    ['enriched_trades', sql`coalesce(s.enriched_trades, 0)`],
    ['win_rate', stat('win_rate')],
    ['wins', computedCount('wins')],
    ['losses', computedCount('losses')],
    ...[
      'avg_alpha_30d',
      'avg_alpha_90d',
      'sharpe_ratio',
      'sharpe_ratio_low',
      'sharpe_ratio_high',
      'portfolio_return',
      'portfolio_return_low',
      'portfolio_return_high',
      'cagr',
      'cagr_low',
      'cagr_high',
      'conflict_score',
      'conflict_score_low',
      'conflict_score_high',
    ].map((column) => [column, stat(column)] as const),
    ['holdings_count', computedCount('holdings_count')],
    ['portfolio_priced_share', stat('priced_share')],
    ['portfolio_start', ref('ps.portfolio_start')],
    ['portfolio_end', ref('ps.portfolio_end')],
    ['stats_computed_at', ref('ps.computed_at')],
    ['total_volume_low', real(volume('volume_low'))],
    ['total_volume_high', real(volume('volume_high'))],
    ['last_trade_date', ref('s.last_trade_date')],
  ] as const;
}

function summariesJsonQuery(
  db: Kysely<Database>,
  idsJson: unknown,
  offset: unknown,
  nulled: ReadonlySet<string>,
  asBytes: boolean,
) {
  const fields = [
    ...summaryFields(db).map(([field, value]) => [field, nulled.has(field) ? sql`null` : value] as const),
    ['rank', sql`k.position + cast(${offset} as integer)`] as const,
  ];
  const inner = db
    .selectFrom(positionsOfJsonArray(db as unknown as Kysely<unknown>, idsJson).as('k'))
    .innerJoin('politicians as p', 'p.id', 'k.id')
    .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id')
    .leftJoin('politician_stats as ps', 'ps.politician_id', 'p.id')
    .select(fields.map(([field, value]) => (value as RawBuilder<unknown>).as(field)));
  return db.selectFrom(inner.as('r')).select(
    jsonObjectsArray(
      db as unknown as Kysely<unknown>,
      fields.map(([field]) => field),
      { booleans: BOOLEAN_SUMMARY_FIELDS },
      sql.ref('r.rank'),
      asBytes,
    ).as('json'),
  );
}

const BOOLEAN_SUMMARY_FIELDS: ReadonlySet<string> = new Set(['in_office']);

/** The page's ids for any order: every filtered member's sort key, sorted. */
async function idsBySortKeys(
  db: Kysely<Database>,
  filter: PoliticianListFilter,
  order: ProfileOrder,
  page: { limit: number; offset: number },
): Promise<number[]> {
  // The keys: only the tables the filter and the order read (the statistics for their sorts).
  let keyed = db
    .selectFrom('politicians as p')
    .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id') as unknown as ProfileQuery;
  if (STAT_SORTS.has(order.column))
    keyed = keyed.leftJoin('politician_stats as ps', 'ps.politician_id', 'p.id') as unknown as ProfileQuery;
  const rows = await ranked(applyFilter(keyed, filter), order)
    .select('p.id')
    .limit(pageLimit(page.limit))
    .offset(page.offset)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The page's ids in the default ranking (trade count, then id, in one direction) without sorting
 * the roster: the members with trades in the order of the index on politician_trade_totals
 * (migration 0027-endpoint-indexes), and the members without, by id; one part after the other
 * (with trades first when descending). Only the members with trades were ever worth sorting:
 * ~12,800 roster rows against a few hundred with trades (BENCHMARKS.md).
 */
async function idsByTradeCount(
  db: Kysely<Database>,
  filter: PoliticianListFilter,
  direction: 'asc' | 'desc',
  page: { limit: number; offset: number },
): Promise<number[]> {
  const withTrades = (limit: number, offset: number) =>
    applyFilter(
      db
        .selectFrom('politician_trade_totals as s')
        .innerJoin('politicians as p', 'p.id', 's.politician_id') as unknown as ProfileQuery,
      filter,
    )
      .where('s.trade_count', '>', 0)
      .select('p.id')
      .orderBy('s.trade_count', direction)
      .orderBy('s.politician_id', direction)
      .limit(limit)
      .offset(offset);
  const withoutTrades = (limit: number, offset: number) =>
    applyFilter(
      db
        .selectFrom('politicians as p')
        .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id') as unknown as ProfileQuery,
      filter,
    )
      .where(sql<boolean>`coalesce(s.trade_count, 0) = 0`)
      .select('p.id')
      .orderBy('p.id', direction)
      .limit(limit)
      .offset(offset);
  const [first, second] = direction === 'desc' ? [withTrades, withoutTrades] : [withoutTrades, withTrades];
  const head = (await first(page.limit, page.offset).execute()).map((row) => row.id);
  if (head.length === page.limit) return head;
  // The first part ends on this page (or before it): how many rows it has says where the second starts.
  const firstSize =
    head.length > 0
      ? page.offset + head.length
      : Number(
          (
            await db
              .selectFrom(
                first(1, 0).clearSelect().clearOrderBy().clearLimit().clearOffset().select('p.id').as('f'),
              )
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
  const tail = await second(page.limit - head.length, Math.max(0, page.offset - firstSize)).execute();
  return [...head, ...tail.map((row) => row.id)];
}

/** The profile ranking (`order`, then the id in the same direction) on a profile query. */
function ranked<Q extends ProfileQuery>(query: Q, order: ProfileOrder): Q {
  let q = query as ProfileQuery;
  const dir = order.direction;
  switch (order.column) {
    case 'trade_count':
      q = q.orderBy(sql`coalesce(s.trade_count, 0)`, dir);
      break;
    case 'name':
      q = q.orderBy('p.name', dir);
      break;
    case 'last_trade_date':
      q = q.orderBy(sql`(s.last_trade_date is null)`, 'asc').orderBy('s.last_trade_date', dir);
      break;
    case 'total_volume_high':
      q = q.orderBy(sql`coalesce(${volume('volume_high')}, 0)`, dir);
      break;
    case 'id':
      break;
    default:
      if (STAT_SORTS.has(order.column)) {
        const column = sql.ref(`ps.${order.column}`);
        // A statistic over fewer enriched trades than min_trades does not rank: it sorts with the nulls.
        const minimum = Math.max(0, Math.trunc(order.minTrades ?? 0));
        const unranked =
          minimum > 0
            ? sql`(${column} is null or coalesce(s.enriched_trades, 0) < ${sql.lit(minimum)})`
            : sql`(${column} is null)`;
        q = q.orderBy(unranked, 'asc').orderBy(column, dir);
      }
  }
  return q.orderBy('p.id', dir) as Q;
}

export async function countProfiles(db: Kysely<Database>, filter: PoliticianListFilter): Promise<number> {
  const row = await filtered(db, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface CommitteeSeat {
  politician_id: number;
  committee_id: string;
  name: string;
  chamber: string;
  parent_id: string | null;
  title: string | null;
  side: string | null;
}

export async function committeesOf(
  db: Kysely<Database>,
  politicianIds: readonly number[],
): Promise<CommitteeSeat[]> {
  if (politicianIds.length === 0) return [];
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees as c', 'c.id', 'm.committee_id')
    .select([
      'm.politician_id',
      'c.id as committee_id',
      'c.name',
      'c.chamber',
      'c.parent_id',
      'm.title',
      'm.side',
    ])
    .where('m.politician_id', 'in', [...politicianIds])
    .orderBy('c.id')
    .execute();
}

/** The ids of the members with these slugs (lower case), by slug; slugs no member has are absent. */
export async function politicianIdsBySlug(
  db: Kysely<Database>,
  slugs: readonly string[],
): Promise<Map<string, number>> {
  if (slugs.length === 0) return new Map();
  const rows = await db
    .selectFrom('politicians')
    .select(['id', 'slug'])
    .where('slug', 'in', [...slugs])
    .execute();
  return new Map(rows.map((row) => [row.slug, row.id]));
}
