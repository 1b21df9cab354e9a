// The validators each source's listing URLs last answered with (migration 0085): read before a
// poll to ask the site "changed since?", written once the listing's documents are recorded.
import type { Kysely } from 'kysely';
import type { ListingValidatorsTable } from '../schema/ingest.js';
import type { Database } from '../schema.js';

export type ListingValidatorRow = ListingValidatorsTable;

export async function readListingValidators(
  db: Kysely<Database>,
  source: string,
): Promise<ListingValidatorRow[]> {
  return db.selectFrom('listing_validators').selectAll().where('source', '=', source).execute();
}

/** Keeps what a listing answered: new validators on a 200, only the time checked on a 304. */
export async function saveListingValidator(
  db: Kysely<Database>,
  row: ListingValidatorRow,
  changed: boolean,
): Promise<void> {
  await db
    .insertInto('listing_validators')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['source', 'url']).doUpdateSet(
        changed
          ? {
              etag: row.etag,
              last_modified: row.last_modified,
              listed_since: row.listed_since,
              changed_at: row.changed_at,
              checked_at: row.checked_at,
            }
          : { checked_at: row.checked_at },
      ),
    )
    .execute();
}
