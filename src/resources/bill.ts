// A bill as the API serves it: its own fields, and on the detail page its sponsors, committee
// activity, actions, subjects, related bills and roll-call votes.
import type { Kysely } from 'kysely';
import { notFound } from '../errors.js';
import { type BillFilter, billParts, findBill, listBills } from '../storage/repositories/bills.js';
import { votesByClerkNumbers, votesOnBill } from '../storage/repositories/votes.js';
import type { BillsTable, Database } from '../storage/schema.js';
import { toVoteSummary, type VoteSummary } from './vote.js';

export interface BillSummary {
  id: string;
  congress: number;
  bill_type: string;
  number: number;
  title: string;
  short_title: string | null;
  introduced_date: string | null;
  sponsor_bioguide_id: string | null;
  policy_area: string | null;
  latest_action_date: string | null;
  latest_action_text: string | null;
  url: string | null;
}

export function toBillSummary(row: BillsTable): BillSummary {
  return {
    id: row.id,
    congress: row.congress,
    bill_type: row.bill_type,
    number: row.number,
    title: row.title,
    short_title: row.short_title,
    introduced_date: row.introduced_date,
    sponsor_bioguide_id: row.sponsor_bioguide_id,
    policy_area: row.policy_area,
    latest_action_date: row.latest_action_date,
    latest_action_text: row.latest_action_text,
    url: row.url,
  };
}

export async function billList(
  db: Kysely<Database>,
  filter: BillFilter,
  page: { limit: number; offset: number },
): Promise<BillSummary[]> {
  return (await listBills(db, filter, page)).map(toBillSummary);
}

export async function billDetail(db: Kysely<Database>, id: string) {
  const bill = await findBill(db, id);
  if (!bill) throw notFound(`No bill with id "${id}" (ids look like hr21-117: type, number, congress)`);
  const parts = await billParts(db, bill.id);
  const person = (s: (typeof parts.sponsors)[number]) => ({
    bioguide_id: s.bioguide_id,
    politician_id: s.politician_id ?? null,
    politician_slug: s.slug ?? null,
    name: s.full_name,
    party: s.party,
    state: s.state,
  });
  const onBill = await votesOnBill(db, bill.id);
  const recorded = await votesByClerkNumbers(db, parts.recordedVotes);
  const votes = new Map<string, VoteSummary>();
  for (const vote of [...onBill, ...recorded]) votes.set(vote.id, toVoteSummary(vote));
  return {
    ...toBillSummary(bill),
    sponsors: parts.sponsors.filter((s) => s.role === 'sponsor').map(person),
    cosponsors: parts.sponsors
      .filter((s) => s.role === 'cosponsor')
      .map((s) => ({
        ...person(s),
        sponsorship_date: s.sponsorship_date,
        is_original_cosponsor: s.is_original === null ? null : s.is_original === 1,
        withdrawn_date: s.withdrawn_date,
      })),
    committees: parts.committees.map((c) => ({
      committee_id: c.committee_id,
      name: c.committee_name,
      chamber: c.chamber,
      activity: c.activity,
      date: c.activity_date,
    })),
    actions: parts.actions.map((a) => ({
      date: a.action_date,
      time: a.action_time,
      code: a.action_code,
      type: a.action_type,
      source: a.source_system,
      text: a.text,
      committee_ids: a.committee_ids ? a.committee_ids.split(',') : [],
    })),
    subjects: parts.subjects,
    related_bills: parts.related.map((r) => ({
      bill_id: r.related_bill_id,
      title: r.title,
      relationship: r.relationship,
      identified_by: r.identified_by,
    })),
    recorded_votes: parts.recordedVotes.map((v) => ({
      chamber: v.chamber,
      congress: v.congress,
      session: v.session,
      clerk_roll_number: v.clerk_roll_number,
      date: v.vote_date,
      action: v.action_name,
      url: v.url,
    })),
    votes: [...votes.values()].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id)),
  };
}
