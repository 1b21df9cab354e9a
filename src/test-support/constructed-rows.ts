// Constructed rows for tests that need a few members in the database and nothing else about them.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

/** Stores a constructed member (origin 'test', in office, party D of CA unless told) and returns its id. */
export async function insertTestMember(
  db: Kysely<Database>,
  member: {
    slug: string;
    name: string;
    chamber: string;
    party?: string | null;
    state?: string | null;
    district?: string | null;
  },
  at: Date,
): Promise<number> {
  const stamp = at.toISOString();
  const row = await db
    .insertInto('politicians')
    .values({
      slug: member.slug,
      name: member.name,
      chamber: member.chamber,
      party: member.party === undefined ? 'D' : member.party,
      state: member.state === undefined ? 'CA' : member.state,
      district: member.district ?? null,
      in_office: 1,
      origin: 'test',
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
