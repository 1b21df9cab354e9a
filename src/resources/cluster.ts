// A trading cluster (several members trading the same ticker in the same direction within days)
// and the GET /clusters/recent answer that lists them: schema and example written once here. The
// formula is in docs/analytics.md ("Clusters").
import { type Static, Type } from 'typebox';
import { RangeEchoSchema } from './analytics-range.js';
import { Nullable } from './schema.js';

const NS = Nullable(Type.String());
const NN = Nullable(Type.Number());

const ClusterTradeSchema = Type.Object({
  id: Type.Integer({ description: 'Trade id (GET /trades lists it)' }),
  transaction_date: Type.String(),
  disclosure_date: NS,
  trade_type: Type.String(),
  amount_range: NS,
  amount_low: NN,
  amount_high: NN,
  owner: NS,
  asset_description: NS,
  filing_url: Nullable(Type.String({ description: 'The official filing the trade was disclosed in' })),
});

export const ClusterSchema = Type.Object({
  ticker: Type.String(),
  direction: Type.String({
    description: 'The normalized trade action all its trades share (buy, sell, ...)',
  }),
  window: Type.Object({
    from: Type.String({ description: 'First trade date' }),
    to: Type.String({ description: 'Last trade date' }),
    days: Type.Integer({ description: 'Calendar days from first to last trade date, both counted' }),
  }),
  densest_window: Type.Object({
    from: Type.String(),
    to: Type.String(),
    member_count: Type.Integer({
      description: 'Distinct members in the window of window_days with the most',
    }),
  }),
  member_count: Type.Integer(),
  trade_count: Type.Integer(),
  party_mix: Type.Record(Type.String(), Type.Integer(), {
    description: 'Members by party (unknown when not known)',
  }),
  total_amount: Type.Object({
    low: Type.Number({ description: 'Sum of the lower bracket bounds, dollars' }),
    high: Nullable(
      Type.Number({ description: 'Sum of the upper bounds; null when a bracket is open-ended' }),
    ),
  }),
  members: Type.Array(
    Type.Object({
      politician_id: Type.Integer(),
      name: Type.String(),
      slug: Type.String(),
      party: NS,
      state: NS,
      chamber: Type.String(),
      amount_low: Type.Number(),
      amount_high: Type.Number(),
      trades: Type.Array(ClusterTradeSchema),
    }),
  ),
  shares_committees: Type.Boolean({
    description: 'Whether two or more members sat on a same committee during the window',
  }),
  shared_committees: Type.Array(
    Type.Object({
      committee_id: Type.String({ description: 'Top-level committee (thomas id)' }),
      name: NS,
      politician_ids: Type.Array(Type.Integer()),
      seats: Type.Array(
        Type.Object({
          politician_id: Type.Integer(),
          committee_id: Type.String({ description: 'The committee or subcommittee of the seat' }),
          title: NS,
          side: NS,
          start_date: Type.String(),
          start_basis: Type.String(),
          end_date: NS,
        }),
      ),
    }),
  ),
});

export const ClusterAnswerSchema = Type.Object(
  {
    parameters: Type.Object({
      ...RangeEchoSchema.properties,
      min_members: Type.Integer(),
      window_days: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
    }),
    total: Type.Integer({ description: 'Clusters found (all pages)' }),
    clusters: Type.Array(ClusterSchema),
  },
  {
    examples: [
      {
        parameters: {
          date_from: '2020-02-01',
          date_to: '2020-03-31',
          date_field: 'transaction_date',
          chamber: null,
          ticker: ['MSFT'],
          trade_type: null,
          min_members: 3,
          window_days: 7,
          limit: 25,
          offset: 0,
        },
        total: 1,
        clusters: [
          {
            ticker: 'MSFT',
            direction: 'sell',
            window: { from: '2020-02-24', to: '2020-02-27', days: 4 },
            densest_window: { from: '2020-02-24', to: '2020-03-01', member_count: 3 },
            member_count: 3,
            trade_count: 3,
            party_mix: { D: 1, R: 2 },
            total_amount: { low: 3003, high: 45000 },
            members: [
              {
                politician_id: 12,
                name: 'Jane Doe',
                slug: 'jane-doe',
                party: 'D',
                state: 'CA',
                chamber: 'House',
                amount_low: 1001,
                amount_high: 15000,
                trades: [
                  {
                    id: 101,
                    transaction_date: '2020-02-24',
                    disclosure_date: '2020-03-10',
                    trade_type: 'Sale (Full)',
                    amount_range: '$1,001 - $15,000',
                    amount_low: 1001,
                    amount_high: 15000,
                    owner: 'Self',
                    asset_description: 'Microsoft Corporation',
                    filing_url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2020/20016000.pdf',
                  },
                ],
              },
            ],
            shares_committees: false,
            shared_committees: [],
          },
        ],
      },
    ],
  },
);

export type ClusterAnswer = Static<typeof ClusterAnswerSchema>;
