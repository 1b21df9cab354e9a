// How each record reads as a search document: the words of its title and body, in the language
// people use to ask about it (members with their roles and name forms, companies with their
// taxonomy, other names and products, bills with subjects and committees, lobbying with issue
// areas, contracts with agencies). refreshSearchDocuments() keeps search_documents current from each
// source table's watermark; the SQL is storage/repositories/search-sources.ts' and search-index.ts'.
import type { Kysely } from 'kysely';
import { givenNameForms } from '../domain/names.js';
import { leadershipRolesOf, type MemberRole } from '../storage/repositories/politician-roles.js';
import {
  removeSearchDocuments,
  type SearchDocument,
  upsertSearchDocuments,
} from '../storage/repositories/search-index.js';
import {
  billTopics,
  type CommitteeSeatRow,
  changedBillRows,
  changedCompanyTickers,
  committeeSeatsOf,
  listedCompanyNames,
  MAX_ROW_ID,
  resetSearchWatermarks,
  SEARCH_SOURCE_NAMES,
  type SearchSourceName,
  type SearchSourceRow,
  type SourceWindow,
  saveSearchWatermark,
  searchSourceRows,
  searchWatermark,
  tradedTickerRows,
  type Watermark,
} from '../storage/repositories/search-sources.js';
import type { Database } from '../storage/schema.js';
import { COMPANY_ALIASES } from './vocabulary/companies.js';
import { CONCEPTS, type Concept } from './vocabulary/concepts.js';
import { STATE_NAMES } from './vocabulary/places.js';

const BATCH = 1_000;
/**
 * The version of the wording below: a database whose documents were worded by another version has
 * its watermarks reset, so that every record is worded again (a document whose words did not change
 * keeps its vector). Bump it whenever a renderer changes.
 */
export const SEARCH_WORDING_VERSION = 3;

const PARTY_WORDS: Record<string, string> = { D: 'Democrat', R: 'Republican', I: 'Independent' };
const CHAMBER_WORDS: Record<string, string> = {
  Senate: 'Senator in the Senate',
  House: 'Representative in the House',
  Executive: 'executive branch official',
};
const ACTION_WORDS: Record<string, string> = {
  buy: 'bought (purchase)',
  sell: 'sold (sale)',
  exchange: 'exchanged',
  exercise: 'exercised',
  expired: 'expired',
};
/** SEC Form 4 transaction codes in words. */
const INSIDER_CODES: Record<string, string> = {
  P: 'open-market purchase bought',
  S: 'open-market sale sold',
  A: 'grant award',
  M: 'option exercise',
  F: 'tax withholding',
  G: 'gift',
  D: 'disposition to the issuer',
  C: 'conversion',
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2020-03-14" -> "March 2020". */
export function monthWords(date: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})/.exec(date ?? '');
  if (!match) return '';
  return `${MONTHS[Number(match[2]) - 1] ?? ''} ${match[1]}`;
}

function words(...parts: (string | number | null | undefined)[]): string {
  return parts
    .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function jsonNames(raw: string, fields: readonly string[]): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return '';
    return parsed
      .map((item: unknown) =>
        typeof item === 'object' && item !== null
          ? fields.map((field) => String((item as Record<string, unknown>)[field] ?? '')).join(' ')
          : String(item),
      )
      .join(' ');
  } catch {
    return '';
  }
}

/** The forms of a member's name people type: roster name, nickname, common given-name forms. */
export function nameForms(member: {
  name: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string | null;
}): string[] {
  const last = member.last_name ?? '';
  // Keyed by lower case: the table's "bernie" and the roster's "Bernie" are one form.
  const givens = new Map<string, string>();
  const add = (given: string) => {
    if (!givens.has(given.toLowerCase())) givens.set(given.toLowerCase(), given);
  };
  for (const given of [member.first_name, member.nickname]) {
    if (!given) continue;
    add(given);
    for (const form of givenNameForms(given.toLowerCase())) add(form.charAt(0).toUpperCase() + form.slice(1));
  }
  const forms = [...givens.values()].map((given) => `${given} ${last}`.trim());
  return forms.filter((form) => form.toLowerCase() !== member.name.toLowerCase());
}

/** "Senate Committee on Armed Services" -> "Senate Armed Services Committee", as people say it. */
export function shortCommitteeName(name: string): string | null {
  const match =
    /^(Senate|House|Joint)\s+(?:Permanent\s+Select\s+|Select\s+|Special\s+)?Committee\s+on\s+(?:the\s+)?(.+)$/i.exec(
      name,
    );
  return match ? `${match[1]} ${match[2]} Committee` : null;
}

