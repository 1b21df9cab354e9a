// GET /conflict/{politician_id}: a member's trades in sectors overseen by the committees they sat
// on on each trade's date, and trades linked to lobbying, contracts or campaign money (GET
// /overlap's rules), each with the seats and records that make it; plus the member's conflict
// score, whose inputs are these same trades (formula and range in docs/analytics-links.md).
// The links are precomputed when member statistics are refreshed (src/analytics/trade-links.ts,
// table trade_links): a request reads one page of them. A member whose links were never computed
// (a database migrated since its last `dcledger enrich`) is answered by computing them, the same way.
import type { Kysely } from 'kysely';
import {
  DEFAULT_WINDOW_DAYS,
  LINK_KINDS,
  type LinkKind,
  loadLinkIndex,
  type TradeLinks,
} from '../analytics/overlap.js';
import { type MemberLinks, memberLinks } from '../analytics/trade-links.js';
import { COMMITTEE_JURISDICTIONS } from '../domain/committee-sectors.js';
import { notFound, quoted } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import { committeeNamesById } from '../storage/repositories/analytics-clusters.js';
import { bioguideIdsOf } from '../storage/repositories/analytics-links.js';
import { seatsOfMembers } from '../storage/repositories/committee-seats.js';
import { committeesOf, findProfile } from '../storage/repositories/politicians-read.js';
import {
  linkedTradeCommittees,
  linkedTradesPage,
  memberLinksState,
  memberTradeCounts,
} from '../storage/repositories/trade-links.js';
import type { Database } from '../storage/schema.js';
import { withUrls } from './overlap.js';
import { toSummary } from './politicians.js';
import { listedTradesByIds, queryTrades } from './trades.js';

/** A member has at most a few thousand trades; all are read to find the overseen and linked ones. */
const MAX_TRADES = 100_000;

export interface ConflictCommittee {
  id: string;
  name: string;
  /** The member's titles on the committee or its subcommittees (Chairman, Ranking Member). */
  titles: string[];
  /** The member sits on it today (committee memberships). */
  current: boolean;
  /** The member's recorded seats on it (or its subcommittees), with dates. */
  seats: { seat_committee_id: string; title: string | null; start_date: string; end_date: string | null }[];
  sectors: string[];
  /** Industries covered beyond whole sectors, as a pattern (e.g. "aerospace|defen[cs]e"). */
  industries: string | null;
  conflicting_trades: number;
}

function committeeEntry(id: string, name: string, current: boolean): ConflictCommittee {
  const jurisdiction = COMMITTEE_JURISDICTIONS[id];
  return {
    id,
    name,
    titles: [],
    current,
    seats: [],
    sectors: [...(jurisdiction?.sectors ?? [])],
    industries: jurisdiction?.industries?.source ?? null,
    conflicting_trades: 0,
  };
}

/** One listed trade before it is joined to its Trade resource. */
interface ListedLink {
  tradeId: number;
  committees: string[];
  linkKinds: LinkKind[];
  links: TradeLinks;
}

/** The listed trades (one page), the per-committee counts and the member's trade counts. */
interface ConflictRows {
  seatsKnownFrom: string | null;
  page: ListedLink[];
  /** Committees of every listed trade (not only the page), for the per-committee counts. */
  committeesOfListed: string[][];
  totalTrades: number;
  tradesWithSector: number;
  tradesOutsideSeatHistory: number;
  /** The page's Trade resources by id. */
  tradesById: Map<number, Trade>;
}

