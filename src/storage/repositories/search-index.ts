// The search index: search_documents (one row per searchable record, kept current incrementally
// from each source table's watermark), their full-text ranking, their vectors and the embedding
// models. Rendering a record into words is here too, so that ingest (which may not import the
// search layer) refreshes the index as records arrive by calling refreshSearchDocuments().
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import {
  type FullTextQuery,
  fullTextDocumentCount,
  fullTextRanked,
  isSqlite,
  nearestInVectorIndex,
  removeFromVectorIndex,
  resetVectorIndex,
  vectorIndexAvailable,
  writeVectorIndex,
} from '../dialect.js';
import type { Database } from '../schema.js';

export type { FullTextQuery } from '../dialect.js';

export const SEARCH_KINDS = [
  'politicians',
  'tickers',
  'trades',
  'bills',
  'filings',
  'insider_trades',
  'whale_positions',
  'lobbying',
  'contracts',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface SearchDocument {
  doc_key: string;
  kind: SearchKind;
  ref_id: string;
  title: string;
  subtitle: string;
  body: string;
  refs: Record<string, string | number>;
}

const BATCH = 1_000;
/** The largest id a serial (PostgreSQL integer) column holds: the open end of an id window. */
const MAX_ROW_ID = 2_147_483_647;

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

interface Watermark {
  last_id: number;
  last_updated: string;
}

async function watermark(db: Kysely<Database>, source: string): Promise<Watermark> {
  const row = await db
    .selectFrom('search_sources')
    .select(['last_id', 'last_updated'])
    .where('source', '=', source)
    .executeTakeFirst();
  return { last_id: Number(row?.last_id ?? 0), last_updated: row?.last_updated ?? '' };
}

async function saveWatermark(db: Kysely<Database>, source: string, mark: Watermark): Promise<void> {
  await db
    .insertInto('search_sources')
    .values({ source, last_id: mark.last_id, last_updated: mark.last_updated })
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({ last_id: mark.last_id, last_updated: mark.last_updated }),
    )
    .execute();
}

/** The latest of ISO timestamps (text compares in time order). */
function latest(start: string, stamps: readonly string[]): string {
  let out = start;
  for (const stamp of stamps) if (stamp > out) out = stamp;
  return out;
}

function advance(mark: Watermark, id: number, updated: string): Watermark {
  return {
    last_id: Math.max(mark.last_id, id),
    last_updated: updated > mark.last_updated ? updated : mark.last_updated,
  };
}

