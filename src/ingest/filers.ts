// The politician a filer is: matched against the known roster, or created so that no trade is
// dropped. Shared by the trade-set importer and the official-source connectors; one resolver per
// run, created filers join its roster so later filings of theirs match.
import type { Kysely } from 'kysely';
import { nameTokens, slugify, uncommaName } from '../domain/names.js';
import type { IdentityMatch } from '../domain/quality.js';
import type { ServiceDates } from '../domain/service-dates.js';
import { CHAMBER_OF_SOURCE, type TradeSource } from '../domain/sources.js';
import { filingPoliticianId } from '../storage/repositories/official-filings.js';
import { insertFiler, loadRoster, recordServiceDates } from '../storage/repositories/politicians.js';
import { identityRedirects } from '../storage/repositories/quality.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import { type FilerQuery, MemberMatcher, parseSeat } from './members.js';
import type { ListedDocument } from './sources/connector.js';
import type { ParsedDocument } from './sources/document.js';
import { nameCase } from './sources/name-case.js';

export type MatchedBy = 'bioguide' | 'seat' | 'name' | 'created' | 'manual';

/** How a trade's person was matched, as trades.identity_match records it (domain/quality.ts). */
export function identityMatchOf(by: MatchedBy): IdentityMatch {
  if (by === 'bioguide') return 'bioguide';
  if (by === 'created') return 'filer';
  if (by === 'manual') return 'manual';
  return 'name+term';
}

export interface ResolvedFiler {
  id: number;
  by: MatchedBy;
  /** The politician's name (the created record's name when `by` is "created"). */
  name: string;
  /** False when this resolver already answered for the same filer in this run. */
  first: boolean;
  /** A third-party bioguide id that named someone else (who, and why not), ignored for this match. */
  hintRejected?: string;
}

/** What a created filer record carries besides the name (Executive filers: title and agency). */
export interface NewFilerDetails {
  origin: string;
  title?: string | null;
  agency?: string | null;
}

export class FilerResolver {
  private readonly cache = new Map<string, ResolvedFiler>();
  private readonly rejectedHints = new Map<string, string>();

  constructor(
    private readonly matcher: MemberMatcher,
    /** Operator links (dcledger members link): a match on the key means the value. */
    private readonly redirects: ReadonlyMap<number, number> = new Map(),
  ) {}

  static async load(db: Kysely<Database>): Promise<FilerResolver> {
    return new FilerResolver(new MemberMatcher(await loadRoster(db)), await identityRedirects(db));
  }

  /** Dates of service now on a record: matches from here on check them. */
  noteService(id: number, service: ServiceDates): void {
    this.matcher.setService(id, service);
  }

  /** The known politician for the filer, or null; never creates one. */
  find(query: FilerQuery): ResolvedFiler | null {
    const cached = this.cache.get(cacheKey(query));
    if (cached) return { ...cached, first: false };
    const result = this.matcher.match(query);
    if (!result.matched) {
      if (result.hintRejected) this.rejectedHints.set(cacheKey(query), result.hintRejected);
      return null;
    }
    const redirected = this.redirects.get(result.id);
    const resolved: ResolvedFiler = {
      id: redirected ?? result.id,
      by: redirected === undefined ? result.by : 'manual',
      name: query.name,
      first: true,
      ...(result.hintRejected ? { hintRejected: result.hintRejected } : {}),
    };
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
    const hintRejected = this.rejectedHints.get(cacheKey(query));
    const resolved: ResolvedFiler = {
      id: created.id,
      by: 'created',
      name: created.name,
      first: true,
      ...(hintRejected ? { hintRejected } : {}),
    };
    this.cache.set(cacheKey(query), resolved);
    return resolved;
  }
}

function cacheKey(query: FilerQuery): string {
  // Who held office (a legislator's term, an executive filer's dates of service) is checked
  // around the day, so two dates of one year may name two people.
  const date = query.date ?? '';
  return `${query.chamber}|${query.bioguideId ?? ''}|${query.seat ?? ''}|${query.state ?? ''}|${date}|${query.name}`;
}

/** What identifying a document's filer found: the politician, and what the run report notes. */
export interface FilerOutcome {
  id: number | null;
  /** A filer record this run created, described for the report. */
  created?: string;
  /** A document whose filer could not be told. */
  unidentified?: string;
}

