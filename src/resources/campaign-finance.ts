// A member's campaign finance: the FEC candidacies congress-legislators links to them, cycle
// totals, the employers of individual donors (with the company each links to) and PAC money by
// giving committee and the company behind it.
import type { Kysely } from 'kysely';
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

const money = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

export async function politicianCampaignFinance(
  db: Kysely<Database>,
  idOrSlug: string,
  options: { cycle?: number; limit: number },
) {
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