export async function upsertSearchDocuments(
  db: Kysely<Database>,
  documents: readonly SearchDocument[],
  now: string,
): Promise<void> {
  for (let at = 0; at < documents.length; at += 200) {
    const chunk = documents.slice(at, at + 200);
    await db
      .insertInto('search_documents')
      .values(
        chunk.map((doc) => ({
          doc_key: doc.doc_key,
          kind: doc.kind,
          ref_id: doc.ref_id,
          title: doc.title,
          subtitle: doc.subtitle,
          body: doc.body,
          refs: JSON.stringify(doc.refs),
          vector_model: null,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.column('doc_key').doUpdateSet((eb) => ({
          ref_id: eb.ref('excluded.ref_id'),
          subtitle: eb.ref('excluded.subtitle'),
          refs: eb.ref('excluded.refs'),
          updated_at: eb.ref('excluded.updated_at'),
          // The stored vector stays valid while the words it was computed from are unchanged.
          vector_model: sql<string | null>`case when search_documents.title = excluded.title
            and search_documents.body = excluded.body then search_documents.vector_model else null end`,
          title: eb.ref('excluded.title'),
          body: eb.ref('excluded.body'),
        })),
      )
      .execute();
  }
}

export async function removeSearchDocuments(
  db: Kysely<Database>,
  docKeys: readonly string[],
): Promise<number> {
  let removed = 0;
  for (let at = 0; at < docKeys.length; at += 500) {
    const chunk = docKeys.slice(at, at + 500);
    const rows = await db.selectFrom('search_documents').select('id').where('doc_key', 'in', chunk).execute();
    if (rows.length === 0) continue;
    const ids = rows.map((row) => row.id);
    await db.deleteFrom('search_vectors').where('document_id', 'in', ids).execute();
    if (await hasVectorIndex(db)) await removeFromVectorIndex(db, ids);
    await db.deleteFrom('search_documents').where('id', 'in', ids).execute();
    removed += ids.length;
  }
  return removed;
}

export interface RefreshReport {
  indexed: number;
  removed: number;
}

/** Which rows of a source one page reads: ids in (fromId, toId], and when set, updated after. */
interface Window {
  fromId: number;
  toId: number;
  updatedAfter: string | undefined;
}

interface ChangedRow {
  id: number;
  updated: string;
  key: string;
  /** Null when the record left the index (a superseded trade). */
  document: SearchDocument | null;
  ticker?: string | null;
}

interface Source {
  name: string;
  load(db: Kysely<Database>, window: Window, limit: number): Promise<ChangedRow[]>;
}

/**
 * One indexed source table, described by its query and how its rows read as documents; the
 * window (ids, then updated_at past the watermark), order and batch size are the same for all.
 */
interface WindowedSource<DB, TB extends keyof DB, Row> {
  name: string;
  /** How the query names the source table's columns: `''` or `'t.'`. */
  alias: string;
  query(db: Kysely<Database>): SelectQueryBuilder<DB, TB, Row>;
  render(rows: Row[], db: Kysely<Database>): ChangedRow[] | Promise<ChangedRow[]>;
}

function windowed<DB, TB extends keyof DB, Row>(source: WindowedSource<DB, TB, Row>): Source {
  return {
    name: source.name,
    async load(db, w, limit) {
      const id = sql.ref<number>(`${source.alias}id`);
      let query = source.query(db).where(id, '>', w.fromId).where(id, '<=', w.toId);
      if (w.updatedAfter !== undefined)
        query = query.where(sql.ref<string>(`${source.alias}updated_at`), '>', w.updatedAfter);
      return source.render(await query.orderBy(id).limit(limit).execute(), db);
    },
  };
}

/**
 * Brings search_documents up to date with every source table, reading only what was added or
 * changed since the last refresh: rows past the highest id seen, then older rows whose
 * updated_at is past the newest seen. Ticker documents are rebuilt for the tickers those rows
 * touch. Ingest calls it after storing records; the search service before answering (throttled).
 */
export async function refreshSearchDocuments(
  db: Kysely<Database>,
  now: Date,
  onProgress?: (source: string, done: number) => void,
): Promise<RefreshReport> {
  const report: RefreshReport = { indexed: 0, removed: 0 };
  const stamp = now.toISOString();
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
  for (const source of SOURCES) {
    const start = await watermark(db, source.name);
    let mark = start;
    let done = 0;
    const phases: Window[] = [{ fromId: start.last_id, toId: MAX_ROW_ID, updatedAfter: undefined }];
    if (start.last_id > 0) phases.push({ fromId: 0, toId: start.last_id, updatedAfter: start.last_updated });
    for (const phase of phases) {
      let window = phase;
      for (;;) {
        const rows = await source.load(db, window, BATCH);
        if (rows.length === 0) break;
        for (const row of rows) mark = advance(mark, row.id, row.updated);
        await apply(rows);
        done += rows.length;
        onProgress?.(source.name, done);
        await saveWatermark(db, source.name, mark);
        if (rows.length < BATCH) break;
        window = { ...window, fromId: Math.max(...rows.map((row) => row.id)) };
      }
    }
  }
  // Bills and companies have text keys: what changed is found by updated_at alone.
  const bills = await changedBills(db);
  await apply(bills);
  for (const ticker of await changedCompanies(db)) touchedTickers.add(ticker);
  const tickers = await tickerDocuments(db, touchedTickers);
  await apply(tickers.map((doc) => ({ id: 0, updated: '', key: doc.doc_key, document: doc })));
  onProgress?.('tickers', tickers.length);
  return report;
}

async function changedBills(db: Kysely<Database>): Promise<ChangedRow[]> {
  const mark = await watermark(db, 'bills');
  const rows = await db
    .selectFrom('bills')
    .select([
      'id',
      'title',
      'short_title',
      'policy_area',
      'latest_action_text',
      'introduced_date',
      'updated_at',
      'congress',
    ])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length === 0) return [];
  await saveWatermark(db, 'bills', {
    last_id: 0,
    last_updated: latest(
      mark.last_updated,
      rows.map((row) => row.updated_at),
    ),
  });
  return rows.map((b) => ({
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
        b.short_title ? b.title : null,
        b.policy_area,
        b.latest_action_text,
        `${b.congress}th Congress`,
        monthWords(b.introduced_date),
      ),
      refs: { bill_id: b.id },
    },
  }));
}

