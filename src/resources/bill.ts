// A bill as the API serves it (its schema, type and examples written once here): its own fields,
// and on the detail page its sponsors, committee activity, actions, subjects, related bills and
// roll-call votes.
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { notFound } from '../errors.js';
import { type BillFilter, billParts, findBill, listBills } from '../storage/repositories/bills.js';
import { votesByClerkNumbers, votesOnBill } from '../storage/repositories/votes.js';
import type { BillsTable } from '../storage/schema/legislation.js';
import type { Database } from '../storage/schema.js';
import { CongressMemberFields, fieldsOf, Nullable } from './schema.js';
import { toVoteSummary, type VoteSummary, VoteSummarySchema } from './vote.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

export const BILL_EXAMPLE: BillSummary = {
  id: 'hr21-117',
  congress: 117,
  bill_type: 'HR',
  number: 21,
  title: 'FedRAMP Authorization Act',
  short_title: null,
  introduced_date: '2021-01-04',
  sponsor_bioguide_id: 'C001078',
  policy_area: 'Government Operations and Politics',
  latest_action_date: '2021-01-06',
  latest_action_text:
    'Received in the Senate and Read twice and referred to the Committee on Homeland Security and Governmental Affairs.',
  url: 'https://www.congress.gov/bill/117th-congress/house-bill/21',
};

export const BILL_DETAIL_EXAMPLE = {
  ...BILL_EXAMPLE,
  sponsors: [
    {
      bioguide_id: 'C001078',
      politician_id: 1,
      politician_slug: 'gerald-connolly',
      name: 'Rep. Connolly, Gerald E. [D-VA-11]',
      party: 'D',
      state: 'VA',
    },
  ],
  cosponsors: [
    {
      bioguide_id: 'C001108',
      politician_id: 2,
      politician_slug: 'james-comer',
      name: 'Rep. Comer, James [R-KY-1]',
      party: 'R',
      state: 'KY',
      sponsorship_date: '2021-01-04',
      is_original_cosponsor: true,
      withdrawn_date: null,
    },
  ],
  committees: [
    {
      committee_id: 'HSGO',
      name: 'Oversight and Reform Committee',
      chamber: 'House',
      activity: 'Referred to',
      date: '2021-01-04T15:11:25Z',
    },
  ],
  actions: [
    {
      date: '2021-01-05',
      time: '12:17:16',
      code: 'H38310',
      type: 'Floor',
      source: 'House floor actions',
      text: 'Motion to reconsider laid on the table Agreed to without objection.',
      committee_ids: [],
    },
  ],
  subjects: ['Computer security and identity theft'],
  related_bills: [
    {
      bill_id: 's3099-117',
      title: 'Federal Secure Cloud Improvement and Jobs Act of 2021',
      relationship: 'Related bill',
      identified_by: 'CRS',
    },
  ],
  recorded_votes: [],
  votes: [],
};

export const BillSummarySchema = Type.Object({
  id: Type.String({ description: 'type, number and congress: hr21-117' }),
  congress: Type.Integer(),
  bill_type: Type.String({ description: 'HR, S, HRES, SRES, HJRES, SJRES, HCONRES, SCONRES' }),
  number: Type.Integer(),
  title: S,
  short_title: NS,
  introduced_date: NS,
  sponsor_bioguide_id: NS,
  policy_area: NS,
  latest_action_date: NS,
  latest_action_text: NS,
  url: NS,
});
export type BillSummary = Static<typeof BillSummarySchema>;

export const BillDetailSchema = Type.Object(
  {
    ...BillSummarySchema.properties,
    sponsors: Type.Array(Type.Object(CongressMemberFields)),
    cosponsors: Type.Array(
      Type.Object({
        ...CongressMemberFields,
        sponsorship_date: NS,
        is_original_cosponsor: Nullable(Type.Boolean()),
        withdrawn_date: NS,
      }),
    ),
    committees: Type.Array(
      Type.Object({
        committee_id: Type.String({ description: 'thomas id, as /committees/{id}' }),
        name: S,
        chamber: NS,
        activity: Type.String({ description: 'Referred to, Markup by, Reported by, Discharged from...' }),
        date: NS,
      }),
    ),
    actions: Type.Array(
      Type.Object({
        date: S,
        time: NS,
        code: NS,
        type: NS,
        source: NS,
        text: S,
        committee_ids: Type.Array(S),
      }),
    ),
    subjects: Type.Array(S),
    related_bills: Type.Array(Type.Object({ bill_id: S, title: NS, relationship: S, identified_by: NS })),
    recorded_votes: Type.Array(
      Type.Object({
        chamber: S,
        congress: Type.Integer(),
        session: NI,
        clerk_roll_number: Type.Integer(),
        date: NS,
        action: NS,
        url: NS,
      }),
    ),
    votes: Type.Array(VoteSummarySchema, {
      description: 'Roll calls on the bill that are stored (Voteview)',
    }),
  },
  { examples: [BILL_DETAIL_EXAMPLE] },
);
export type BillDetail = Static<typeof BillDetailSchema>;

export function toBillSummary(row: BillsTable): BillSummary {
  return fieldsOf(BillSummarySchema, row);
}

export async function billList(
  db: Kysely<Database>,
  filter: BillFilter,
  page: { limit: number; offset: number },
): Promise<BillSummary[]> {
  return (await listBills(db, filter, page)).map(toBillSummary);
}

export async function billDetail(db: Kysely<Database>, id: string): Promise<BillDetail> {
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
