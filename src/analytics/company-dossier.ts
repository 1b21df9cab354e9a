// One company's dossier (GET /companies/{ticker}) — members' trades (who, net direction, timing),
// insider transactions, 13D/G stakes, lobbying spend and issues, contracts, PAC money to members,
// bills naming it or referred to committees overseeing it, and the members seated on those
// committees today. Every section lists the records it is built from; a known ticker without
// records gets empty sections. Built here rather than in services because `enrich` stores the
// answers of the traded tickers (stored-dossiers.ts), and a request for them reads the stored text.
import type { Kysely } from 'kysely';
import { LDA_ISSUE_CODES } from '../domain/lda.js';
import { nameKey } from '../market/company-names.js';
import { contractUrl } from '../resources/contract.js';
import { loadInsiderTrades } from '../resources/insider.js';
import { tradeSummary } from '../resources/links.js';
import { lobbyingDocumentUrl } from '../resources/lobbying.js';
import { loadWhales } from '../resources/whale.js';
import { committeeNamesById } from '../storage/repositories/analytics-clusters.js';
import {
  billsNaming,
  billsOfCommittees,
  type CurrentSeatRow,
  companyOfTicker,
  contractsForTickers,
  contributionsForLinks,
  currentSeatsOn,
  latestLinkTrades,
  lobbyingForTickers,
  secCountsOfTicker,
} from '../storage/repositories/analytics-links.js';
import { memberTradeTotals } from '../storage/repositories/dossier-trades.js';
import type { Database } from '../storage/schema.js';
import { directionOf, overseeingCommittees, summarizeMemberTrades } from './dossier.js';

/** How many rows each record list of the dossier carries (totals count them all). */
export const DOSSIER_LIST_LIMIT = 25;