async function changedCompanies(db: Kysely<Database>): Promise<string[]> {
  const mark = await watermark(db, 'companies');
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'updated_at'])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length === 0) return [];
  await saveWatermark(db, 'companies', {
    last_id: 0,
    last_updated: latest(
      mark.last_updated,
      rows.map((row) => row.updated_at),
    ),
  });
  return rows.map((row) => row.ticker);
}

/** One document per traded stock: the company, its sector and industry, how often it was traded. */
async function tickerDocuments(
  db: Kysely<Database>,
  touched: ReadonlySet<string>,
): Promise<SearchDocument[]> {
  if (touched.size === 0) return [];
  const wanted = [...touched];
  const documents: SearchDocument[] = [];
  // Past a few hundred tickers one grouped scan is cheaper than many IN lists.
  const chunks = wanted.length > 400 ? [undefined] : [wanted];
  for (const chunk of chunks) {
    let query = db
      .selectFrom('trades as t')
      .leftJoin('companies as c', 'c.ticker', 't.ticker')
      .select((eb) => [
        't.ticker',
        eb.fn.countAll<number>().as('trade_count'),
        eb.fn.max('t.asset_description').as('description'),
        eb.fn.max('c.name').as('company'),
        eb.fn.max(sql<string>`coalesce(c.sector, t.sector)`).as('sector'),
        eb.fn.max(sql<string>`coalesce(c.industry, t.industry)`).as('industry'),
      ])
      .where('t.ticker', '<>', 'N/A')
      .where('t.superseded_by', 'is', null)
      .groupBy('t.ticker');
    if (chunk) query = query.where('t.ticker', 'in', chunk);
    for (const t of await query.execute()) {
      if (!touched.has(t.ticker)) continue;
      documents.push({
        doc_key: `ticker:${t.ticker}`,
        kind: 'tickers',
        ref_id: t.ticker,
        title: t.ticker,
        subtitle: t.company ?? t.description ?? '',
        body: words(t.company, t.description, t.sector, t.industry, `traded ${Number(t.trade_count)} times`),
        refs: { ticker: t.ticker },
      });
    }
  }
  return documents;
}