function stringList(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Reads the precomputed links (trade_links); undefined when the member's were never computed. */
async function storedRows(
  db: Kysely<Database>,
  politicianId: number,
  page: { limit: number; offset: number },
  now: Date,
): Promise<ConflictRows | undefined> {
  const state = await memberLinksState(db, politicianId);
  if (!state) return undefined;
  const [committeeColumns, rows, counts] = await Promise.all([
    linkedTradeCommittees(db, politicianId),
    linkedTradesPage(db, politicianId, page),
    memberTradeCounts(db, politicianId, state.seats_known_from),
  ]);
  const trades = await listedTradesByIds(
    db,
    rows.map((row) => row.trade_id),
    now,
  );
  return {
    seatsKnownFrom: state.seats_known_from,
    page: rows.map((row) => ({
      tradeId: row.trade_id,
      committees: stringList(row.committees),
      linkKinds: stringList(row.link_kinds).flatMap((kind) => LINK_KINDS.filter((known) => known === kind)),
      // Written by refreshMembers from linksOfTrade's own value.
      links: JSON.parse(row.evidence) as TradeLinks,
    })),
    committeesOfListed: committeeColumns.map(stringList),
    totalTrades: counts.total,
    tradesWithSector: counts.withSector,
    tradesOutsideSeatHistory: counts.outsideSeatHistory,
    tradesById: new Map(trades.map((trade) => [trade.id, trade])),
  };
}

/** Computes the links now from the member's trades and the records (as refreshMembers does). */
async function computedRows(
  db: Kysely<Database>,
  politicianId: number,
  bioguideId: string | null,
  page: { limit: number; offset: number },
  now: Date,
): Promise<ConflictRows> {
  const trades = await queryTrades(
    db,
    { politicianIds: [politicianId] },
    { column: 'transaction_date', direction: 'desc' },
    { limit: MAX_TRADES, offset: 0 },
    now,
  );
  const index = await loadLinkIndex(
    db,
    [...new Set(trades.map((trade) => trade.ticker))],
    bioguideId ? [bioguideId] : [],
  );
  const found: MemberLinks = memberLinks(
    trades.map((trade) => ({
      id: trade.id,
      ticker: trade.ticker,
      date: trade.transaction_date,
      sector: trade.sector,
      industry: trade.industry,
    })),
    bioguideId,
    index,
  );
  const from = found.seatsKnownFrom;
  return {
    seatsKnownFrom: from,
    page: found.conflicts.slice(page.offset, page.offset + page.limit),
    committeesOfListed: found.conflicts.map((conflict) => conflict.committees),
    totalTrades: trades.length,
    tradesWithSector: trades.filter((trade) => trade.sector !== null || trade.industry !== null).length,
    tradesOutsideSeatHistory: trades.filter((trade) => from === null || trade.transaction_date < from).length,
    tradesById: new Map(trades.map((trade) => [trade.id, trade])),
  };
}

export async function memberConflicts(
  db: Kysely<Database>,
  idOrSlug: string,
  page: { limit: number; offset: number },
  now: Date,
  options: { computed?: boolean } = {},
) {
  const profile = await findProfile(db, idOrSlug);
  if (!profile) throw notFound(`No politician with id or slug ${quoted(idOrSlug)}`);
  const summary = toSummary(profile);
  const politicianId = profile.politician_id;
  const bioguideId = (await bioguideIdsOf(db, [politicianId])).get(politicianId) ?? null;
  const found =
    (options.computed ? undefined : await storedRows(db, politicianId, page, now)) ??
    (await computedRows(db, politicianId, bioguideId, page, now));

  // Today's committees (subcommittee seats count as their parent's), then every committee of the seat history.
  const committees = new Map<string, ConflictCommittee>();
  for (const seat of await committeesOf(db, [politicianId])) {
    const id = seat.parent_id ?? seat.committee_id;
    const entry = committees.get(id) ?? committeeEntry(id, id, true);
    if (seat.title && !entry.titles.includes(seat.title)) entry.titles.push(seat.title);
    committees.set(id, entry);
  }
  for (const seat of bioguideId ? await seatsOfMembers(db, [bioguideId], 'byStart') : []) {
    const id = seat.parent_id ?? seat.committee_id;
    const entry = committees.get(id) ?? committeeEntry(id, id, false);
    entry.seats.push({
      seat_committee_id: seat.committee_id,
      title: seat.title,
      start_date: seat.start_date,
      end_date: seat.end_date,
    });
    committees.set(id, entry);
  }
  const names = await committeeNamesById(db, [...committees.keys()]);
  for (const entry of committees.values()) entry.name = names.get(entry.id) ?? entry.id;
  for (const listed of found.committeesOfListed) {
    for (const id of listed) {
      const entry = committees.get(id);
      if (entry) entry.conflicting_trades += 1;
    }
  }

  return {
    politician_id: summary.politician_id,
    name: summary.name,
    slug: summary.slug,
    chamber: summary.chamber,
    conflict_score: summary.conflict_score,
    conflict_score_low: summary.conflict_score_low,
    conflict_score_high: summary.conflict_score_high,
    parameters: { window_days: DEFAULT_WINDOW_DAYS, seats_known_from: found.seatsKnownFrom },
    committees: [...committees.values()].sort((a, b) => a.id.localeCompare(b.id)),
    total_trades: found.totalTrades,
    trades_with_sector: found.tradesWithSector,
    trades_outside_seat_history: found.tradesOutsideSeatHistory,
    conflicting_trade_count: found.committeesOfListed.length,
    trades: found.page.flatMap((listed) => {
      const trade = found.tradesById.get(listed.tradeId);
      return trade
        ? [
            {
              ...trade,
              committees: listed.committees,
              link_kinds: listed.linkKinds,
              ...withUrls(listed.links),
            },
          ]
        : [];
    }),
  };
}
