// TypeBox schemas of the bill routes: validation, serialization and the OpenAPI document.
import { Type } from 'typebox';
import { Nullable } from '../../schemas/common.js';
import { VoteSummarySchema } from '../votes/schema.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

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

export const BillDetailSchema = Type.Object({
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
  votes: Type.Array(VoteSummarySchema, { description: 'Roll calls on the bill that are stored (Voteview)' }),
});
