// The GET /overlap answer: members' trades in companies linked to their committees or campaigns,
// with the range it covers; the evidence shapes of each hit are in links.ts. Schema and example
// written once here.
import { type Static, Type } from 'typebox';
import { LinkKindSchema, OverlapHitSchema } from './links.js';
import { Nullable } from './schema.js';

export const OverlapAnswerSchema = Type.Object(
  {
    parameters: Type.Object({
      // The range as the caller gave it: dates and tickers as applied, chamber and trade type as
      // written, the look-back in days (null for an exact range).
      date_from: Type.String(),
      date_to: Type.String(),
      days: Nullable(Type.Integer()),
      chamber: Nullable(Type.String()),
      ticker: Nullable(Type.String()),
      trade_type: Nullable(Type.String()),
      window_days: Type.Integer(),
      link_kinds: Type.Array(LinkKindSchema),
      politician_id: Type.Union([Type.Integer(), Type.Null()]),
    }),
    total: Type.Integer({ description: 'Trades with at least one link' }),
    hits: Type.Array(OverlapHitSchema),
  },
  {
    examples: [
      {
        parameters: {
          date_from: '2026-04-23',
          date_to: '2026-04-23',
          days: null,
          chamber: null,
          ticker: 'WFC',
          trade_type: null,
          window_days: 3650,
          link_kinds: ['lobbying', 'contract', 'campaign'],
          politician_id: null,
        },
        total: 1,
        hits: [
          {
            trade: {
              id: 8148,
              politician_id: 452,
              politician_name: 'Lloyd Smucker',
              politician_slug: 'lloyd-smucker',
              party: 'R',
              chamber: 'House',
              ticker: 'WFC',
              trade_type: 'Sell',
              transaction_date: '2026-04-23',
              disclosure_date: '2026-04-23',
              amount_range: '$15,001 - $50,000',
              amount_low: 15001,
              amount_high: 50000,
            },
            link_kinds: ['lobbying'],
            committees_at_trade: [
              {
                committee_id: 'HSWM',
                seat_committee_id: 'HSWM',
                title: null,
                start_date: '2025-01-03',
                end_date: null,
              },
            ],
            lobbying: [
              {
                lobbying_filing_id: 501,
                filing_uuid: '3398c048-152d-47e1-8465-9ce064aec6ad',
                url: 'https://lda.senate.gov/filings/public/filing/3398c048-152d-47e1-8465-9ce064aec6ad/print/',
                client_name: 'Wells Fargo & Company',
                filed_date: '2016-07-19',
                amount: 50000,
                days_from_trade: -3565,
                committees: [{ committee_id: 'HSWM', agencies: [], issue_codes: ['TAX'] }],
              },
            ],
            contracts: [],
            campaign: [],
          },
        ],
      },
    ],
  },
);

export type OverlapAnswer = Static<typeof OverlapAnswerSchema>;
