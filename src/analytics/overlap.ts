// Overlap between a member's trade and the money around the traded company: lobbying filings that
// reached the member's committees, contracts from agencies those committees oversee, and PAC
// contributions to the member's campaign, each dated within a window of the trade. Pure: the
// records come in, the links with the records that make them come out (method in
// docs/analytics-links.md). "Committees" are the ones the member sat on on the trade date.

import type { Kysely } from 'kysely';
import { COMMITTEE_OVERSIGHT, lobbyingReach, overseenAgencies } from '../domain/committee-oversight.js';
import { daysBetween } from '../domain/dates.js';
import { groupedBy } from '../domain/grouped.js';
import { contractUrl } from '../resources/contract.js';
import { lobbyingDocumentUrl } from '../resources/lobbying.js';
import {
  contractsForTickers,
  contributionsForLinks,
  lobbyingForTickers,
} from '../storage/repositories/analytics-links.js';
import { seatsOfMembers } from '../storage/repositories/committee-seats.js';
import type { Database } from '../storage/schema.js';

/** Days on either side of a trade a linking record may be dated, unless asked otherwise. */
export const DEFAULT_WINDOW_DAYS = 365;
/** The widest window a request may ask for. */
export const MAX_WINDOW_DAYS = 3650;

export interface LinkSeat {
  /** Top-level committee (subcommittee seats count as their parent's). */
  committeeId: string;
  seatCommitteeId: string;
  bioguideId: string;
  title: string | null;
  startDate: string;
  endDate: string | null;
}

export interface LinkLobbying {
  id: number;
  filingUuid: string;
  ticker: string;
  clientName: string;
  filedDate: string;
  amount: number | null;
  entities: readonly string[];
  issueCodes: readonly string[];
}

export interface LinkContract {
  id: number;
  awardId: string;
  awardKey: string;
  ticker: string;
  awardDate: string;
  amount: number | null;
  agencies: readonly string[];
}

export interface LinkContribution {
  id: string;
  ticker: string;
  bioguideId: string;
  committeeId: string;
  committeeName: string | null;
  date: string;
  amount: number;
}

export interface LinkedTrade {
  id: number;
  bioguideId: string | null;
  ticker: string;
  date: string;
}

export interface SeatEvidence {
  committee_id: string;
  seat_committee_id: string;
  title: string | null;
  start_date: string;
  end_date: string | null;
}

export interface LobbyingEvidence {
  lobbying_filing_id: number;
  filing_uuid: string;
  client_name: string;
  filed_date: string;
  amount: number | null;
  days_from_trade: number;
  committees: { committee_id: string; agencies: string[]; issue_codes: string[] }[];
}

export interface ContractEvidence {
  contract_id: number;
  award_id: string;
  award_key: string;
  award_date: string;
  amount: number | null;
  days_from_trade: number;
  committees: { committee_id: string; agencies: string[] }[];
}

export interface ContributionEvidence {
  fec_record_id: string;
  fec_committee_id: string;
  fec_committee_name: string | null;
  contribution_date: string;
  amount: number;
  days_from_trade: number;
}

export interface TradeLinks {
  seats: SeatEvidence[];
  lobbying: LobbyingEvidence[];
  contracts: ContractEvidence[];
  campaign: ContributionEvidence[];
}

/** The seats a member held on a date: started by then and not yet ended (as in seatsOnDate). */
export function seatsHeldOn(seats: readonly LinkSeat[], date: string): LinkSeat[] {
  return seats.filter((seat) => seat.startDate <= date && (seat.endDate === null || seat.endDate > date));
}

/** Records grouped by ticker and members' seats and contributions by bioguide id, built once per answer. */
export interface LinkIndex {
  seats: ReadonlyMap<string, readonly LinkSeat[]>;
  lobbying: ReadonlyMap<string, readonly LinkLobbying[]>;
  contracts: ReadonlyMap<string, readonly LinkContract[]>;
  contributions: ReadonlyMap<string, readonly LinkContribution[]>;
}

export function buildLinkIndex(records: {
  seats: readonly LinkSeat[];
  lobbying: readonly LinkLobbying[];
  contracts: readonly LinkContract[];
  contributions: readonly LinkContribution[];
}): LinkIndex {
  return {
    seats: groupedBy(records.seats, (seat) => seat.bioguideId),
    lobbying: groupedBy(records.lobbying, (filing) => filing.ticker),
    contracts: groupedBy(records.contracts, (award) => award.ticker),
    contributions: groupedBy(records.contributions, (gift) => `${gift.bioguideId}|${gift.ticker}`),
  };
}

