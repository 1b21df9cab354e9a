// GET /conflict/{politician_id}: a member's trades in sectors overseen by the committees they sat
// on on each trade's date, and trades linked to lobbying, contracts or campaign money (GET
// /overlap's rules), each with the seats and records that make it; plus the member's conflict
// score, whose inputs are these same trades (formula and range in docs/analytics-links.md).
import type { Kysely } from 'kysely';
import { DEFAULT_WINDOW_DAYS, hasLinks, linksOfTrade, loadLinkIndex } from '../analytics/overlap.js';
import { COMMITTEE_JURISDICTIONS, underJurisdiction } from '../domain/committee-sectors.js';
import { notFound } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import { bioguideIdsOf, committeeNamesById } from '../storage/repositories/analytics-links.js';
import { committeesOf, findProfile } from '../storage/repositories/politicians-read.js';
import type { Database } from '../storage/schema.js';
import { type LinkKind, linkKindsOf, withUrls } from './overlap.js';
import { toSummary } from './politicians.js';
import { queryTrades } from './trades.js';

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

export async function memberConflicts(
  db: Kysely<Database>,
  idOrSlug: string,
  page: { limit: number; offset: number },
  now: Date,
) {
  const profile = await findProfile(db, idOrSlug);
  if (!profile) throw notFound(`No politician with id or slug "${idOrSlug}"`);
  const summary = toSummary(profile);
  const bioguideId = (await bioguideIdsOf(db, [profile.politician_id])).get(profile.politician_id) ?? null;

  const trades = await queryTrades(
    db,
    { politicianIds: [profile.politician_id] },
    { column: 'transaction_date', direction: 'desc' },
    { limit: MAX_TRADES, offset: 0 },
    now,
  );
  const tickers = [...new Set(trades.map((trade) => trade.ticker))];
  const index = await loadLinkIndex(db, tickers, bioguideId ? [bioguideId] : []);
  const seats = bioguideId ? (index.seats.get(bioguideId) ?? []) : [];

  // Today's committees (subcommittee seats count as their parent's), then every committee of the seat history.
  const committees = new Map<string, ConflictCommittee>();
  for (const seat of await committeesOf(db, [profile.politician_id])) {
    const id = seat.parent_id ?? seat.committee_id;
    const entry = committees.get(id) ?? committeeEntry(id, id, true);
    if (seat.title && !entry.titles.includes(seat.title)) entry.titles.push(seat.title);
    committees.set(id, entry);
  }
  for (const seat of seats) {
    const entry =
      committees.get(seat.committeeId) ?? committeeEntry(seat.committeeId, seat.committeeId, false);
    entry.seats.push({
      seat_committee_id: seat.seatCommitteeId,
      title: seat.title,
      start_date: seat.startDate,
      end_date: seat.endDate,
    });
    committees.set(seat.committeeId, entry);
  }
  const names = await committeeNamesById(db, [...committees.keys()]);
  for (const entry of committees.values()) entry.name = names.get(entry.id) ?? entry.id;

  const seatsKnownFrom = seats.map((seat) => seat.startDate).sort()[0] ?? null;
  const listed: (Trade & ReturnType<typeof withUrls> & { committees: string[]; link_kinds: LinkKind[] })[] =
    [];
  let withSector = 0;
  for (const trade of trades) {
    if (trade.sector !== null || trade.industry !== null) withSector += 1;
    const links = linksOfTrade(
      { id: trade.id, bioguideId, ticker: trade.ticker, date: trade.transaction_date },
      index,
      DEFAULT_WINDOW_DAYS,
    );
    const overseeing = links.seats
      .map((seat) => seat.committee_id)
      .filter((id) => underJurisdiction([id], trade.sector, trade.industry));
    if (overseeing.length === 0 && !hasLinks(links)) continue;
    for (const id of overseeing) {
      const entry = committees.get(id);
      if (entry) entry.conflicting_trades += 1;
    }
    listed.push({ ...trade, committees: overseeing, link_kinds: linkKindsOf(links), ...withUrls(links) });
  }

  return {
    politician_id: summary.politician_id,
    name: summary.name,
    slug: summary.slug,
    chamber: summary.chamber,
    conflict_score: summary.conflict_score,
    conflict_score_low: summary.conflict_score_low,
    conflict_score_high: summary.conflict_score_high,
    parameters: { window_days: DEFAULT_WINDOW_DAYS, seats_known_from: seatsKnownFrom },
    committees: [...committees.values()].sort((a, b) => a.id.localeCompare(b.id)),
    total_trades: trades.length,
    trades_with_sector: withSector,
    conflicting_trade_count: listed.length,
    trades: listed.slice(page.offset, page.offset + page.limit),
  };
}
