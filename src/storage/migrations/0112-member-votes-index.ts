// A member's votes (GET /politicians/{id}/votes, and the positions the timing rule reads) from one
// index: vote_positions by (bioguide_id, vote_id, position) instead of bioguide_id alone, so the
// member's positions and the vote each was cast on come from the index entries, not from a row
// of the table per position. The page still orders the member's votes by date (the vote's own
// row holds the date); it reads no row of vote_positions to do it. The old index is this one's
// prefix, so it goes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('vote_positions_member_idx')
    .on('vote_positions')
    .columns(['bioguide_id', 'vote_id', 'position'])
    .execute();
  await db.schema.dropIndex('vote_positions_bioguide_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('vote_positions_bioguide_idx')
    .on('vote_positions')
    .column('bioguide_id')
    .execute();
  await db.schema.dropIndex('vote_positions_member_idx').execute();
}
