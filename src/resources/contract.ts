// The Contract resource: one federal contract award as GET /contracts and GET /contracts/{id}
// serve it and as the contract.awarded event carries it.
import { type Static, Type } from 'typebox';
import type { ContractRow } from '../storage/repositories/contracts.js';
import { TickerMatchSchema } from './lobbying.js';
import { maybeNumber, maybeText } from './schema-helpers.js';

export const ContractSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Contract award id' }),
    award_key: Type.String({
      description: "USAspending's award key (generated_unique_award_id), or FPDS_<transaction key>",
    }),
    award_id: Type.String({ description: 'PIID the agency gave the award' }),
    recipient_name: Type.String({ description: 'Recipient' }),
    recipient_uei: maybeText('Recipient UEI'),
    parent_name: maybeText("Recipient's ultimate parent"),
    parent_uei: maybeText("Parent's UEI"),
    ticker: maybeText("Recipient's (or its parent's) ticker"),
    ticker_match: Type.Union([TickerMatchSchema, Type.Null()]),
    amount: maybeNumber('Obligated amount, in dollars'),
    awarding_agency: maybeText('Awarding agency'),
    awarding_sub_agency: maybeText('Awarding sub-agency'),
    award_date: maybeText('Date signed (base obligation date), YYYY-MM-DD'),
    start_date: maybeText('Period of performance start, YYYY-MM-DD'),
    end_date: maybeText('Period of performance end, YYYY-MM-DD'),
    award_type: maybeText('DEFINITIVE CONTRACT, DELIVERY ORDER, ...'),
    description: maybeText('Award description'),
    naics_code: maybeText('NAICS code'),
    naics_description: maybeText('NAICS description'),
    psc_code: maybeText('Product or service code'),
    psc_description: maybeText('PSC description'),
    place_of_performance: Type.Object({
      city: maybeText('City'),
      state: maybeText('State code'),
      country: maybeText('Country code'),
    }),
    url: maybeText('The award on usaspending.gov'),
    source: Type.String({ description: 'spending_by_award, award_detail or fpds' }),
  },
  { description: 'A federal contract award' },
);
export type ContractResource = Static<typeof ContractSchema>;

export function toContractResource(row: ContractRow): ContractResource {
  return {
    id: row.id,
    award_key: row.award_key,
    award_id: row.award_id,
    recipient_name: row.recipient_name,
    recipient_uei: row.recipient_uei,
    parent_name: row.parent_name,
    parent_uei: row.parent_uei,
    ticker: row.ticker,
    ticker_match:
      row.match_method !== null && row.match_confidence !== null
        ? { method: row.match_method, confidence: row.match_confidence }
        : null,
    amount: row.amount,
    awarding_agency: row.awarding_agency,
    awarding_sub_agency: row.awarding_sub_agency,
    award_date: row.award_date,
    start_date: row.start_date,
    end_date: row.end_date,
    award_type: row.award_type,
    description: row.description,
    naics_code: row.naics_code,
    naics_description: row.naics_description,
    psc_code: row.psc_code,
    psc_description: row.psc_description,
    place_of_performance: { city: row.place_city, state: row.place_state, country: row.place_country },
    url: contractUrl(row.award_key),
    source: row.origin,
  };
}

export const CONTRACT_EXAMPLE: ContractResource = {
  id: 7734,
  award_key: 'CONT_AWD_NNJ06TA25C_8000_-NONE-_-NONE-',
  award_id: 'NNJ06TA25C',
  recipient_name: 'LOCKHEED MARTIN CORP',
  recipient_uei: 'FYHNA5WC8XD7',
  parent_name: null,
  parent_uei: null,
  ticker: 'LMT',
  ticker_match: { method: 'exact', confidence: 0.99 },
  amount: 15327166953.75,
  awarding_agency: 'National Aeronautics and Space Administration',
  awarding_sub_agency: 'National Aeronautics and Space Administration',
  award_date: '2006-08-31',
  start_date: '2006-09-06',
  end_date: '2026-09-30',
  award_type: 'DEFINITIVE CONTRACT',
  description: 'TAS::80 0124::TAS DESIGN, DEVELOPMENT, TEST&EVALUATION OF PROJECT ORION',
  naics_code: '541710',
  naics_description: 'RESEARCH AND DEVELOPMENT IN THE PHYSICAL, ENGINEERING, AND LIFE SCIENCES',
  psc_code: 'AR33',
  psc_description: 'R&D- SPACE: FLIGHT (ADVANCED DEVELOPMENT)',
  place_of_performance: { city: 'LITTLETON', state: 'CO', country: 'USA' },
  url: 'https://www.usaspending.gov/award/CONT_AWD_NNJ06TA25C_8000_-NONE-_-NONE-',
  source: 'spending_by_award',
};

/** The award's page on usaspending.gov (contract awards only have one by their generated key). */
export function contractUrl(awardKey: string): string | null {
  return awardKey.startsWith('CONT_') ? `https://www.usaspending.gov/award/${awardKey}` : null;
}