const SOURCES: readonly Source[] = [
  windowed({
    name: 'politicians',
    alias: 'p.',
    query: (db) =>
      db
        .selectFrom('politicians as p')
        .select([
          'p.id',
          'p.slug',
          'p.name',
          'p.party',
          'p.state',
          'p.chamber',
          'p.title',
          'p.agency',
          'p.updated_at',
        ]),
    async render(rows, db) {
      const seats =
        rows.length === 0
          ? []
          : await db
              .selectFrom('committee_memberships as m')
              .innerJoin('committees as c', 'c.id', 'm.committee_id')
              .select(['m.politician_id', 'c.name'])
              .where(
                'm.politician_id',
                'in',
                rows.map((row) => row.id),
              )
              .execute();
      const committees = new Map<number, string[]>();
      for (const seat of seats)
        committees.set(seat.politician_id, [...(committees.get(seat.politician_id) ?? []), seat.name]);
      return rows.map((p) => ({
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
            PARTY_WORDS[p.party ?? ''],
            p.state,
            CHAMBER_WORDS[p.chamber] ?? p.chamber,
            p.title,
            p.agency,
            (committees.get(p.id) ?? []).join('; '),
          ),
          refs: { politician_id: p.id, slug: p.slug },
        },
      }));
    },
  }),
  windowed({
    name: 'trades',
    alias: 't.',
    query: (db) =>
      db
        .selectFrom('trades as t')
        .innerJoin('politicians as p', 'p.id', 't.politician_id')
        .leftJoin('companies as c', 'c.ticker', 't.ticker')
        .select([
          't.id',
          't.source',
          't.source_key',
          't.superseded_by',
          't.ticker',
          't.asset_description',
          't.asset_type',
          't.trade_type',
          't.trade_action',
          't.amount_range',
          't.transaction_date',
          't.owner',
          't.comment',
          't.option_type',
          't.sector',
          't.industry',
          't.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.party',
          'p.state',
          'p.chamber',
          'c.name as company',
        ]),
    render(rows) {
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
  }),
  windowed({
    name: 'filings',
    alias: 'f.',
    query: (db) =>
      db
        .selectFrom('filings as f')
        .leftJoin('politicians as p', 'p.id', 'f.politician_id')
        .select([
          'f.id',
          'f.source',
          'f.source_doc_id',
          'f.kind',
          'f.filer_name',
          'f.filed_date',
          'f.trade_count',
          'f.is_amendment',
          'f.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.chamber',
          'p.party',
        ]),
    render(rows) {
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
  }),
  windowed({
    name: 'insider_trades',
    alias: '',
    query: (db) =>
      db
        .selectFrom('insider_trades')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'issuer_name',
          'ticker',
          'insider_name',
          'insider_title',
          'is_director',
          'is_officer',
          'is_ten_percent_owner',
          'security',
          'transaction_date',
          'code',
          'shares',
          'updated_at',
        ]),
    render(rows) {
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
  }),
  windowed({
    name: 'whale_positions',
    alias: '',
    query: (db) =>
      db
        .selectFrom('whale_positions')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'filed_date',
          'issuer_name',
          'ticker',
          'filer_name',
          'person_type',
          'percent_of_class',
          'updated_at',
        ]),
    render(rows) {
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
  }),
  windowed({
    name: 'lobbying_filings',
    alias: '',
    query: (db) =>
      db
        .selectFrom('lobbying_filings')
        .select([
          'id',
          'filing_uuid',
          'filing_type_display',
          'filing_year',
          'registrant_name',
          'client_name',
          'client_description',
          'issues',
          'government_entities',
          'ticker',
          'amount',
          'updated_at',
        ]),
    render(rows) {
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
              'lobbying',
              r.client_description,
              jsonNames(r.issues, ['name', 'description']),
              jsonNames(r.government_entities, ['name']),
              r.amount !== null ? `$${Math.round(r.amount)}` : null,
            ).slice(0, 4_000),
            refs: { lobbying_filing_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
          },
        };
      });
    },
  }),
  windowed({
    name: 'contract_awards',
    alias: '',
    query: (db) =>
      db
        .selectFrom('contract_awards')
        .select([
          'id',
          'award_key',
          'award_id',
          'recipient_name',
          'awarding_agency',
          'awarding_sub_agency',
          'award_date',
          'description',
          'naics_description',
          'psc_description',
          'ticker',
          'amount',
          'updated_at',
        ]),
    render(rows) {
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
              'government contract award',
              r.awarding_sub_agency,
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
  }),
];

export async function fullTextSearch(
  db: Kysely<Database>,
  query: FullTextQuery,
  kinds: readonly string[],
  limit: number,
): Promise<{ id: number; score: number }[]> {
  if ((query.anyOf.length === 0 && query.allOf.length === 0) || kinds.length === 0) return [];
  const { rows } = await fullTextRanked(db, query, kinds, limit).execute(db);
  return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}

