// A suspicious-timing hit (a trade shortly before a legislative action the member had a part in)
// and the GET /legislation/suspicious-timing answer that lists them: schema and example written
// once here. The formula is in docs/analytics.md ("Suspicious timing").
import { type Static, Type } from 'typebox';
import { RangeEchoSchema } from './analytics-range.js';
import { Nullable } from './schema.js';

const NS = Nullable(Type.String());
const NN = Nullable(Type.Number());
const NI = Nullable(Type.Integer());

export const TimingHitSchema = Type.Object({
  trade: Type.Object({
    id: Type.Integer({ description: 'Trade id (GET /trades lists it)' }),
    politician_id: Type.Integer(),
    politician_name: Type.String(),
    politician_slug: Type.String(),
    party: NS,
    chamber: Type.String(),
    ticker: Type.String(),
    asset_description: NS,
    trade_type: Type.String(),
    direction: Type.String(),
    transaction_date: Type.String(),
    disclosure_date: NS,
    amount_range: NS,
    amount_low: NN,
    amount_high: NN,
    owner: NS,
    sector: NS,
    industry: NS,
    filing_url: NS,
  }),
  action: Type.Object({
    kind: Type.String({ description: 'committee or floor' }),
    date: Type.String(),
    text: Type.String(),
    bill_id: Type.String({ description: 'GET /bills/{id}' }),
    bill_title: NS,
    bill_url: NS,
    action_seq: NI,
    action_code: NS,
    committee_ids: Type.Array(Type.String()),
    vote_id: Nullable(Type.String({ description: 'GET /votes/{id}' })),
    roll_number: NI,
    result: NS,
  }),
  member_roles: Type.Array(
    Type.Object({
      kind: Type.String({ description: 'committee_seat or vote' }),
      committee_id: Type.Optional(Type.String()),
      committee_name: Type.Optional(NS),
      title: Type.Optional(NS),
      side: Type.Optional(NS),
      start_date: Type.Optional(Type.String()),
      start_basis: Type.Optional(Type.String()),
      end_date: Type.Optional(NS),
      vote_id: Type.Optional(Type.String()),
      position: Type.Optional(Type.String({ description: 'yea, nay or present' })),
    }),
  ),
  days_between: Type.Integer({ description: 'Calendar days from the trade to the action' }),
  bill_match: Type.Array(
    Type.Object({
      field: Type.String({ description: 'policy_area, subject, title or vote_description' }),
      text: Type.String({ description: 'The text that matched' }),
      basis: Type.String({ description: 'policy_area, a topic (energy, health, ...) or company_name' }),
    }),
  ),
  later_move: Type.Object({
    price_on_trade_date: NN,
    gain_30d: NN,
    gain_90d: NN,
    alpha_30d: NN,
    alpha_90d: NN,
  }),
});

export const TimingAnswerSchema = Type.Object(
  {
    parameters: Type.Object({
      ...RangeEchoSchema.properties,
      days_before: Type.Integer(),
      action_kinds: Type.Array(Type.String()),
      politician_id: Nullable(Type.Array(Type.Integer())),
      min_amount: NN,
      limit: Type.Integer(),
      offset: Type.Integer(),
    }),
    total: Type.Integer({ description: 'Hits found (all pages)' }),
    trade_count: Type.Integer({ description: 'Distinct trades among the hits' }),
    hits: Type.Array(TimingHitSchema),
  },
  {
    examples: [
      {
        parameters: {
          date_from: '2025-01-01',
          date_to: '2025-12-31',
          date_field: 'transaction_date',
          chamber: ['senate'],
          ticker: null,
          trade_type: null,
          days_before: 30,
          action_kinds: ['committee', 'floor'],
          politician_id: null,
          min_amount: null,
          limit: 25,
          offset: 0,
        },
        total: 1,
        trade_count: 1,
        hits: [
          {
            trade: {
              id: 5012,
              politician_id: 44,
              politician_name: 'John Doe',
              politician_slug: 'john-doe',
              party: 'R',
              chamber: 'Senate',
              ticker: 'XOM',
              asset_description: 'Exxon Mobil Corporation',
              trade_type: 'Purchase',
              direction: 'buy',
              transaction_date: '2025-02-03',
              disclosure_date: '2025-02-20',
              amount_range: '$1,001 - $15,000',
              amount_low: 1001,
              amount_high: 15000,
              owner: 'Self',
              sector: 'Energy',
              industry: 'Integrated Oil & Gas',
              filing_url:
                'https://efdsearch.senate.gov/search/view/ptr/00000000-0000-0000-0000-000000000000/',
            },
            action: {
              kind: 'floor',
              date: '2025-02-12',
              text: 'On the Joint Resolution: A joint resolution providing for congressional disapproval of a rule relating to natural gas',
              bill_id: 'hjres35-119',
              bill_title: null,
              bill_url: null,
              action_seq: null,
              action_code: null,
              committee_ids: [],
              vote_id: 's119-60',
              roll_number: 60,
              result: 'Passed',
            },
            member_roles: [{ kind: 'vote', vote_id: 's119-60', position: 'yea' }],
            days_between: 9,
            bill_match: [{ field: 'vote_description', text: 'natural gas', basis: 'energy' }],
            later_move: {
              price_on_trade_date: 108.2,
              gain_30d: 0.031,
              gain_90d: -0.02,
              alpha_30d: 0.012,
              alpha_90d: -0.04,
            },
          },
        ],
      },
    ],
  },
);

export type TimingAnswer = Static<typeof TimingAnswerSchema>;
