// One company's dossier (GET /companies/{ticker}) — members' trades (who, net direction, timing),
// insider transactions, 13D/G stakes, lobbying spend and issues, contracts, PAC money to members,
// bills naming it or referred to committees overseeing it, and the members seated on those
// committees today. Every section lists the records it is built from; a known ticker without
// records gets empty sections. Built here rather than in services because `enrich` stores the
// answers of the traded tickers (stored-dossiers.ts), and a request for them reads the stored text.
import type { Kysely } from 'kysely';
import { groupedBy } from '../domain/grouped.js';
import { LDA_ISSUE_CODES } from '../domain/lda.js';
import { nameKey } from '../market/company-names.js';
import { contractUrl } from '../resources/contract.js';
import { type InsiderTrade, loadInsiderTrades } from '../resources/insider.js';
import { tradeSummary } from '../resources/links.js';
import { lobbyingDocumentUrl } from '../resources/lobbying.js';
import { loadWhales, type Whale } from '../resources/whale.js';
import { committeeNamesById } from '../storage/repositories/analytics-clusters.js';
import {
  billsNaming,
  billsOfCommittees,
  type CurrentSeatRow,
  companiesOfTickers,
  contractsForTickers,
  contributionsForLinks,
  currentSeatsOn,
  type LinkContractRow,
  type LinkContributionRow,
  type LinkLobbyingRow,
  type LinkTradeRow,
  latestLinkTradesPerTicker,
  lobbyingForTickers,
  secCountsOfTickers,
  type TouchingBillRow,
} from '../storage/repositories/analytics-links.js';
import { memberTradeTotalsPerTicker } from '../storage/repositories/dossier-trades.js';
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
 * The reads of a dossier that depend on its committee set or its company's name alone, not on the
 * ticker: companies of a sector share their committees, so each set (and each name) is read once
 * per instance. A rebuild keeps one instance for all its dossiers; a request makes its own.
 */
export interface SharedDossierReads {
  seatsOn: SeatsOn;
  committeeNames(db: Kysely<Database>, committeeIds: readonly string[]): Promise<Map<string, string>>;
  committeeBills(
    db: Kysely<Database>,
    committeeIds: readonly string[],
  ): Promise<(TouchingBillRow & { committee_id: string })[]>;
  billsNaming(db: Kysely<Database>, nameKey: string): Promise<TouchingBillRow[]>;
}

function remembered<T>(read: (db: Kysely<Database>, key: string) => Promise<T>) {
  const known = new Map<string, Promise<T>>();
  return (db: Kysely<Database>, key: string): Promise<T> => {
    const found = known.get(key) ?? read(db, key);
    known.set(key, found);
    return found;
  };
}

/** Shared reads, each set of committees and each name read once (see SharedDossierReads). */
export function sharedDossierReads(): SharedDossierReads {
  const ids = (key: string) => (key === '' ? [] : key.split(','));
  const seats = remembered((db, key) => currentSeatsOn(db, ids(key)));
  const names = remembered((db, key) => committeeNamesById(db, ids(key)));
  const committeeBills = remembered((db, key) => billsOfCommittees(db, ids(key), DOSSIER_LIST_LIMIT));
  const namedBills = remembered((db, key) => billsNaming(db, key, DOSSIER_LIST_LIMIT));
  return {
    seatsOn: (db, committeeIds) => seats(db, committeeIds.join(',')),
    committeeNames: (db, committeeIds) => names(db, committeeIds.join(',')),
    committeeBills: (db, committeeIds) => committeeBills(db, committeeIds.join(',')),
    billsNaming: namedBills,
  };
}

/** Rows keyed by their ticker, in the order read. */
const byTicker = <Row extends { ticker: string }>(rows: readonly Row[]) =>
  groupedBy(rows, (row) => row.ticker);

/** The dossier of a ticker the data knows (services/companies.ts checks that): a batch of one. */
export async function buildCompanyDossier(
  db: Kysely<Database>,
  ticker: string,
  reads: SharedDossierReads = sharedDossierReads(),
): Promise<CompanyDossier> {
  const [dossier] = await buildCompanyDossiers(db, [ticker], reads);
  if (dossier === undefined) throw new Error(`no dossier was built for ${ticker}`);
  return dossier;
}

