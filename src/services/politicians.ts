// Politician profiles, lists and trade histories.
import type { Kysely } from 'kysely';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import { ownEntry } from '../domain/lookup.js';
import { pick } from '../domain/pick.js';
import { DEFAULT_MIN_TRADES, type PoliticianSortColumn } from '../domain/sorts.js';
import { invalidField, notFound, quoted } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import {
  committeesOf,
  countProfiles,
  findPoliticianId,
  findProfile,
  listProfiles,
  listProfilesJson,
  type ProfileRecord,
  SUMMARY_MEMBER_COLUMNS,
} from '../storage/repositories/politicians-read.js';
import type { Database } from '../storage/schema.js';
import { type SyncFilterParams, splitList, syncFilter } from './trade-params.js';
import { queryTrades } from './trades.js';

const num = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** Statistics computed by the enrichment job (docs/market-data.md, "Member statistics"); null until it has run. */
function statsOf(record: ProfileRecord) {
  const computed = record.stats_computed_at !== null && record.stats_computed_at !== undefined;
  return {
    win_rate: num(record.win_rate),
    wins: computed ? Number(record.wins) : null,
    losses: computed ? Number(record.losses) : null,
    avg_alpha_30d: num(record.avg_alpha_30d),
    avg_alpha_90d: num(record.avg_alpha_90d),
    sharpe_ratio: num(record.sharpe_ratio),
    sharpe_ratio_low: num(record.sharpe_ratio_low),
    sharpe_ratio_high: num(record.sharpe_ratio_high),
    portfolio_return: num(record.portfolio_return),
    portfolio_return_low: num(record.portfolio_return_low),
    portfolio_return_high: num(record.portfolio_return_high),
    cagr: num(record.cagr),
    cagr_low: num(record.cagr_low),
    cagr_high: num(record.cagr_high),
    conflict_score: num(record.conflict_score),
    conflict_score_low: num(record.conflict_score_low),
    conflict_score_high: num(record.conflict_score_high),
    holdings_count: computed ? Number(record.holdings_count) : null,
    portfolio_priced_share: num(record.priced_share),
    portfolio_start: record.portfolio_start ?? null,
    portfolio_end: record.portfolio_end ?? null,
    stats_computed_at: record.stats_computed_at ?? null,
  };
}

export function toSummary(record: ProfileRecord, rank?: number) {
  return {
    politician_id: record.politician_id,
    ...pick(record, SUMMARY_MEMBER_COLUMNS),
    in_office: record.in_office === 1,
    trade_count: Number(record.trade_count),
    enriched_trades: Number(record.enriched_trades),
    ...statsOf(record),
    total_volume_low: record.total_volume_low === null ? null : Number(record.total_volume_low),
    total_volume_high: record.total_volume_high === null ? null : Number(record.total_volume_high),
    last_trade_date: record.last_trade_date ?? null,
    ...(rank === undefined ? {} : { rank }),
  };
}

export type PoliticianSummary = ReturnType<typeof toSummary>;

export async function getProfile(db: Kysely<Database>, idOrSlug: string) {
  const record = await findProfile(db, idOrSlug);
  if (!record) throw notFound(`No politician with id or slug ${quoted(idOrSlug)}`);
  const committees = await committeesOf(db, [record.politician_id]);
  return {
    ...toSummary(record),
    committees: committees.map((seat) => ({
      id: seat.committee_id,
      name: seat.name,
      chamber: seat.chamber,
      parent_id: seat.parent_id,
      title: seat.title,
      side: seat.side,
    })),
  };
}

const CHAMBERS: Record<string, string> = { house: 'House', senate: 'Senate', executive: 'Executive' };

export interface PoliticianListParams {
  search?: string;
  chamber?: string;
  party?: string;
  state?: string;
  in_office?: boolean;
  has_trades?: boolean;
  /** Leadership titles as the legislators files write them ("Speaker of the House"); comma-separated. */
  role?: string;
  /** The day the role is held (ISO); the route fills in today. */
  role_date?: string;
  /** Held before role_date and not on it. */
  role_former?: boolean;
  sort_by?: PoliticianSortColumn;
  sort_dir?: 'asc' | 'desc';
  /** Statistic rankings sort only members with this many enriched trades (default DEFAULT_MIN_TRADES). */
  min_trades?: number;
  limit: number;
  offset: number;
}

export async function listPoliticians(db: Kysely<Database>, params: PoliticianListParams) {
  const { filter, order } = listQuery(params);
  const records = await listProfiles(db, filter, order, { limit: params.limit, offset: params.offset });
  const politicians = records.map((record, index) => toSummary(record, params.offset + index + 1));
  return { politicians, total: () => countProfiles(db, filter) };
}

function listQuery(params: PoliticianListParams) {
  const search = params.search?.trim();
  const filter = {
    search: search === '' ? undefined : search,
    chambers: params.chamber
      ? splitList('chamber', params.chamber).map((value) => {
          const chamber = ownEntry(CHAMBERS, value.toLowerCase());
          if (!chamber)
            throw invalidField('chamber', `${quoted(value)} is not one of house, senate, executive`);
          return chamber;
        })
      : undefined,
    parties: params.party ? splitList('party', params.party).map((party) => party.toUpperCase()) : undefined,
    states: params.state ? splitList('state', params.state).map((state) => state.toUpperCase()) : undefined,
    inOffice: params.in_office,
    hasTrades: params.has_trades,
    role: params.role
      ? {
          titles: splitList('role', params.role).map((title) => title.toLowerCase()),
          on: params.role_date ?? '',
          former: params.role_former === true,
        }
      : undefined,
  };
  const order = {
    column: params.sort_by ?? 'trade_count',
    direction: params.sort_dir ?? (params.sort_by === 'name' ? 'asc' : 'desc'),
    minTrades: params.min_trades ?? DEFAULT_MIN_TRADES,
  } as const;
  return { filter, order };
}

/**
 * The list without `search` (an array) as the JSON text the database builds: each summary's fields
 * in the resource's order and the rank last, as the route's serializer writes listPoliticians'
 * objects. `hideGated`: the plan-gated fields are null. With the number of members, for the charge.
 */
export async function listPoliticiansJson(
  db: Kysely<Database>,
  params: PoliticianListParams,
  hideGated: boolean,
): Promise<{ json: string | Buffer; rows: number }> {
  const { filter, order } = listQuery(params);
  return listProfilesJson(
    db,
    filter,
    order,
    { limit: params.limit, offset: params.offset },
    hideGated ? GATED_FIELDS : NO_FIELDS,
  );
}

const GATED_FIELDS: ReadonlySet<string> = new Set(PLAN_GATED_FIELDS);
const NO_FIELDS: ReadonlySet<string> = new Set();

export async function politicianTrades(
  db: Kysely<Database>,
  idOrSlug: string,
  page: { limit: number; offset: number } & SyncFilterParams,
  now: Date,
): Promise<Trade[]> {
  const id = await findPoliticianId(db, idOrSlug);
  if (id === undefined) throw notFound(`No politician with id or slug ${quoted(idOrSlug)}`);
  return queryTrades(
    db,
    { politicianIds: [id], ...syncFilter(page) },
    { column: 'transaction_date', direction: 'desc' },
    page,
    now,
  );
}