const years = (start: string | null, end: string | null) =>
  end ? `${start?.slice(0, 4) ?? '?'}-${end.slice(0, 4)}` : `since ${start?.slice(0, 4) ?? '?'}`;

/**
 * A leadership role in words, dated: "Senate Majority Leader since 2025, Republican leader of the
 * Senate" or "former Speaker of the House 2019-2023". `today` decides current from former.
 */
export function roleWords(role: MemberRole, party: string | null, today: string): string {
  const current = role.end_date === null || role.end_date > today;
  const partyWord = PARTY_WORDS[party ?? ''];
  const chamber = /senate/i.test(role.title) ? 'Senate' : /house|speaker/i.test(role.title) ? 'House' : '';
  const extra: string[] = [];
  if (partyWord && chamber && /\b(?:leader|whip)\b/i.test(role.title)) {
    const kind = /whip/i.test(role.title) ? 'whip' : 'leader';
    extra.push(`${partyWord} ${kind} of the ${chamber}`);
  }
  if (/^speaker of the house$/i.test(role.title) && !current) extra.push('Speaker emerita emeritus');
  // A role held now is said twice: it is what the member is asked about by.
  return words(
    current ? `${role.title}, current` : 'former',
    role.title,
    years(role.start_date, role.end_date),
    ...extra,
  );
}

/** Terms of one role held back to back ("Speaker 2019-2021", "2021-2023") as one span. Pure. */
export function mergedRoles(roles: readonly MemberRole[]): MemberRole[] {
  const out: MemberRole[] = [];
  for (const role of [...roles].sort((a, b) => (a.start_date ?? '').localeCompare(b.start_date ?? ''))) {
    const last = out[out.length - 1];
    if (
      last &&
      last.title === role.title &&
      last.end_date !== null &&
      role.start_date !== null &&
      last.end_date >= role.start_date
    ) {
      out[out.length - 1] = { ...last, end_date: role.end_date };
    } else out.push({ ...role });
  }
  return out;
}

/** A committee seat in words: chairs and ranking members say so, and who leads which side. */
export function seatWords(seat: CommitteeSeatRow, party: string | null): string {
  const committee = seat.parent_name ? `${seat.name} subcommittee of the ${seat.parent_name}` : seat.name;
  const short = seat.parent_name ? null : shortCommitteeName(seat.name);
  const partyWord = PARTY_WORDS[party ?? ''];
  const title = seat.title ?? '';
  if (/^(?:chair|chairman|chairwoman|cochairman)$/i.test(title)) {
    return seat.parent_name
      ? words('subcommittee chair of', committee)
      : words(
          `Chair of the ${committee};`,
          short ? `${short} chairman;` : null,
          partyWord ? `top ${partyWord} on ${seat.name}` : null,
        );
  }
  if (/^ranking member$/i.test(title)) {
    return seat.parent_name
      ? words('subcommittee ranking member of', committee)
      : words(
          `Ranking Member of the ${committee};`,
          short ? `${short} ranking member;` : null,
          partyWord ? `top ${partyWord} on ${seat.name}` : null,
        );
  }
  return words(title ? `${title},` : 'member of', committee);
}

export interface ChangedRow {
  id: number;
  updated: string;
  key: string;
  /** Null when the record left the index (a superseded trade). */
  document: SearchDocument | null;
  ticker?: string | null;
}

type Renderer<N extends SearchSourceName> = (
  rows: SearchSourceRow<N>[],
  db: Kysely<Database>,
  today: string,
) => ChangedRow[] | Promise<ChangedRow[]>;

