// Every trade of a range as a link row, oldest first (ties by id), read whole: what tests compare
// the link and dossier reads with.
import type { Kysely } from 'kysely';
import {
  type LinkTradeRow,
  linkTradesByIds,
  tradeKeysForLinks,
} from '../storage/repositories/analytics-links.js';
import type { TradeRangeFilter } from '../storage/repositories/trade-range.js';
import type { Database } from '../storage/schema.js';

export async function linkTradesOfRange(
  db: Kysely<Database>,
  filter: TradeRangeFilter,
): Promise<LinkTradeRow[]> {
  const keys = await tradeKeysForLinks(db, filter);
  const rows = new Map(
    (
      await linkTradesByIds(
        db,
        keys.map((key) => key.id),
      )
    ).map((row) => [row.id, row]),
  );
  return keys.map((key) => {
    const row = rows.get(key.id);
    if (!row) throw new Error(`trade ${key.id} read as a key but not as a row`);
    return row;
  });
}
