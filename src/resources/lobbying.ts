// The Lobbying resource: one Senate LDA filing as GET /lobbying and GET /lobbying/{id} serve it and
// as the lobbying.filed event carries it. The schema is the one source for validation, response
// serialization, the OpenAPI document and the webhook catalog.
import { type Static, Type } from 'typebox';
import type { LobbyingRow } from '../storage/repositories/lobbying.js';
import { maybeNumber, maybeText } from './schema-helpers.js';

export const TickerMatchSchema = Type.Object(
  {
    method: Type.String({
      description: 'exact, normalized, parent, manual (or a stated link: sec_ticker_map, filing, directory)',
    }),
    confidence: Type.Number({ description: '0 to 1' }),
  },
  { description: 'How the name was matched to the ticker (company identity table)' },
);

export const LobbyingSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Lobbying filing id' }),
    filing_uuid: Type.String({ description: 'Senate LDA filing UUID (lower case)' }),
    filing_type: Type.String({
      description:
        'RR registration, RA registration amendment, Q1-Q4 reports, 1A-4A amendments, 1T-4T terminations',
    }),
    filing_type_display: Type.String({ description: 'The filing type as the source words it' }),
    filing_year: Type.Integer(),
    filing_period: maybeText(
      'first_quarter, second_quarter, third_quarter, fourth_quarter, mid_year, year_end (null when undetermined)',
    ),
    no_activity: Type.Boolean({ description: 'The report declares no lobbying activity for the period' }),
    registrant_id: maybeText('LDA registrant id'),
    registrant_name: Type.String({ description: 'Lobbying firm (or the client when it lobbies for itself)' }),
    client_id: maybeText('LDA client id (bulk XML: registrant id and the registrant-scoped client id)'),
    client_name: Type.String({ description: 'Client' }),
    client_description: maybeText('What the client does, as the filing says'),
    ticker: maybeText("Client's ticker, when the client is a listed company"),
    ticker_match: Type.Union([TickerMatchSchema, Type.Null()]),
    income: maybeText('Income reported by a lobbying firm, decimal string as filed'),
    expenses: maybeText('Expenses reported by a self-filing client, decimal string as filed'),
    amount: maybeNumber('income, else expenses, in dollars'),
    filed_date: maybeText('Date posted, YYYY-MM-DD'),
    posted_at: maybeText('When the filing was posted/received, as the source writes it'),
    issues: Type.Array(
      Type.Object({
        code: maybeText('General issue area code (TAX, DEF, HCR, ...)'),
        name: Type.String({ description: 'General issue area' }),
        description: maybeText('Specific issues lobbied on'),
      }),
    ),
    lobbyists: Type.Array(
      Type.Object({
        name: Type.String(),
        covered_position: maybeText('Former covered government positions, as declared'),
        is_new: Type.Union([Type.Boolean(), Type.Null()]),
      }),
    ),
    government_entities: Type.Array(Type.String(), {
      description: 'Chambers, committees and agencies contacted',
    }),
    url: Type.String({ description: 'The filing document on the Senate LDA site' }),
    source: Type.String({ description: 'lda_api or senate_bulk_xml' }),
  },
  { description: 'A federal lobbying (LDA) filing' },
);
export type LobbyingResource = Static<typeof LobbyingSchema>;

/** A filing's document on the Senate LDA site: its UUID between these (for the database to write it too). */
export const LOBBYING_DOCUMENT_URL = {
  before: 'https://lda.senate.gov/filings/public/filing/',
  after: '/print/',
} as const;

export function lobbyingDocumentUrl(filingUuid: string): string {
  return `${LOBBYING_DOCUMENT_URL.before}${filingUuid}${LOBBYING_DOCUMENT_URL.after}`;
}

/**
 * A filing's lobbyists as the resource serves them and the database stores them (migration
 * 0111), from the LDA readers' entries.
 */
export function servedLobbyists(
  entries: readonly { name: string; coveredPosition: string | null; isNew: boolean | null }[],
): LobbyingResource['lobbyists'] {
  return entries.map((entry) => ({
    name: entry.name,
    covered_position: entry.coveredPosition,
    is_new: entry.isNew,
  }));
}

export function toLobbyingResource(row: LobbyingRow): LobbyingResource {
  return {
    id: row.id,
    filing_uuid: row.filing_uuid,
    filing_type: row.filing_type,
    filing_type_display: row.filing_type_display,
    filing_year: row.filing_year,
    filing_period: row.filing_period,
    no_activity: row.no_activity === 1,
    registrant_id: row.registrant_id,
    registrant_name: row.registrant_name,
    client_id: row.client_id,
    client_name: row.client_name,
    client_description: row.client_description,
    ticker: row.ticker,
    ticker_match:
      row.match_method !== null && row.match_confidence !== null
        ? { method: row.match_method, confidence: row.match_confidence }
        : null,
    income: row.income,
    expenses: row.expenses,
    amount: row.amount,
    filed_date: row.filed_date,
    posted_at: row.posted_at,
    issues: JSON.parse(row.issues) as LobbyingResource['issues'],
    lobbyists: JSON.parse(row.lobbyists) as LobbyingResource['lobbyists'],
    government_entities: JSON.parse(row.government_entities) as string[],
    url: row.document_url ?? lobbyingDocumentUrl(row.filing_uuid),
    source: row.origin,
  };
}

export const LOBBYING_EXAMPLE: LobbyingResource = {
  id: 5120,
  filing_uuid: '2bca0583-580a-4385-b372-afad88800ac2',
  filing_type: 'Q2',
  filing_type_display: 'SECOND QUARTER REPORT',
  filing_year: 2016,
  filing_period: 'second_quarter',
  no_activity: false,
  registrant_id: '22746',
  registrant_name: 'The Michael Lewan Company',
  client_id: '22746-36',
  client_name: 'Oracle Corporation',
  client_description: null,
  ticker: 'ORCL',
  ticker_match: { method: 'exact', confidence: 0.99 },
  income: '60000',
  expenses: null,
  amount: 60000,
  filed_date: '2016-07-01',
  posted_at: '2016-07-01T11:33:34.163',
  issues: [{ code: 'TAX', name: 'Taxation/Internal Revenue Code', description: 'International tax policy' }],
  lobbyists: [
    { name: 'LEWAN, MICHAEL', covered_position: 'Senior Advisor - Senator Joe Lieberman 2012', is_new: null },
  ],
  government_entities: ['SENATE', 'HOUSE OF REPRESENTATIVES'],
  url: 'https://lda.senate.gov/filings/public/filing/2bca0583-580a-4385-b372-afad88800ac2/print/',
  source: 'senate_bulk_xml',
};
