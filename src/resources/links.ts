// The evidence shapes of the "follow the money" answers (GET /overlap, /conflict/{politician_id},
// GET /companies/{ticker}): the one source for validation, serialization and the OpenAPI document.
import { Type } from 'typebox';
import type { LinkTradeRow } from '../storage/repositories/analytics-links.js';
import { fieldsOf, Nullable } from './schema.js';

export const SeatEvidenceSchema = Type.Object(
  {
    committee_id: Type.String({ description: 'Top-level committee (thomas id)' }),
    seat_committee_id: Type.String({ description: 'The committee or subcommittee the seat is on' }),
    title: Nullable(Type.String()),
    start_date: Type.String({ description: 'Seat start, YYYY-MM-DD' }),
    end_date: Nullable(Type.String({ description: 'Seat end (null: still held)' })),
  },
  { description: 'A committee seat held on the trade date' },
);

export const LobbyingEvidenceSchema = Type.Object({
  lobbying_filing_id: Type.Integer({ description: 'GET /lobbying/{id}' }),
  filing_uuid: Type.String(),
  url: Type.String({ description: 'The filing on the Senate LDA site' }),
  client_name: Type.String(),
  filed_date: Type.String(),
  amount: Nullable(Type.Number()),
  days_from_trade: Type.Integer({ description: 'Filing date minus trade date (negative: filed before)' }),
  committees: Type.Array(
    Type.Object({
      committee_id: Type.String(),
      agencies: Type.Array(Type.String(), { description: 'Overseen agencies the filing lists as contacted' }),
      issue_codes: Type.Array(Type.String(), {
        description: "Issue codes under the committee's jurisdiction (when the filing lists its chamber)",
      }),
    }),
  ),
});

export const ContractEvidenceSchema = Type.Object({
  contract_id: Type.Integer({ description: 'GET /contracts/{id}' }),
  award_id: Type.String(),
  url: Nullable(Type.String({ description: 'The award on usaspending.gov' })),
  award_date: Type.String(),
  amount: Nullable(Type.Number()),
  days_from_trade: Type.Integer(),
  committees: Type.Array(
    Type.Object({
      committee_id: Type.String(),
      agencies: Type.Array(Type.String(), { description: 'Awarding (sub-)agency the committee oversees' }),
    }),
  ),
});

export const ContributionEvidenceSchema = Type.Object({
  fec_record_id: Type.String({ description: 'FEC committee-contribution record id' }),
  fec_committee_id: Type.String({
    description: 'The giving PAC (its connected organization is the company)',
  }),
  fec_committee_name: Nullable(Type.String()),
  contribution_date: Type.String(),
  amount: Type.Number(),
  days_from_trade: Type.Integer(),
});

export const LinkTradeSchema = Type.Object({
  id: Type.Integer({ description: 'Trade id' }),
  politician_id: Type.Integer(),
  politician_name: Type.String(),
  politician_slug: Type.String(),
  party: Nullable(Type.String()),
  chamber: Type.String(),
  ticker: Type.String(),
  trade_type: Type.String(),
  transaction_date: Type.String(),
  disclosure_date: Nullable(Type.String()),
  amount_range: Nullable(Type.String()),
  amount_low: Nullable(Type.Number()),
  amount_high: Nullable(Type.Number()),
});

export const LinkKindSchema = Type.Union([
  Type.Literal('lobbying'),
  Type.Literal('contract'),
  Type.Literal('campaign'),
]);

export const LinksSchema = {
  lobbying: Type.Array(LobbyingEvidenceSchema),
  contracts: Type.Array(ContractEvidenceSchema),
  campaign: Type.Array(ContributionEvidenceSchema),
};

export const OverlapHitSchema = Type.Object({
  trade: LinkTradeSchema,
  link_kinds: Type.Array(LinkKindSchema),
  committees_at_trade: Type.Array(SeatEvidenceSchema),
  ...LinksSchema,
});

/** A linked trade as LinkTradeSchema shows it (the overlap hits, the dossier's recent trades). */
export function tradeSummary(trade: LinkTradeRow) {
  return fieldsOf(LinkTradeSchema, trade);
}
