// `dcledger import legislators <dir>`: members, executive-branch officials, committees and
// memberships from the unitedstates/congress-legislators files.
import type { Kysely } from 'kysely';
import { type LegislatorsSaved, saveLegislators } from '../../storage/repositories/politicians.js';
import type { Database } from '../../storage/schema.js';
import { toPolitician } from './map.js';
import { readLegislatorFiles } from './read.js';

export interface LegislatorsReport extends LegislatorsSaved {
  files: string[];
  people: number;
}

export async function importLegislators(
  db: Kysely<Database>,
  dir: string,
  now = new Date(),
): Promise<LegislatorsReport> {
  const files = readLegislatorFiles(dir);
  const people = files.people.map(toPolitician);
  // Current members first, so that they get the plain slug when two people share a name.
  people.sort((a, b) => Number(b.inOffice) - Number(a.inOffice) || a.bioguideId.localeCompare(b.bioguideId));
  const saved = await db
    .transaction()
    .execute((trx) => saveLegislators(trx, people, files.committees, files.memberships, now.toISOString()));
  return { ...saved, files: files.read, people: people.length };
}
