// The politician a filer is: matched against the known roster, or created so that no trade is
// dropped. Shared by the trade-set importer and the official-source connectors; one resolver per
// run, created filers join its roster so later filings of theirs match.
import type { Kysely } from 'kysely';
import { nameTokens, slugify, uncommaName } from '../domain/names.js';
import { insertFiler, loadRoster } from '../storage/repositories/politicians.js';
import type { Database } from '../storage/schema.js';
import { type FilerQuery, MemberMatcher, parseSeat } from './members.js';
import { nameCase } from './sources/senate/search-results.js';

export type MatchedBy = 'bioguide' | 'seat' | 'name' | 'created';

export interface ResolvedFiler {
  id: number;
  by: MatchedBy;
  /** The politician's name (the created record's name when `by` is "created"). */
  name: string;
  /** False when this resolver already answered for the same filer in this run. */
  first: boolean;
}

/** What a created filer record carries besides the name (Executive filers: title and agency). */
export interface NewFilerDetails {
  origin: string;
  title?: string | null;
  agency?: string | null;
}

export class FilerResolver {
  private readonly cache = new Map<string, ResolvedFiler>();

  constructor(private readonly matcher: MemberMatcher) {}

  static async load(db: Kysely<Database>): Promise<FilerResolver> {
    return new FilerResolver(new MemberMatcher(await loadRoster(db)));
  }

  /** The known politician for the filer, or null; never creates one. */
  find(query: FilerQuery): ResolvedFiler | null {
    const cached = this.cache.get(cacheKey(query));
    if (cached) return { ...cached, first: false };
    const result = this.matcher.match(query);
    if (!result.matched) return null;
    const resolved: ResolvedFiler = { id: result.id, by: result.by, name: query.name, first: true };
    this.cache.set(cacheKey(query), resolved);
    return resolved;
  }

  /** The known politician for the filer, or a new one created from what the filing says. */
  async resolve(
    db: Kysely<Database>,
    query: FilerQuery,
    details: NewFilerDetails,
    stamp: string,
  ): Promise<ResolvedFiler> {
    const found = this.find(query);
    if (found) return found;
    const seat = parseSeat(query.seat);
    const name = displayName(query.name);
    const tokens = nameTokens(name);
    const created = await insertFiler(
      db,
      {
        name,
        firstName: tokens.length > 1 ? capitalize(tokens[0] ?? '') : null,
        lastName: capitalize(tokens.at(-1) ?? ''),
        chamber: query.chamber,
        state: seat?.state ?? query.state ?? null,
        district: seat ? String(seat.district) : null,
        party: null,
        title: details.title ?? null,
        agency: details.agency ?? null,
        origin: details.origin,
      },
      slugify(name),
      stamp,
    );
    this.matcher.add({
      id: created.id,
      bioguideId: null,
      name: created.name,
      firstName: created.first_name,
      lastName: created.last_name,
      nickname: null,
      chamber: query.chamber,
      state: created.state,
      birthday: null,
      inOffice: false,
      origin: created.origin,
      terms: seat
        ? [
            {
              type: query.chamber === 'House' ? 'rep' : 'sen',
              state: seat.state,
              district: String(seat.district),
            },
          ]
        : [],
    });
    const resolved: ResolvedFiler = { id: created.id, by: 'created', name: created.name, first: true };
    this.cache.set(cacheKey(query), resolved);
    return resolved;
  }
}

function cacheKey(query: FilerQuery): string {
  return `${query.chamber}|${query.bioguideId ?? ''}|${query.seat ?? ''}|${query.state ?? ''}|${query.name}`;
}

/** "Pelosi, Nancy" / "Hon. Nancy Pelosi" -> "Nancy Pelosi"; "LINDA MCMAHON" -> "Linda McMahon". */
export function displayName(raw: string): string {
  const name = uncommaName(raw)
    .replace(/^(hon\.?|the honorable)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Some filers type their name in capitals; records keep names as people write them.
  return /[a-z]/.test(name) ? name : nameCase(name);
}

function capitalize(token: string): string {
  return token.charAt(0).toUpperCase() + token.slice(1);
}
