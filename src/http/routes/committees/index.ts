// GET /committees and GET /committees/{id}: members now and on a date, jurisdiction sectors.
import { Type } from 'typebox';
import { committeeDetail, committeeList } from '../../../resources/committee.js';
import { errorResponses, IsoDate, Limit, Nullable, Offset, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

const CommitteeSummary = Type.Object({
  id: Type.String({ description: 'thomas id: HSBA, SSBK, HSAG15 (subcommittee)' }),
  name: S,
  chamber: S,
  parent_id: NS,
  url: NS,
  member_count: Type.Integer({ description: 'Seats held now' }),
  jurisdiction_sectors: Type.Array(S),
});

const Seat = Type.Object({
  bioguide_id: S,
  politician_id: NI,
  politician_slug: NS,
  name: NS,
  party: NS,
  state: NS,
  side: NS,
  title: NS,
  rank: NI,
  start_date: S,
  start_basis: Type.String({
    description: 'congress_start, term_start or observed: what start_date rests on',
  }),
  end_date: NS,
});

const CommitteeDetail = Type.Object({
  id: S,
  name: S,
  chamber: S,
  parent_id: NS,
  url: NS,
  jurisdiction: NS,
  jurisdiction_sectors: Type.Array(S),
  jurisdiction_industries: NS,
  subcommittees: Type.Array(Type.Object({ id: S, name: S })),
  members: Type.Array(Seat),
  members_on_date: Nullable(Type.Object({ date: S, members: Type.Array(Seat) })),
  former_members: Type.Array(Seat),
});

const SEAT_EXAMPLE = {
  bioguide_id: 'H001072',
  politician_id: 1,
  politician_slug: 'french-hill',
  name: 'French Hill',
  party: 'R',
  state: 'AR',
  side: 'majority',
  title: 'Chair',
  rank: 1,
  start_date: '2025-01-03',
  start_basis: 'congress_start',
  end_date: null,
};

const COMMITTEE_EXAMPLE = {
  id: 'HSBA',
  name: 'House Committee on Financial Services',
  chamber: 'House',
  parent_id: null,
  url: 'https://financialservices.house.gov/',
  member_count: 53,
  jurisdiction_sectors: ['Financials', 'Real Estate'],
};

const COMMITTEE_DETAIL_EXAMPLE = {
  id: 'HSBA',
  name: 'House Committee on Financial Services',
  chamber: 'House',
  parent_id: null,
  url: 'https://financialservices.house.gov/',
  jurisdiction: null,
  jurisdiction_sectors: ['Financials', 'Real Estate'],
  jurisdiction_industries: null,
  subcommittees: [{ id: 'HSBA16', name: 'Capital Markets' }],
  members: [SEAT_EXAMPLE],
  members_on_date: { date: '2026-01-15', members: [SEAT_EXAMPLE] },
  former_members: [],
};

export function committeeRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/committees',
    {
      schema: {
        operationId: 'listCommittees',
        tags: ['legislation'],
        summary: 'Congressional committees and subcommittees',
        description: 'Filters: `chamber`, `q` (in the name), `top_level=true` (no subcommittees).',
        querystring: Type.Object({
          chamber: Type.Optional(StringEnum(['House', 'Senate', 'Joint'] as const)),
          q: Type.Optional(Type.String({ minLength: 2, maxLength: 200 })),
          top_level: Type.Optional(Type.Boolean()),
          limit: Limit(50, 1000),
          offset: Offset,
        }),
        response: {
          200: Type.Array(CommitteeSummary, { examples: [[COMMITTEE_EXAMPLE]] }),
          ...errorResponses(422),
        },
      },
    },
    async (request) =>
      committeeList(
        deps.db,
        { chamber: request.query.chamber, name: request.query.q, topLevel: request.query.top_level },
        { limit: request.query.limit, offset: request.query.offset },
      ),
  );

  app.get(
    '/committees/:id',
    {
      schema: {
        operationId: 'getCommittee',
        tags: ['legislation'],
        summary: 'One committee: members now, members on a date, former members, jurisdiction sectors',
        description:
          'Seats keep their history from one congress-legislators import to the next; `date` answers "who sat on it then".',
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z]{4}\\d{0,2}$' }) }),
        querystring: Type.Object({ date: Type.Optional(IsoDate) }),
        response: {
          200: Type.Object(CommitteeDetail.properties, { examples: [COMMITTEE_DETAIL_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => committeeDetail(deps.db, request.params.id, request.query.date),
  );
}