/** How many documents hold each word, each counted no further than cap + 1. */
export async function fullTextDocumentCounts(
  db: Kysely<Database>,
  terms: readonly string[],
  cap: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const term of terms) {
    const { rows } = await fullTextDocumentCount(db, term, cap).execute(db);
    counts.set(term, Number(rows[0]?.n ?? 0));
  }
  return counts;
}

export interface StoredDocument {
  id: number;
  doc_key: string;
  kind: string;
  title: string;
  subtitle: string;
  body: string;
  refs: string;
}

export async function searchDocumentsByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<StoredDocument[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('search_documents')
    .select(['id', 'doc_key', 'kind', 'title', 'subtitle', 'body', 'refs'])
    .where('id', 'in', [...ids])
    .execute();
}

const indexAvailability = new WeakMap<object, boolean>();

async function hasVectorIndex(db: Kysely<Database>): Promise<boolean> {
  const known = indexAvailability.get(db.getExecutor());
  if (known !== undefined) return known;
  let available = await vectorIndexAvailable(db);
  if (available) {
    const exists = await sql<{
      n: number;
    }>`select count(*) as n from sqlite_master where name = 'search_vec'`.execute(db);
    available = Number(exists.rows[0]?.n ?? 0) > 0;
  }
  indexAvailability.set(db.getExecutor(), available);
  return available;
}

export interface EmbeddingModelRow {
  model: string;
  provider: string;
  dimensions: number;
  state: Uint8Array | null;
  trained_on: number;
}

export async function activeEmbeddingModel(db: Kysely<Database>): Promise<EmbeddingModelRow | undefined> {
  const row = await db
    .selectFrom('search_models')
    .select(['model', 'provider', 'dimensions', 'state', 'trained_on'])
    .where('active', '=', 1)
    .executeTakeFirst();
  return row ? { ...row, dimensions: Number(row.dimensions), trained_on: Number(row.trained_on) } : undefined;
}

/**
 * Makes `model` the one whose vectors search reads: stores it, drops every other model's vectors,
 * marks every document as waiting to be embedded and (SQLite with sqlite-vec) recreates the KNN
 * index for its dimensions.
 */
export async function activateEmbeddingModel(
  db: Kysely<Database>,
  model: EmbeddingModelRow,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('search_models').set({ active: 0 }).execute();
    await trx.deleteFrom('search_models').where('model', '=', model.model).execute();
    await trx
      .insertInto('search_models')
      .values({ ...model, active: 1, created_at: now.toISOString() })
      .execute();
    await trx.deleteFrom('search_vectors').execute();
    await trx.updateTable('search_documents').set({ vector_model: null }).execute();
    // Vector seqs start again from 1, so an older model's stored assignments could look current.
    await deleteIvf(trx);
  });
  indexAvailability.delete(db.getExecutor());
  if (await vectorIndexAvailable(db)) await resetVectorIndex(db, model.dimensions);
}