function parseJsonStrings(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function sum(values: ReadonlyArray<number | null>): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

function countBy(values: readonly string[]): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

function earliest(dates: readonly string[]): string | null {
  return dates.reduce<string | null>((first, date) => (first === null || date < first ? date : first), null);
}

function latest(dates: readonly string[]): string | null {
  return dates.reduce<string | null>((last, date) => (last === null || date > last ? date : last), null);
}

/** The members seated today on these committees and their subcommittees (currentSeatsOn's rows). */
export type SeatsOn = (db: Kysely<Database>, committeeIds: readonly string[]) => Promise<CurrentSeatRow[]>;

/**
 * The dossier of a ticker the data knows (services/companies.ts checks that). `seatsOn` reads the
 * overseeing committees' seats: a rebuild that builds many dossiers reads each committee set once.
 */
export async function buildCompanyDossier(
  db: Kysely<Database>,
  ticker: string,
  seatsOn: SeatsOn = currentSeatsOn,
) {
  const company = await companyOfTicker(db, ticker);
  const limit = DOSSIER_LIST_LIMIT;

  // Every trade of the ticker counts in the members' totals, which the database sums; only the
  // trades listed in `recent` are read whole.
  const allTrades = { from: '0000-01-01', to: '9999-12-31', tickers: [ticker] };
  const members = summarizeMemberTrades(await memberTradeTotals(db, allTrades));
  const recent = await latestLinkTrades(db, allTrades, limit);
  const netMid = members.reduce((total, member) => total + member.net_amount_mid, 0);

  const [insiders, whales, counts] = await Promise.all([
    loadInsiderTrades(
      db,
      { ticker, codes: [] },
      { column: 'transaction_date', direction: 'desc', limit, offset: 0 },
    ),
    loadWhales(db, { ticker, forms: [] }, { column: 'filed_date', direction: 'desc', limit, offset: 0 }),
    secCountsOfTicker(db, ticker),
  ]);

  const lobbying = await lobbyingForTickers(db, [ticker]);
  const contracts = await contractsForTickers(db, [ticker]);
  const contributions = await contributionsForLinks(db, { tickers: [ticker] });

  const agencies = [
    ...lobbying.flatMap((filing) => parseJsonStrings(filing.government_entities)),
    ...contracts.flatMap((award) =>
      [award.awarding_agency, award.awarding_sub_agency].filter(
        (agency): agency is string => agency !== null,
      ),
    ),
  ];
  const committees = overseeingCommittees(company?.sector ?? null, company?.industry ?? null, agencies);
  const committeeIds = committees.map((committee) => committee.committee_id);
  const [names, seats, committeeBills] = await Promise.all([
    committeeNamesById(db, committeeIds),
    seatsOn(db, committeeIds),
    company?.sector || company?.industry ? billsOfCommittees(db, committeeIds, limit) : Promise.resolve([]),
  ]);

  const key = company?.name ? nameKey(company.name)?.key : undefined;
  const namedBills = key && key.length >= 4 ? await billsNaming(db, key, limit) : [];
  const bills = new Map<
    string,
    { bill: (typeof namedBills)[number]; names_company: boolean; committees: Set<string> }
  >();
  for (const bill of namedBills) bills.set(bill.id, { bill, names_company: true, committees: new Set() });
  for (const row of committeeBills) {
    const { committee_id: committeeId, ...bill } = row;
    // Only committees whose sector jurisdiction covers the company make a referral "touch" it.
    if (!committees.some((committee) => committee.committee_id === committeeId && committee.by_sector))
      continue;
    const entry = bills.get(bill.id) ?? { bill, names_company: false, committees: new Set<string>() };
    entry.committees.add(committeeId);
    bills.set(bill.id, entry);
  }

  const overseers = new Map<
    number,
    { member: (typeof seats)[number]; committees: Map<string, (typeof seats)[number]> }
  >();
  // One seat per member and committee (currentSeatsOn chooses it), in the member's committee order.
  for (const seat of seats) {
    const entry = overseers.get(seat.politician_id) ?? { member: seat, committees: new Map() };
    entry.committees.set(seat.committee_id, seat);
    overseers.set(seat.politician_id, entry);
  }

  return {
    ticker,
    parameters: { ticker, list_limit: limit },
    company: {
      name: company?.name ?? lobbying[0]?.client_name ?? contracts[0]?.recipient_name ?? null,
      cik: company?.cik ?? null,
      exchange: company?.exchange ?? null,
      sector: company?.sector ?? null,
      industry: company?.industry ?? null,
      in_directory: company !== undefined,
    },
    member_trades: {
      trade_count: members.reduce((total, member) => total + member.trade_count, 0),
      member_count: members.length,
      buys: members.reduce((total, member) => total + member.buys, 0),
      sells: members.reduce((total, member) => total + member.sells, 0),
      net_amount_mid: netMid,
      net_direction: directionOf(netMid),
      first_trade_date: earliest(members.map((member) => member.first_trade_date)),
      last_trade_date: latest(members.map((member) => member.last_trade_date)),
      members,
      recent: recent.map(tradeSummary),
    },
    insider_trades: { total: counts.insiderTrades, latest: insiders },
    whale_stakes: { total: counts.whaleStatements, latest: whales },
    lobbying: {
      filing_count: lobbying.length,
      total_amount: sum(lobbying.map((filing) => filing.amount)),
      issues: countBy(lobbying.flatMap((filing) => filing.issue_codes)).map(({ value, count }) => ({
        code: value,
        name: LDA_ISSUE_CODES[value] ?? value,
        filings: count,
      })),
      government_entities: countBy(
        lobbying.flatMap((filing) => parseJsonStrings(filing.government_entities)),
      ).map(({ value, count }) => ({ name: value, filings: count })),
      filings: [...lobbying]
        .reverse()
        .slice(0, limit)
        .map((filing) => ({
          lobbying_filing_id: filing.id,
          filing_uuid: filing.filing_uuid,
          url: lobbyingDocumentUrl(filing.filing_uuid),
          client_name: filing.client_name,
          registrant_name: filing.registrant_name,
          filing_type: filing.filing_type,
          filing_year: filing.filing_year,
          filing_period: filing.filing_period,
          filed_date: filing.filed_date,
          amount: filing.amount,
          issue_codes: filing.issue_codes,
          government_entities: parseJsonStrings(filing.government_entities),
        })),
    },
    contracts: {
      award_count: contracts.length,
      total_amount: sum(contracts.map((award) => award.amount)),
      agencies: countBy(
        contracts.flatMap((award) => (award.awarding_agency ? [award.awarding_agency] : [])),
      ).map(({ value, count }) => ({ name: value, awards: count })),
      awards: [...contracts]
        .reverse()
        .slice(0, limit)
        .map((award) => ({
          contract_id: award.id,
          award_id: award.award_id,
          url: contractUrl(award.award_key),
          recipient_name: award.recipient_name,
          awarding_agency: award.awarding_agency,
          awarding_sub_agency: award.awarding_sub_agency,
          award_date: award.award_date,
          amount: award.amount,
          description: award.description,
        })),
    },
    campaign_contributions: {
      record_count: contributions.length,
      total_amount: sum(contributions.map((gift) => gift.amount)),
      records: [...contributions]
        .reverse()
        .slice(0, limit)
        .map((gift) => ({
          fec_record_id: gift.id,
          fec_committee_id: gift.committee_id,
          fec_committee_name: gift.committee_name ?? gift.connected_org_name,
          candidate_id: gift.candidate_id,
          bioguide_id: gift.bioguide_id,
          contribution_date: gift.contribution_date,
          amount: gift.amount,
        })),
    },
    bills: [...bills.values()].slice(0, limit).map(({ bill, names_company, committees: via }) => ({
      ...bill,
      names_company,
      committees: [...via].sort(),
    })),
    overseeing_committees: committees.map((committee) => ({
      committee_id: committee.committee_id,
      name: names.get(committee.committee_id) ?? committee.committee_id,
      by_sector: committee.by_sector,
      agencies: committee.agencies,
    })),
    overseeing_members: [...overseers.values()].map(({ member, committees: held }) => ({
      politician_id: member.politician_id,
      name: member.name,
      slug: member.slug,
      party: member.party,
      chamber: member.chamber,
      seats: [...held.values()].map((seat) => ({
        committee_id: seat.committee_id,
        seat_committee_id: seat.seat_committee_id,
        title: seat.title,
        start_date: seat.start_date,
      })),
    })),
  };
}
