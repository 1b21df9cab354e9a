// The 13D/13G resource (one statement, led by its largest reporting person): what GET /whales
// serves and what a whale.filed event carries as `data`.
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { ListOrder } from '../storage/list-order.js';
import { latestCloses } from '../storage/repositories/prices.js';
import {
  findWhales,
  personsOfStatements,
  type WhaleFilter,
  type WhaleSortColumn,
} from '../storage/repositories/sec.js';
import type { WhalePositionsTable } from '../storage/schema/records.js';
import type { Database } from '../storage/schema.js';
import { fieldsOf } from './schema.js';
import { edgarFilingUrl, maybeDate, maybeNumber, maybeText, text } from './schema-helpers.js';

/** What a reporting person holds: served from the row's columns of the same names. */
const WhaleHoldingSchema = Type.Object({
  sole_voting: maybeNumber('Sole voting power'),
  shared_voting: maybeNumber('Shared voting power'),
  sole_dispositive: maybeNumber('Sole dispositive power'),
  shared_dispositive: maybeNumber('Shared dispositive power'),
  aggregate_amount: maybeNumber('Aggregate amount beneficially owned'),
  percent_of_class: maybeNumber('Percent of class'),
});

export const WhalePersonSchema = Type.Object({
  name: text('Reporting person'),
  cik: maybeText('Reporting person CIK (13D XML states it)'),
  type: maybeText('IN, CO, PN, IA, HC, OO, ...'),
  ...WhaleHoldingSchema.properties,
});
export type WhalePerson = Static<typeof WhalePersonSchema>;

export const WhaleSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Beneficial-ownership filing id' }),
    accession_number: text('SEC accession number'),
    form_type: text('SC 13D, SC 13G, SC 13D/A, SC 13G/A'),
    amendment_number: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Null for an original statement',
    }),
    filer_name: text('Beneficial owner (the reporting person with the largest stake)'),
    filer_cik: maybeText('Its CIK'),
    issuer_name: text('Company'),
    issuer_cik: maybeText('Company CIK'),
    ticker: maybeText('Issuer ticker (through the company identity table: CUSIP or CIK)'),
    cusip: maybeText('CUSIP of the class'),
    percent_of_class: maybeNumber('Percent of the class owned'),
    shares: maybeNumber('Shares owned'),
    position_value: maybeNumber('shares × latest close, in dollars'),
    event_date: maybeDate('Date of the event that required the filing'),
    filed_date: maybeDate('Filing date'),
    persons: Type.Array(WhalePersonSchema, { description: 'Every reporting person of the statement' }),
    url: text('The filing on EDGAR'),
  },
  { description: 'A Schedule 13D or 13G (5%+ holder) filing' },
);
export type Whale = Static<typeof WhaleSchema>;

/** The example /openapi.json shows and the whale.filed event's catalog entry sends. */
export const WHALE_EXAMPLE: Whale = {
  id: 2210,
  accession_number: '0000950170-25-004512',
  form_type: 'SC 13G',
  amendment_number: null,
  filer_name: 'The Vanguard Group',
  filer_cik: '0000102909',
  issuer_name: 'NVIDIA Corporation',
  issuer_cik: '0001045810',
  ticker: 'NVDA',
  cusip: '67066G104',
  percent_of_class: 8.27,
  shares: 2025000000,
  position_value: 272160000000,
  event_date: '2024-12-31',
  filed_date: '2025-02-13',
  persons: [
    {
      name: 'The Vanguard Group',
      cik: '0000102909',
      type: 'IA',
      sole_voting: 0,
      shared_voting: 28400000,
      sole_dispositive: 1950000000,
      shared_dispositive: 75000000,
      aggregate_amount: 2025000000,
      percent_of_class: 8.27,
    },
  ],
  url: 'https://www.sec.gov/Archives/edgar/data/1045810/000095017025004512/',
};

export type WhaleRow = Omit<WhalePositionsTable, 'id'> & { id: number };

function personOf(row: WhaleRow): WhalePerson {
  return {
    name: row.filer_name,
    cik: row.filer_cik,
    type: row.person_type,
    ...fieldsOf(WhaleHoldingSchema, row),
  };
}

/** `lead` is the statement's lead row; `persons` every row of the statement in line order. */
export function toWhale(lead: WhaleRow, persons: readonly WhaleRow[], latestClose: number | null): Whale {
  return {
    id: lead.id,
    accession_number: lead.accession_number,
    form_type: lead.form,
    amendment_number: lead.amendment_number,
    filer_name: lead.filer_name,
    filer_cik: lead.filer_cik,
    issuer_name: lead.issuer_name ?? '',
    issuer_cik: lead.issuer_cik,
    ticker: lead.ticker,
    cusip: lead.issuer_cusip,
    percent_of_class: lead.percent_of_class,
    shares: lead.aggregate_amount,
    position_value:
      lead.aggregate_amount !== null && latestClose !== null
        ? round2(lead.aggregate_amount * latestClose)
        : null,
    event_date: lead.event_date,
    filed_date: lead.filed_date,
    persons: persons.map(personOf),
    url: edgarFilingUrl(lead.issuer_cik, lead.accession_number),
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The lead person: the largest aggregate amount, the first listed on ties. */
export function leadLine(persons: readonly { aggregate_amount: number | null }[]): number {
  let best = 0;
  for (const [index, person] of persons.entries()) {
    if ((person.aggregate_amount ?? -1) > (persons[best]?.aggregate_amount ?? -1)) best = index;
  }
  return best + 1;
}

/** Stored statements as resources: the lead row, every reporting person, the latest close. */
export async function loadWhales(
  db: Kysely<Database>,
  filter: WhaleFilter,
  order: ListOrder<WhaleSortColumn>,
): Promise<Whale[]> {
  const leads = await findWhales(db, filter, order);
  const persons = await personsOfStatements(
    db,
    leads.map((lead) => lead.accession_number),
  );
  const closes = await latestCloses(
    db,
    leads.flatMap((lead) => (lead.ticker ? [lead.ticker] : [])),
  );
  return leads.map((lead) =>
    toWhale(
      lead,
      persons.get(lead.accession_number) ?? [lead],
      lead.ticker ? (closes.get(lead.ticker) ?? null) : null,
    ),
  );
}

export async function whalesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<Whale[]> {
  if (ids.length === 0) return [];
  return loadWhales(db, { ids }, { column: 'id', direction: 'asc', limit: ids.length, offset: 0 });
}