/** Seats at the trade date, one per top-level committee (the earliest-started seat that reaches it). */
export function seatEvidence(seats: readonly LinkSeat[], date: string): SeatEvidence[] {
  const byCommittee = new Map<string, SeatEvidence>();
  for (const seat of seatsHeldOn(seats, date)) {
    if (byCommittee.has(seat.committeeId) && seat.seatCommitteeId !== seat.committeeId) continue;
    byCommittee.set(seat.committeeId, {
      committee_id: seat.committeeId,
      seat_committee_id: seat.seatCommitteeId,
      title: seat.title,
      start_date: seat.startDate,
      end_date: seat.endDate,
    });
  }
  return [...byCommittee.values()].sort((a, b) => a.committee_id.localeCompare(b.committee_id));
}

/**
 * Everything that links one trade to the money around its company, with window_days on either side
 * of the trade date. Lobbying and contracts count only through committees the member sat on on the
 * trade date and that oversee the agency or issue; contributions count whatever the seats.
 */
export function linksOfTrade(trade: LinkedTrade, index: LinkIndex, windowDays: number): TradeLinks {
  const seats = trade.bioguideId ? seatEvidence(index.seats.get(trade.bioguideId) ?? [], trade.date) : [];
  const committees = seats.map((seat) => seat.committee_id).filter((id) => COMMITTEE_OVERSIGHT[id]);
  const within = (date: string) => Math.abs(daysBetween(trade.date, date)) <= windowDays;

  const lobbying: LobbyingEvidence[] = [];
  for (const filing of index.lobbying.get(trade.ticker) ?? []) {
    if (committees.length === 0 || !within(filing.filedDate)) continue;
    const reached = committees.flatMap((committeeId) => {
      const reach = lobbyingReach(committeeId, filing.entities, filing.issueCodes);
      if (reach.agencies.length === 0 && reach.issueCodes.length === 0) return [];
      return [{ committee_id: committeeId, agencies: reach.agencies, issue_codes: reach.issueCodes }];
    });
    if (reached.length === 0) continue;
    lobbying.push({
      lobbying_filing_id: filing.id,
      filing_uuid: filing.filingUuid,
      client_name: filing.clientName,
      filed_date: filing.filedDate,
      amount: filing.amount,
      days_from_trade: daysBetween(trade.date, filing.filedDate),
      committees: reached,
    });
  }

  const contracts: ContractEvidence[] = [];
  for (const award of index.contracts.get(trade.ticker) ?? []) {
    if (committees.length === 0 || !within(award.awardDate)) continue;
    const reached = committees.flatMap((committeeId) => {
      const agencies = overseenAgencies(committeeId, award.agencies);
      return agencies.length === 0 ? [] : [{ committee_id: committeeId, agencies }];
    });
    if (reached.length === 0) continue;
    contracts.push({
      contract_id: award.id,
      award_id: award.awardId,
      award_key: award.awardKey,
      award_date: award.awardDate,
      amount: award.amount,
      days_from_trade: daysBetween(trade.date, award.awardDate),
      committees: reached,
    });
  }

  const campaign: ContributionEvidence[] = [];
  if (trade.bioguideId) {
    for (const gift of index.contributions.get(`${trade.bioguideId}|${trade.ticker}`) ?? []) {
      if (!within(gift.date)) continue;
      campaign.push({
        fec_record_id: gift.id,
        fec_committee_id: gift.committeeId,
        fec_committee_name: gift.committeeName,
        contribution_date: gift.date,
        amount: gift.amount,
        days_from_trade: daysBetween(trade.date, gift.date),
      });
    }
  }
  return { seats, lobbying, contracts, campaign };
}

