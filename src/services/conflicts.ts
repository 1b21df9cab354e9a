// GET /conflict/{politician_id}: a member's trades in sectors their committees oversee, with the
// committees that oversee them, and the member's conflict score. The committee-to-sector table is
// the one conflict_score is computed from (src/analytics/committee-sectors.ts).
import type { Kysely } from 'kysely';
import { COMMITTEE_JURISDICTIONS, underJurisdiction } from '../domain/committee-sectors.js';
import { notFound } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import { committeeNames, committeesOf, findProfile } from '../storage/repositories/politicians-read.js';
import type { Database } from '../storage/schema.js';
import { toSummary } from './politicians.js';
import { queryTrades } from './trades.js';

/** A member has at most a few thousand trades; all are read to find the overseen ones. */
const MAX_TRADES = 100_000;

export interface ConflictCommittee {
  id: string;
  name: string;
  /** The member's titles on the committee or its subcommittees (Chairman, Ranking Member). */
  titles: string[];
  sectors: string[];
  /** Industries covered beyond whole sectors, as a pattern (e.g. "aerospace|defen[cs]e"). */
  industries: string | null;
  conflicting_trades: number;
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

  // Subcommittee seats count as their parent committee's, as in conflict_score.
  const seats = await committeesOf(db, [profile.politician_id]);
  const titles = new Map<string, string[]>();
  for (const seat of seats) {
    const id = seat.parent_id ?? seat.committee_id;
    const list = titles.get(id) ?? [];
    if (seat.title && !list.includes(seat.title)) list.push(seat.title);
    titles.set(id, list);
  }
  const names = await committeeNames(db, [...titles.keys()]);
  const committees: ConflictCommittee[] = [...titles].map(([id, memberTitles]) => {
    const jurisdiction = COMMITTEE_JURISDICTIONS[id];
    return {
      id,
      name: names.get(id) ?? id,
      titles: memberTitles,
      sectors: [...(jurisdiction?.sectors ?? [])],
      industries: jurisdiction?.industries?.source ?? null,
      conflicting_trades: 0,
    };
  });

  const trades = await queryTrades(
    db,
    { politicianIds: [profile.politician_id] },
    { column: 'transaction_date', direction: 'desc' },
    { limit: MAX_TRADES, offset: 0 },
    now,
  );
  const conflicting: (Trade & { committees: string[] })[] = [];
  let withSector = 0;
  for (const trade of trades) {
    if (trade.sector === null && trade.industry === null) continue;
    withSector += 1;
    const overseeing = committees.filter((committee) =>
      underJurisdiction([committee.id], trade.sector, trade.industry),
    );
    if (overseeing.length === 0) continue;
    for (const committee of overseeing) committee.conflicting_trades += 1;
    conflicting.push(Object.assign(trade, { committees: overseeing.map((committee) => committee.id) }));
  }

  return {
    politician_id: summary.politician_id,
    name: summary.name,
    slug: summary.slug,
    chamber: summary.chamber,
    conflict_score: summary.conflict_score,
    conflict_score_low: summary.conflict_score_low,
    conflict_score_high: summary.conflict_score_high,
    committees,
    total_trades: trades.length,
    trades_with_sector: withSector,
    conflicting_trade_count: conflicting.length,
    trades: conflicting.slice(page.offset, page.offset + page.limit),
  };
}
