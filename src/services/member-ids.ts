// A member filter (`politician_id` on /trades, /legislation/suspicious-timing, /overlap) names
// members by numeric id or by slug, as the member's own path (/politicians/{id}) does.
import type { Kysely } from 'kysely';
import { invalidField } from '../errors.js';
import { politicianIdsBySlug } from '../storage/repositories/politicians-read.js';
import type { Database } from '../storage/schema.js';
import { splitList } from './trade-params.js';

const NUMERIC_ID = /^\d{1,10}$/;
const SLUG = /^[a-z0-9][a-z0-9.'-]{0,119}$/i;
const MAX_ID = 2_147_483_647;

/**
 * The member ids a comma list of ids and slugs names. Numeric ids are taken as they are (an id no
 * member has matches nothing, as before); a slug no member has is a 422 naming it, since it can
 * only be a typo.
 */
export async function memberIdsOf(db: Kysely<Database>, field: string, raw: string): Promise<number[]> {
  const ids: number[] = [];
  const slugs: string[] = [];
  for (const item of splitList(field, raw)) {
    if (NUMERIC_ID.test(item)) {
      const id = Number(item);
      if (id < 1 || id > MAX_ID) throw invalidField(field, `"${item}" is not a member id`);
      ids.push(id);
    } else if (SLUG.test(item)) slugs.push(item.toLowerCase());
    else throw invalidField(field, `"${item}" is neither a member id nor a slug`);
  }
  const found = await politicianIdsBySlug(db, slugs);
  for (const slug of slugs) {
    const id = found.get(slug);
    if (id === undefined) throw invalidField(field, `no member has the slug "${slug}"`);
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** The one member a single-member filter names, by id or slug. */
export async function memberIdOf(db: Kysely<Database>, field: string, raw: string): Promise<number> {
  const [id, ...more] = await memberIdsOf(db, field, raw);
  if (id === undefined || more.length > 0) throw invalidField(field, 'names one member (an id or a slug)');
  return id;
}
