// A member's campaign finance: the FEC candidacies congress-legislators links to them, cycle
// totals, the employers of individual donors (with the company each links to) and PAC money by
// giving committee and the company behind it (schema and example written once here).
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { notFound } from '../errors.js';
import {
  candidateIdsOf,
  candidatesByIds,
  committeeIdsOf,
  cycleTotals,
  financeMember,
  pacContributionsByCompany,
  topEmployers,
} from '../storage/repositories/campaign-finance.js';
import type { Database } from '../storage/schema.js';
import { Nullable } from './schema.js';

const S = Type.String();
const NS = Nullable(Type.String());
const N = Type.Number();

export const CampaignFinanceSchema = Type.Object({
  politician_id: Type.Integer(),
  politician_slug: S,
  cycle: Nullable(Type.Integer()),
  fec_candidate_ids: Type.Array(S, { description: "The member's FEC ids (congress-legislators id.fec)" }),
  candidates: Type.Array(
    Type.Object({
      candidate_id: S,
      name: S,
      party: NS,
      office: NS,
      state: NS,
      district: NS,
      election_year: Nullable(Type.Integer()),
      principal_committee_id: NS,
    }),
  ),
  committee_ids: Type.Array(S),
  cycle_totals: Type.Array(
    Type.Object({
      candidate_id: S,
      cycle: Type.Integer(),
      receipts: N,
      disbursements: N,
      cash_on_hand: N,
      debts: N,
      individual_contributions: N,
      pac_contributions: N,
      party_contributions: N,
      candidate_contributions: N,
      coverage_end_date: NS,
    }),
  ),
  top_employers: Type.Array(
    Type.Object({ employer: S, ticker: NS, sector: NS, amount: N, contributions: Type.Integer() }),
  ),
  top_industries: Type.Array(Type.Object({ sector: S, amount: N })),
  pac_contributions: Type.Array(
    Type.Object({
      committee_id: S,
      committee_name: NS,
      connected_organization: NS,
      ticker: NS,
      amount: N,
      contributions: Type.Integer(),
    }),
  ),
});

export type CampaignFinance = Static<typeof CampaignFinanceSchema>;

export const CAMPAIGN_FINANCE_EXAMPLE: CampaignFinance = {
  politician_id: 1,
  politician_slug: 'nancy-pelosi',
  cycle: 2024,
  fec_candidate_ids: ['H8CA05035'],
  candidates: [
    {
      candidate_id: 'H8CA05035',
      name: 'PELOSI, NANCY',
      party: 'DEM',
      office: 'H',
      state: 'CA',
      district: '11',
      election_year: 2022,
      principal_committee_id: 'C00213512',
    },
  ],
  committee_ids: ['C00213512'],
  cycle_totals: [
    {
      candidate_id: 'H8CA05035',
      cycle: 2024,
      receipts: 10223363.88,
      disbursements: 11739026.18,
      cash_on_hand: 2078066.46,
      debts: 0,
      individual_contributions: 9554439.66,
      pac_contributions: 251518.53,
      party_contributions: 130.94,
      candidate_contributions: 0,
      coverage_end_date: '2024-12-31',
    },
  ],
  // The employer and PAC rows come from the 2019-20 contribution files, so this 2024 example has none.
  top_employers: [],
  top_industries: [],
  pac_contributions: [],
};

const money = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

export async function politicianCampaignFinance(
  db: Kysely<Database>,
  idOrSlug: string,
  options: { cycle?: number; limit: number },
): Promise<CampaignFinance> {
  const member = await financeMember(db, idOrSlug);
  if (!member) throw notFound(`No politician with id or slug "${idOrSlug}"`);
  const candidateIds = member.bioguide_id ? await candidateIdsOf(db, member.bioguide_id) : [];
  const committeeIds = await committeeIdsOf(db, candidateIds);
  const [candidates, totals, employers, pacs] = await Promise.all([
    candidatesByIds(db, candidateIds),
    cycleTotals(db, candidateIds, options.cycle),
    topEmployers(db, committeeIds, options),
    pacContributionsByCompany(db, candidateIds, options),
  ]);
  return {
    politician_id: member.id,
    politician_slug: member.slug,
    cycle: options.cycle ?? null,
    fec_candidate_ids: candidateIds,
    candidates: candidates.map((c) => ({
      candidate_id: c.id,
      name: c.name,
      party: c.party,
      office: c.office,
      state: c.office_state,
      district: c.district,
      election_year: c.election_year,
      principal_committee_id: c.principal_committee_id,
    })),
    committee_ids: committeeIds,
    cycle_totals: totals.map((t) => ({
      candidate_id: t.candidate_id,
      cycle: t.cycle,
      receipts: money(t.receipts),
      disbursements: money(t.disbursements),
      cash_on_hand: money(t.cash_on_hand),
      debts: money(t.debts),
      individual_contributions: money(t.individual_contributions),
      pac_contributions: money(t.pac_contributions),
      party_contributions: money(t.party_contributions),
      candidate_contributions: money(t.candidate_contributions),
      coverage_end_date: t.coverage_end_date,
    })),
    top_employers: employers.map((e) => ({
      employer: e.employer_name,
      ticker: e.ticker,
      sector: e.sector,
      amount: money(e.amount),
      contributions: Number(e.contributions),
    })),
    top_industries: industriesOf(employers),
    pac_contributions: pacs.map((p) => ({
      committee_id: p.committee_id,
      committee_name: p.committee_name,
      connected_organization: p.connected_org_name,
      ticker: p.ticker,
      amount: money(p.amount),
      contributions: Number(p.contributions),
    })),
  };
}

/** Employer money summed by the sector of the company each employer links to (linked employers only). */
function industriesOf(employers: readonly { sector: string | null; amount: unknown }[]) {
  const sums = new Map<string, number>();
  for (const e of employers) if (e.sector) sums.set(e.sector, (sums.get(e.sector) ?? 0) + Number(e.amount));
  return [...sums]
    .map(([sector, amount]) => ({ sector, amount: money(amount) }))
    .sort((a, b) => b.amount - a.amount);
}
