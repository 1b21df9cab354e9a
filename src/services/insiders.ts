// Insider trades as the API serves them: stored lines, their members'-trade overlaps, one mapper.
// The insider.filed event is built with the same function, so its data equals the REST resource.
import type { Kysely } from 'kysely';
import { type InsiderTrade, toInsiderTrade } from '../resources/insider.js';
import {
  findInsiderTrades,
  type InsiderSortColumn,
  type InsiderTradeFilter,
  type ListOrder,
  overlappingMemberTrades,
} from '../storage/repositories/sec.js';
import type { Database } from '../storage/schema.js';

export async function loadInsiderTrades(
  db: Kysely<Database>,
  filter: InsiderTradeFilter,
  order: ListOrder<InsiderSortColumn>,
): Promise<InsiderTrade[]> {
  const rows = await findInsiderTrades(db, filter, order);
  const overlaps = await overlappingMemberTrades(db, rows);
  return rows.map((row) => toInsiderTrade(row, overlaps.get(row.id) ?? []));
}

export async function insiderTradesByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<InsiderTrade[]> {
  if (ids.length === 0) return [];
  return loadInsiderTrades(db, { ids }, { column: 'id', direction: 'asc', limit: ids.length, offset: 0 });
}

export async function getInsiderTrade(db: Kysely<Database>, id: number): Promise<InsiderTrade | undefined> {
  return (await insiderTradesByIds(db, [id]))[0];
}