const RENDER: { [N in SearchSourceName]: Renderer<N> } = {
  async politicians(rows, db, today) {
    const ids = rows.map((row) => row.id);
    const seats = await committeeSeatsOf(db, ids);
    const roles = await leadershipRolesOf(db, ids);
    const seatsOf = groupBy(seats, (seat) => seat.politician_id);
    const rolesOf = groupBy(roles, (role) => role.politician_id);
    return rows.map((p) => {
      const memberRoles = mergedRoles(rolesOf.get(p.id) ?? []).map((role) => roleWords(role, p.party, today));
      // Subcommittee seats only where the member leads one: plain seats would drown the roles.
      const memberSeats = (seatsOf.get(p.id) ?? [])
        .filter((seat) => !seat.parent_name || /chair|ranking/i.test(seat.title ?? ''))
        .sort((a, b) => Number(Boolean(a.parent_name)) - Number(Boolean(b.parent_name)))
        .map((seat) => seatWords(seat, p.party));
      return {
        id: p.id,
        updated: p.updated_at,
        key: `politician:${p.slug}`,
        document: {
          doc_key: `politician:${p.slug}`,
          kind: 'politicians' as const,
          ref_id: String(p.id),
          title: p.name,
          subtitle: [p.party, p.state, p.chamber].filter(Boolean).join(' · '),
          body: words(
            nameForms(p).join('; '),
            PARTY_WORDS[p.party ?? ''],
            p.state,
            STATE_NAMES[p.state ?? ''],
            CHAMBER_WORDS[p.chamber] ?? p.chamber,
            p.in_office ? null : 'former member',
            p.title,
            p.agency,
            memberRoles.join('; '),
            memberSeats.join('; '),
          ),
          refs: { politician_id: p.id, slug: p.slug },
        },
      };
    });
  },
  trades(rows) {
    return rows.map((t) => {
      const key = `trade:${t.source}:${t.source_key}`;
      const ticker = t.ticker === 'N/A' ? null : t.ticker;
      return {
        id: t.id,
        updated: t.updated_at,
        key,
        ticker,
        document:
          t.superseded_by === null
            ? {
                doc_key: key,
                kind: 'trades' as const,
                ref_id: String(t.id),
                title: words(`${t.politician_name}:`, t.trade_type, ticker, t.amount_range),
                subtitle: words(t.transaction_date, '·', t.asset_description),
                body: words(
                  PARTY_WORDS[t.party ?? ''],
                  t.state,
                  CHAMBER_WORDS[t.chamber] ?? t.chamber,
                  ACTION_WORDS[t.trade_action] ?? t.trade_action,
                  t.company,
                  t.asset_description,
                  t.asset_type,
                  t.option_type,
                  t.sector,
                  t.industry,
                  t.owner ? `owner ${t.owner}` : null,
                  monthWords(t.transaction_date),
                  t.comment,
                ),
                refs: { trade_id: t.id, ...(ticker ? { ticker } : {}), slug: t.slug },
              }
            : null,
      };
    });
  },
  filings(rows) {
    return rows.map((f) => {
      const key = `filing:${f.source}:${f.source_doc_id}`;
      const who = f.politician_name ?? f.filer_name ?? 'Unknown filer';
      return {
        id: f.id,
        updated: f.updated_at,
        key,
        document: {
          doc_key: key,
          kind: 'filings' as const,
          ref_id: String(f.id),
          title: words(`${who}:`, f.kind, 'filing', f.filed_date),
          subtitle: words(f.source, '·', f.source_doc_id),
          body: words(
            f.kind === 'PTR' ? 'periodic transaction report' : f.kind,
            f.is_amendment ? 'amendment' : null,
            PARTY_WORDS[f.party ?? ''],
            CHAMBER_WORDS[f.chamber ?? ''],
            `${f.trade_count} trades`,
            monthWords(f.filed_date),
          ),
          refs: { filing_id: f.id, ...(f.slug ? { slug: f.slug } : {}) },
        },
      };
    });
  },
  insider_trades(rows) {
    return rows.map((r) => {
      const key = `insider:${r.accession_number}:${r.line}`;
      return {
        id: r.id,
        updated: r.updated_at,
        key,
        document: {
          doc_key: key,
          kind: 'insider_trades' as const,
          ref_id: String(r.id),
          title: words(
            `${r.insider_name}:`,
            r.code ? (INSIDER_CODES[r.code] ?? r.code) : null,
            r.ticker ?? r.issuer_name,
          ),
          subtitle: words(r.transaction_date, '·', r.issuer_name, `Form ${r.form}`),
          body: words(
            'corporate insider',
            r.insider_title,
            r.is_director ? 'director' : null,
            r.is_officer ? 'officer' : null,
            r.is_ten_percent_owner ? 'ten percent owner' : null,
            r.issuer_name,
            r.security,
            r.shares !== null ? `${r.shares} shares` : null,
            monthWords(r.transaction_date),
          ),
          refs: { insider_trade_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
        },
      };
    });
  },
  whale_positions(rows) {
    return rows.map((r) => {
      const key = `whale:${r.accession_number}:${r.line}`;
      return {
        id: r.id,
        updated: r.updated_at,
        key,
        document: {
          doc_key: key,
          kind: 'whale_positions' as const,
          ref_id: String(r.id),
          title: words(
            `${r.filer_name}:`,
            r.percent_of_class !== null ? `${r.percent_of_class}% of` : 'stake in',
            r.ticker ?? r.issuer_name,
          ),
          subtitle: words(r.filed_date, '·', r.form, '·', r.issuer_name),
          body: words(
            'large shareholder beneficial ownership stake',
            r.form,
            r.issuer_name,
            r.person_type,
            monthWords(r.filed_date),
          ),
          refs: { whale_position_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
        },
      };
    });
  },
  lobbying_filings(rows) {
    return rows.map((r) => {
      const key = `lobbying:${r.filing_uuid}`;
      return {
        id: r.id,
        updated: r.updated_at,
        key,
        document: {
          doc_key: key,
          kind: 'lobbying' as const,
          ref_id: String(r.id),
          title: words(`${r.client_name}:`, 'lobbying by', r.registrant_name, r.filing_year),
          subtitle: words(r.filing_type_display, '·', r.ticker),
          body: words(
            'lobbying lobbied lobbyists issue areas',
            // The issue areas first (code and name: "DEF Defense"), before the long descriptions.
            jsonNames(r.issues, ['code', 'name']),
            r.client_description,
            jsonNames(r.government_entities, ['name']),
            jsonNames(r.issues, ['description']),
            r.amount !== null ? `$${Math.round(r.amount)}` : null,
          ).slice(0, 4_000),
          refs: { lobbying_filing_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
        },
      };
    });
  },
  contract_awards(rows) {
    return rows.map((r) => {
      const key = `contract:${r.award_key}`;
      return {
        id: r.id,
        updated: r.updated_at,
        key,
        document: {
          doc_key: key,
          kind: 'contracts' as const,
          ref_id: String(r.id),
          title: words(`${r.recipient_name}:`, 'federal contract from', r.awarding_agency),
          subtitle: words(r.award_date, '·', r.award_id, '·', r.ticker),
          body: words(
            'government contract award agency',
            r.awarding_agency,
            r.awarding_sub_agency,
            r.parent_name && r.parent_name !== r.recipient_name ? `parent company ${r.parent_name}` : null,
            r.description,
            r.naics_description,
            r.psc_description,
            r.amount !== null ? `$${Math.round(r.amount)}` : null,
            monthWords(r.award_date),
          ).slice(0, 4_000),
          refs: { contract_award_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
        },
      };
    });
  },
};

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The taxonomy names of a company, as the concept vocabulary matches them. */
export interface CompanyCodes {
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  sector: string | null;
  industry: string | null;
}

const lower = (value: string | null) => (value ?? '').toLowerCase();

/** Whether a company's codes fall under a concept (search/vocabulary/concepts.ts). Pure. */
export function inConcept(concept: Concept, codes: CompanyCodes): boolean {
  const subIndustries = [lower(codes.gics_sub_industry), lower(codes.industry)];
  const industries = [lower(codes.nasdaq_industry), lower(codes.industry)];
  const sectors = [lower(codes.gics_sector), lower(codes.sector)];
  const has = (list: readonly string[] | undefined, values: readonly string[]) =>
    (list ?? []).some((code) => values.includes(code.toLowerCase()));
  if (has(concept.excludeSubIndustries, subIndustries)) return false;
  return (
    has(concept.gicsSubIndustries, subIndustries) ||
    has(concept.sicIndustries, industries) ||
    has(concept.gicsSectors, sectors) ||
    has(concept.nasdaqSectors, [lower(codes.nasdaq_sector)])
  );
}

/** One document per traded stock: the company, its other names, taxonomy, products, how often it was traded. */
async function tickerDocuments(
  db: Kysely<Database>,
  touched: ReadonlySet<string>,
): Promise<SearchDocument[]> {
  const rows = await tradedTickerRows(db, touched);
  const names = groupBy(
    await listedCompanyNames(
      db,
      rows.map((row) => row.ticker),
    ),
    (row) => row.ticker,
  );
  return rows.map((t) => {
    const otherNames = [...new Set((names.get(t.ticker) ?? []).map((row) => row.name))].filter(
      (name) => name !== t.company,
    );
    const concepts = CONCEPTS.filter((concept) => inConcept(concept, t)).map((concept) =>
      concept.phrases.join(' '),
    );
    return {
      doc_key: `ticker:${t.ticker}`,
      kind: 'tickers' as const,
      ref_id: t.ticker,
      title: t.ticker,
      subtitle: t.company ?? t.description ?? '',
      body: words(
        t.company,
        otherNames.slice(0, 6).join('; '),
        COMPANY_ALIASES[t.ticker],
        t.description,
        [...new Set([t.sector, t.gics_sector, t.nasdaq_sector])].join(' '),
        [...new Set([t.industry, t.gics_sub_industry, t.nasdaq_industry])].join(' '),
        concepts.join('; '),
        `traded ${Number(t.trade_count)} times by ${Number(t.member_count)} members`,
      ),
      refs: { ticker: t.ticker },
    };
  });
}

async function billDocuments(db: Kysely<Database>): Promise<ChangedRow[]> {
  const bills = await changedBillRows(db);
  const topics = await billTopics(
    db,
    bills.map((bill) => bill.id),
  );
  const subjects = groupBy(topics.subjects, (row) => row.bill_id);
  const committees = groupBy(topics.committees, (row) => row.bill_id);
  return bills.map((b) => ({
    id: 0,
    updated: b.updated_at,
    key: `bill:${b.id}`,
    document: {
      doc_key: `bill:${b.id}`,
      kind: 'bills',
      ref_id: b.id,
      title: b.short_title ?? b.title,
      subtitle: words(b.id, '·', b.policy_area),
      body: words(
        'bill legislation',
        b.short_title ? b.title : null,
        b.policy_area,
        b.latest_action_text,
        `${b.congress}th Congress`,
        monthWords(b.introduced_date),
        [
          ...new Set((committees.get(b.id) ?? []).map((row) => `${row.chamber ?? ''} ${row.committee_name}`)),
        ].join('; '),
        (subjects.get(b.id) ?? [])
          .map((row) => row.subject)
          .join('; ')
          .slice(0, 3_000),
      ),
      refs: { bill_id: b.id },
    },
  }));
}

export interface RefreshReport {
  indexed: number;
  removed: number;
}

function advance(mark: Watermark, id: number, updated: string): Watermark {
  return {
    last_id: Math.max(mark.last_id, id),
    last_updated: updated > mark.last_updated ? updated : mark.last_updated,
  };
}

/**
 * Brings search_documents up to date with every source table, reading only what was added or
 * changed since the last refresh: rows past the highest id seen, then older rows whose
 * updated_at is past the newest seen. Ticker documents are rebuilt for the tickers those rows
 * touch. The search engine calls it before answering (throttled), the warm-up and
 * `dcledger search index` ahead of time.
 */
export async function refreshSearchDocuments(
  db: Kysely<Database>,
  now: Date,
  onProgress?: (source: string, done: number) => void,
): Promise<RefreshReport> {
  const report: RefreshReport = { indexed: 0, removed: 0 };
  const stamp = now.toISOString();
  const wording = await searchWatermark(db, 'wording');
  if (wording.last_id !== SEARCH_WORDING_VERSION) {
    await resetSearchWatermarks(db);
    await saveSearchWatermark(db, 'wording', { last_id: SEARCH_WORDING_VERSION, last_updated: stamp });
  }
  const today = stamp.slice(0, 10);
  const touchedTickers = new Set<string>();
  const apply = async (rows: readonly ChangedRow[]) => {
    const keep: SearchDocument[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (row.document) keep.push(row.document);
      else drop.push(row.key);
      if (row.ticker) touchedTickers.add(row.ticker);
    }
    await upsertSearchDocuments(db, keep, stamp);
    report.removed += await removeSearchDocuments(db, drop);
    report.indexed += keep.length;
  };
  for (const name of SEARCH_SOURCE_NAMES) {
    const render = RENDER[name] as Renderer<SearchSourceName>;
    const start = await searchWatermark(db, name);
    let mark = start;
    let done = 0;
    const phases: SourceWindow[] = [{ fromId: start.last_id, toId: MAX_ROW_ID, updatedAfter: undefined }];
    if (start.last_id > 0) phases.push({ fromId: 0, toId: start.last_id, updatedAfter: start.last_updated });
    for (const phase of phases) {
      let window = phase;
      for (;;) {
        const rows = await searchSourceRows(db, name, window, BATCH);
        if (rows.length === 0) break;
        const changed = await render(rows, db, today);
        for (const row of changed) mark = advance(mark, row.id, row.updated);
        await apply(changed);
        done += rows.length;
        onProgress?.(name, done);
        await saveSearchWatermark(db, name, mark);
        if (rows.length < BATCH) break;
        window = { ...window, fromId: Math.max(...changed.map((row) => row.id)) };
      }
    }
  }
  await apply(await billDocuments(db));
  for (const ticker of await changedCompanyTickers(db)) touchedTickers.add(ticker);
  const tickers = await tickerDocuments(db, touchedTickers);
  await apply(tickers.map((doc) => ({ id: 0, updated: '', key: doc.doc_key, document: doc })));
  onProgress?.('tickers', tickers.length);
  return report;
}