export async function countSearchDocuments(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('search_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Distinct document texts, every n-th document up to about `limit` (the LSA training corpus). */
export async function sampleSearchTexts(db: Kysely<Database>, limit: number): Promise<string[]> {
  const total = await countSearchDocuments(db);
  const step = Math.max(1, Math.ceil(total / limit));
  const rows = await db
    .selectFrom('search_documents')
    .select(['title', 'body'])
    .where(sql<boolean>`id % ${step} = 0`)
    .orderBy('id')
    .execute();
  return [...new Set(rows.map((row) => `${row.title} ${row.body}`))];
}

export async function documentsWithoutVector(
  db: Kysely<Database>,
  model: string,
  limit: number,
): Promise<{ id: number; kind: string; title: string; body: string }[]> {
  return db
    .selectFrom('search_documents')
    .select(['id', 'kind', 'title', 'body'])
    .where((eb) => eb.or([eb('vector_model', 'is', null), eb('vector_model', '<>', model)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function countDocumentsWithoutVector(db: Kysely<Database>, model: string): Promise<number> {
  const row = await db
    .selectFrom('search_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('vector_model', 'is', null), eb('vector_model', '<>', model)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores unit vectors for documents (replacing older ones) and marks them embedded by `model`. */
export async function storeVectors(
  db: Kysely<Database>,
  model: string,
  rows: readonly { id: number; kind: string; vector: Float32Array }[],
): Promise<void> {
  if (rows.length === 0) return;
  const encoded = rows.map((row) => ({ ...row, bytes: encodeVector(row.vector) }));
  const ids = rows.map((row) => row.id);
  // Asked before the transaction: SQLite has one connection, which the transaction holds.
  const indexed = await hasVectorIndex(db);
  await db.transaction().execute(async (trx) => {
    const top = await trx
      .selectFrom('search_vectors')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    let seq = Number(top?.seq ?? 0);
    await trx.deleteFrom('search_vectors').where('document_id', 'in', ids).execute();
    for (let at = 0; at < encoded.length; at += 200) {
      await trx
        .insertInto('search_vectors')
        .values(
          encoded.slice(at, at + 200).map((row) => {
            seq += 1;
            return { document_id: row.id, model, kind: row.kind, vector: row.bytes, seq };
          }),
        )
        .execute();
    }
    await trx.updateTable('search_documents').set({ vector_model: model }).where('id', 'in', ids).execute();
    if (indexed)
      await writeVectorIndex<Database>(
        trx,
        encoded.map((row) => ({ ...row, vector: row.bytes })),
      );
  });
}

/**
 * Vectors written after `seq` (for a reader that keeps them in memory), oldest first, each with
 * its stored inverted-file list when one was computed from this very vector (migration 0023).
 */
export async function vectorsSince(
  db: Kysely<Database>,
  model: string,
  seq: number,
  limit: number,
): Promise<{ document_id: number; kind: string; vector: Float32Array; seq: number; list: number | null }[]> {
  const rows = await db
    .selectFrom('search_vectors as v')
    .leftJoin('search_ivf_assignments as a', (join) =>
      join
        .onRef('a.model', '=', 'v.model')
        .onRef('a.document_id', '=', 'v.document_id')
        .onRef('a.seq', '=', 'v.seq'),
    )
    .select(['v.document_id', 'v.kind', 'v.vector', 'v.seq', 'a.list'])
    .where('v.model', '=', model)
    .where('v.seq', '>', seq)
    .orderBy('v.seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    document_id: Number(row.document_id),
    kind: row.kind,
    vector: decodeVector(row.vector),
    seq: Number(row.seq),
    list: row.list === null ? null : Number(row.list),
  }));
}

/** Drops every stored inverted-file index (search-ivf.ts): a new embedding model makes them stale. */
export async function deleteIvf(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('search_ivf_assignments').execute();
  await db.deleteFrom('search_ivf_centroids').execute();
  await db.deleteFrom('search_ivf').execute();
}

/**
 * The k nearest documents of each kind through the database's KNN index, or null when the
 * database has none (PostgreSQL without pgvector): the caller then scans exactly in memory.
 */
export async function nearestVectors(
  db: Kysely<Database>,
  query: Float32Array,
  kinds: readonly string[],
  k: number,
): Promise<{ id: number; similarity: number }[] | null> {
  if (!(await hasVectorIndex(db))) return null;
  const bytes = encodeVector(query);
  const found: { id: number; similarity: number }[] = [];
  for (const kind of kinds) {
    const { rows } = await nearestInVectorIndex(bytes, kind, k).execute(db);
    for (const row of rows) found.push({ id: Number(row.id), similarity: 1 - Number(row.distance) });
  }
  return found.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

export function encodeVector(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

export function decodeVector(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** Whether search_documents is on this dialect's full-text engine (always, after 0016-search). */
export function fullTextEngine(db: Kysely<Database>): 'sqlite-fts5' | 'postgresql-tsvector' {
  return isSqlite(db as Kysely<unknown>) ? 'sqlite-fts5' : 'postgresql-tsvector';
}