export const LINK_KINDS = ['lobbying', 'contract', 'campaign'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * The links of a narrower window, from a wider window's links of the same trade. Whether a record
 * links depends on the window only through its distance from the trade (linksOfTrade), so this is
 * exactly linksOfTrade at `windowDays`, the records in the same order.
 */
export function linksWithin(links: TradeLinks, windowDays: number): TradeLinks {
  const near = (record: { days_from_trade: number }) => Math.abs(record.days_from_trade) <= windowDays;
  return {
    seats: links.seats,
    lobbying: links.lobbying.filter(near),
    contracts: links.contracts.filter(near),
    campaign: links.campaign.filter(near),
  };
}

/** Per kind, the days between the trade and its nearest linking record (null: no record of that kind). */
export function nearestLinkDays(links: TradeLinks): Record<LinkKind, number | null> {
  const nearest = (records: readonly { days_from_trade: number }[]) =>
    records.length === 0 ? null : Math.min(...records.map((record) => Math.abs(record.days_from_trade)));
  return {
    lobbying: nearest(links.lobbying),
    contract: nearest(links.contracts),
    campaign: nearest(links.campaign),
  };
}

export function linkKindsOf(links: TradeLinks): LinkKind[] {
  const kinds: LinkKind[] = [];
  if (links.lobbying.length > 0) kinds.push('lobbying');
  if (links.contracts.length > 0) kinds.push('contract');
  if (links.campaign.length > 0) kinds.push('campaign');
  return kinds;
}

/**
 * The links as the API serves them (resources/links.ts, fields in its order): the seats as
 * committees_at_trade, each lobbying filing and contract with its public URL.
 */
export function withUrls(links: TradeLinks) {
  return {
    committees_at_trade: links.seats,
    lobbying: links.lobbying.map((filing) => ({
      lobbying_filing_id: filing.lobbying_filing_id,
      filing_uuid: filing.filing_uuid,
      url: lobbyingDocumentUrl(filing.filing_uuid),
      client_name: filing.client_name,
      filed_date: filing.filed_date,
      amount: filing.amount,
      days_from_trade: filing.days_from_trade,
      committees: filing.committees,
    })),
    contracts: links.contracts.map((award) => ({
      contract_id: award.contract_id,
      award_id: award.award_id,
      url: contractUrl(award.award_key),
      award_date: award.award_date,
      amount: award.amount,
      days_from_trade: award.days_from_trade,
      committees: award.committees,
    })),
    campaign: links.campaign,
  };
}

export function hasLinks(links: TradeLinks): boolean {
  return links.lobbying.length + links.contracts.length + links.campaign.length > 0;
}

function parseStrings(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Loads the seats, lobbying filings, contracts and contributions trades in these tickers by these members could link to. */
export async function loadLinkIndex(
  db: Kysely<Database>,
  tickers: readonly string[] | 'all',
  bioguideIds: readonly string[],
): Promise<LinkIndex> {
  const [seats, lobbying, contracts, contributions] = await Promise.all([
    seatsOfMembers(db, bioguideIds, 'byStart'),
    lobbyingForTickers(db, tickers),
    contractsForTickers(db, tickers),
    contributionsForLinks(db, tickers === 'all' ? { bioguideIds } : { tickers, bioguideIds }),
  ]);
  return buildLinkIndex({
    seats: seats.map((seat) => ({
      // A subcommittee seat counts as its parent committee's.
      committeeId: seat.parent_id ?? seat.committee_id,
      seatCommitteeId: seat.committee_id,
      bioguideId: seat.bioguide_id,
      title: seat.title,
      startDate: seat.start_date,
      endDate: seat.end_date,
    })),
    lobbying: lobbying.map((filing) => ({
      id: filing.id,
      filingUuid: filing.filing_uuid,
      ticker: filing.ticker,
      clientName: filing.client_name,
      filedDate: filing.filed_date,
      amount: filing.amount,
      entities: parseStrings(filing.government_entities),
      issueCodes: filing.issue_codes,
    })),
    contracts: contracts.map((award) => ({
      id: award.id,
      awardId: award.award_id,
      awardKey: award.award_key,
      ticker: award.ticker,
      awardDate: award.award_date,
      amount: award.amount,
      agencies: [award.awarding_agency, award.awarding_sub_agency].filter(
        (agency): agency is string => agency !== null,
      ),
    })),
    contributions: contributions.map((gift) => ({
      id: gift.id,
      ticker: gift.ticker,
      bioguideId: gift.bioguide_id,
      committeeId: gift.committee_id,
      committeeName: gift.committee_name ?? gift.connected_org_name,
      date: gift.contribution_date,
      amount: gift.amount,
    })),
  });
}
