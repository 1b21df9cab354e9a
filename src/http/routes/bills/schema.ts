// TypeBox schemas of the bill routes: validation, serialization and the OpenAPI document.
import { Type } from 'typebox';
import { VoteSummarySchema } from '../../../resources/vote.js';
import { Nullable } from '../../schemas/common.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

export const BILL_EXAMPLE = {
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

const Person = {
  bioguide_id: S,
  politician_id: NI,
  politician_slug: NS,
  name: NS,
  party: NS,
  state: NS,
};

export const BillDetailSchema = Type.Object(
  {
    ...BillSummarySchema.properties,
    sponsors: Type.Array(Type.Object(Person)),
    cosponsors: Type.Array(
      Type.Object({
        ...Person,
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
