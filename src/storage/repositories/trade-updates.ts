// Computed columns written to many trades at once by id (market symbols, ingest fields, signals):
// each row's values are typed by the trades table, so a writer names its columns only once.
import type { Kysely } from 'kysely';
import { type ColumnType, updateRowsByKey } from '../bulk-update.js';
import type { TradeRow } from '../schema/disclosures.js';
import type { Database } from '../schema.js';

/** A trade's new values of the columns C. */
export type TradeValues<C extends keyof TradeRow> = Pick<TradeRow, 'id' | C>;

/** Sets `columns` (each with its SQL type) of every trade in `rows`, in one statement per chunk. */
export async function updateTradesById<C extends keyof TradeRow & string>(
  db: Kysely<Database>,
  columns: Readonly<Record<C, ColumnType>>,
  rows: ReadonlyArray<NoInfer<TradeValues<C>>>,
): Promise<void> {
  await updateRowsByKey(db, 'trades', { column: 'id', type: 'integer' }, columns, rows);
}
