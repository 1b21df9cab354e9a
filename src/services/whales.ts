// 13D/G statements as the API serves them: the lead row, every reporting person, the latest close.
// The whale.filed event is built with the same function, so its data equals the REST resource.
import type { Kysely } from 'kysely';
import { toWhale, type Whale } from '../resources/whale.js';
import {
  findWhales,
  type ListOrder,
  latestCloses,
  personsOfStatements,
  type WhaleFilter,
  type WhaleSortColumn,
} from '../storage/repositories/sec.js';
import type { Database } from '../storage/schema.js';

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

export async function getWhale(db: Kysely<Database>, id: number): Promise<Whale | undefined> {
  return (await whalesByIds(db, [id]))[0];
}