/**
 * The dossiers of these tickers (a few hundred at most: the list is bound as parameters), in their
 * order. Each section is read for every ticker at once (one query per section, grouped per ticker
 * here): a rebuild of thousands of dossiers would otherwise spend its time on a dozen round trips
 * per ticker.
 */
export async function buildCompanyDossiers(
  db: Kysely<Database>,
  tickers: readonly string[],
  reads: SharedDossierReads = sharedDossierReads(),
): Promise<CompanyDossier[]> {
  if (tickers.length === 0) return [];
  const limit = DOSSIER_LIST_LIMIT;
  const companies = await companiesOfTickers(db, tickers);
  // Every trade of the ticker counts in the members' totals, which the database sums; only the
  // trades listed in `recent` are read whole.
  const allTrades = { from: '0000-01-01', to: '9999-12-31', tickers };
  const totals = await memberTradeTotalsPerTicker(db, allTrades);
  const recents = await latestLinkTradesPerTicker(db, allTrades, limit);
  const counts = await secCountsOfTickers(db, tickers);
  const lobbyings = byTicker(await lobbyingForTickers(db, tickers));
  const awards = byTicker(await contractsForTickers(db, tickers));
  const gifts = byTicker(await contributionsForLinks(db, { tickers }));
  const dossiers: CompanyDossier[] = [];
  for (const ticker of tickers) {
    const count = counts.get(ticker) ?? { insiderTrades: 0, whaleStatements: 0 };
    // The SEC lists read the ticker upper-cased; most tickers have no filings at all.
    const upperCase = ticker === ticker.toUpperCase();
    const [insiders, whales] = await Promise.all([
      count.insiderTrades > 0 || !upperCase
        ? loadInsiderTrades(
            db,
            { ticker, codes: [] },
            { column: 'transaction_date', direction: 'desc', limit, offset: 0 },
          )
        : Promise.resolve([]),
      count.whaleStatements > 0 || !upperCase
        ? loadWhales(db, { ticker, forms: [] }, { column: 'filed_date', direction: 'desc', limit, offset: 0 })
        : Promise.resolve([]),
    ]);
    dossiers.push(
      await assembleDossier(db, reads, {
        ticker,
        company: companies.get(ticker),
        members: summarizeMemberTrades(totals.get(ticker) ?? []),
        recent: recents.get(ticker) ?? [],
        insiders,
        whales,
        counts: count,
        lobbying: lobbyings.get(ticker) ?? [],
        contracts: awards.get(ticker) ?? [],
        contributions: gifts.get(ticker) ?? [],
      }),
    );
  }
  return dossiers;
}

/** What a dossier is built from besides the shared reads: one ticker's rows of each section. */
interface DossierRecords {
  ticker: string;
  company: CompanyRow | undefined;
  members: ReturnType<typeof summarizeMemberTrades>;
  recent: LinkTradeRow[];
  insiders: InsiderTrade[];
  whales: Whale[];
  counts: { insiderTrades: number; whaleStatements: number };
  lobbying: LinkLobbyingRow[];
  contracts: LinkContractRow[];
  contributions: LinkContributionRow[];
}

type CompanyRow = NonNullable<ReturnType<Awaited<ReturnType<typeof companiesOfTickers>>['get']>>;

export type CompanyDossier = Awaited<ReturnType<typeof assembleDossier>>;

async function assembleDossier(
  db: Kysely<Database>,
  reads: SharedDossierReads,
  {
    ticker,
    company,
    members,
    recent,
    insiders,
    whales,
    counts,
    lobbying,
    contracts,
    contributions,
  }: DossierRecords,
) {
  const limit = DOSSIER_LIST_LIMIT;
  const netMid = members.reduce((total, member) => total + member.net_amount_mid, 0);

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
    reads.committeeNames(db, committeeIds),
    reads.seatsOn(db, committeeIds),
    company?.sector || company?.industry ? reads.committeeBills(db, committeeIds) : Promise.resolve([]),
  ]);

  const key = company?.name ? nameKey(company.name)?.key : undefined;
  const namedBills = key && key.length >= 4 ? await reads.billsNaming(db, key) : [];
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