/** The politician an index row names (House and Senate indexes do; OGE's listing does not). */
export async function listedDocumentFiler(
  db: Kysely<Database>,
  filers: FilerResolver,
  source: TradeSource,
  document: ListedDocument,
  now: string,
): Promise<FilerOutcome> {
  if (!document.filer) return { id: null };
  const filer = await filers.resolve(
    db,
    {
      name: document.filer.name,
      chamber: CHAMBER_OF_SOURCE[source],
      seat: document.filer.seat,
      date: document.filedDate,
    },
    { origin: `connector:${source}` },
    now,
  );
  if (!(filer.by === 'created' && filer.first)) return { id: filer.id };
  const seat = document.filer.seat ? ` (${document.filer.seat})` : '';
  return { id: filer.id, created: `${filer.name}${seat}, ${document.source}:${document.docId}` };
}

export interface StoredDocument {
  source: TradeSource;
  filingId: number;
  listed: ListedDocument;
  parsed: ParsedDocument;
  clock: () => Date;
}

/**
 * The politician of a stored document: the one found when it was listed; for OGE (whose listing
 * does not name filers reliably) the filer the document names, created as an Executive filer with
 * title and agency when unknown. Dates of service the document states (a 278e's appointment and
 * termination) go on an Executive filer's record, where later matches check them.
 */
export async function storedDocumentFiler(
  db: Kysely<Database>,
  filers: FilerResolver,
  document: StoredDocument,
): Promise<FilerOutcome> {
  const outcome = await documentFiler(db, filers, document);
  const { service_start: start, service_end: end } = document.parsed.filing;
  if (outcome.id !== null && (start !== null || end !== null)) {
    const recorded = await recordServiceDates(db, outcome.id, { start, end }, document.clock().toISOString());
    if (recorded) filers.noteService(outcome.id, recorded);
  }
  return outcome;
}

async function documentFiler(
  db: Kysely<Database>,
  filers: FilerResolver,
  { source, filingId, listed, parsed, clock }: StoredDocument,
): Promise<FilerOutcome> {
  const listedId = await filingPoliticianId(db, filingId);
  if (listedId) return { id: listedId };
  const info = parsed.filing;
  const documentName = info.filer_display_name ?? info.filer_name;
  const chamber = CHAMBER_OF_SOURCE[source];
  if (documentName) {
    return inTransaction(db, async (trx) => {
      const filer = await filers.resolve(
        trx,
        {
          name: documentName,
          chamber,
          seat: info.state_district,
          state: info.state,
          date: info.filed_date ?? info.signed_date ?? listed.filedDate,
        },
        { origin: `connector:${source}`, title: info.filer_status, agency: info.agency },
        clock().toISOString(),
      );
      if (!(filer.by === 'created' && filer.first)) return { id: filer.id };
      const position = [info.filer_status, info.agency].filter(Boolean).join(', ');
      return {
        id: filer.id,
        created: `${filer.name}${position ? ` (${position})` : ''}, ${source}:${listed.docId}`,
      };
    });
  }
  // No readable name (a scan): a known politician the listing names is enough; nobody is created
  // from a file name unless the document has trades that need a filer.
  const hint = listed.filer?.name ?? listed.filerName ?? nameFromLabel(listed.title ?? listed.docId);
  const found = hint ? filers.find({ name: hint, chamber, date: listed.filedDate }) : null;
  if (found) return { id: found.id };
  const unidentified = `${source}:${listed.docId} (${parsed.status})`;
  if (parsed.trades.length === 0) return { id: null, unidentified };
  const fallback = hint || `Unidentified filer of ${listed.docId}`;
  return inTransaction(db, async (trx) => {
    const filer = await filers.resolve(
      trx,
      { name: fallback, chamber },
      { origin: `connector:${source}` },
      clock().toISOString(),
    );
    return { id: filer.id, unidentified };
  });
}

/** "Donald J. Trump 11.14.2025 278-T.pdf" -> "Donald J. Trump": a file name stripped of dates and form names. */
export function nameFromLabel(label: string): string {
  return displayName(
    label
      .replace(/\.pdf$/i, '')
      .replace(/_+/g, ' ')
      .replace(/\b\d{1,4}[.\-/]\d{1,2}[.\-/]\d{1,4}\b/g, ' ')
      .replace(/\b(OGE|278[-\s]?[A-Z]*|278e|PTR|TERM)\b/gi, ' ')
      .replace(/\b\d{4}\b/g, ' ')
      .replace(/[-_]+/g, ' '),
  );
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
