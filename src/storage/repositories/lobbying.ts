// Lobbying filings: idempotent upsert on the LDA filing UUID, and the filtered list and lookup the
// API serves. A re-ingest of an unchanged filing writes nothing (content_hash is equal).
import { type AliasedRawBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import {
  containsInsensitive,
  isSqlite,
  javascriptJsonNumber,
  jsonObjectsArray,
  jsonTextsArray,
} from '../dialect.js';
import { inListOrder, type ListPage } from '../list-order.js';
import type { LobbyingFilingsTable } from '../schema/records.js';
import type { Database } from '../schema.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

export type LobbyingWrite = Omit<LobbyingFilingsTable, 'id' | 'created_at' | 'updated_at'> & {
  issueCodes: readonly string[];
};
export type LobbyingRow = Omit<LobbyingFilingsTable, 'id'> & { id: number };
export type UpsertOutcome = 'new' | 'updated' | 'unchanged';

export async function upsertLobbyingFiling(
  db: Kysely<Database>,
  write: LobbyingWrite,
  now: string,
): Promise<{ id: number; outcome: UpsertOutcome }> {
  const { issueCodes, ...columns } = write;
  const existing = await db
    .selectFrom('lobbying_filings')
    .select(['id', 'content_hash'])
    .where('filing_uuid', '=', write.filing_uuid)
    .executeTakeFirst();
  if (existing?.content_hash === write.content_hash) return { id: existing.id, outcome: 'unchanged' };
  let id: number;
  if (existing) {
    await db
      .updateTable('lobbying_filings')
      .set({ ...columns, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    await db.deleteFrom('lobbying_issues').where('filing_id', '=', existing.id).execute();
    id = existing.id;
  } else {
    const inserted = await db
      .insertInto('lobbying_filings')
      .values({ ...columns, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = inserted.id;
  }
  const codes = [...new Set(issueCodes)];
  if (codes.length > 0) {
    await db
      .insertInto('lobbying_issues')
      .values(codes.map((code) => ({ filing_id: id, code })))
      .execute();
  }
  return { id, outcome: existing ? 'updated' : 'new' };
}

export async function findLobbyingFiling(db: Kysely<Database>, id: number): Promise<LobbyingRow | undefined> {
  return db.selectFrom('lobbying_filings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findLobbyingFilingByUuid(
  db: Kysely<Database>,
  filingUuid: string,
): Promise<LobbyingRow | undefined> {
  return db
    .selectFrom('lobbying_filings')
    .selectAll()
    .where('filing_uuid', '=', filingUuid.toLowerCase())
    .executeTakeFirst();
}

export interface LobbyingFilter {
  client?: string;
  registrant?: string;
  tickers?: readonly string[];
  issueCodes?: readonly string[];
  year?: number;
  period?: string;
  minAmount?: number;
}

/** By date posted (then id), filters combined with AND; a list filter is an OR of its values. */
export async function listLobbyingFilings(
  db: Kysely<Database>,
  filter: LobbyingFilter,
  page: ListPage,
): Promise<LobbyingRow[]> {
  return inListOrder(filteredFilings(db, filter).selectAll(), 'filed_date', 'id', page).execute();
}

/** The filings `filter` selects, nothing selected yet. */
function filteredFilings(db: Kysely<Database>, filter: LobbyingFilter) {
  let query = db.selectFrom('lobbying_filings');
  if (filter.client) query = query.where(containsInsensitive('client_name', filter.client));
  if (filter.registrant) query = query.where(containsInsensitive('registrant_name', filter.registrant));
  if (filter.tickers?.length) query = query.where('ticker', 'in', [...filter.tickers]);
  if (filter.issueCodes?.length) {
    const codes = [...filter.issueCodes];
    query = query.where('id', 'in', (sub) =>
      sub.selectFrom('lobbying_issues').select('filing_id').where('code', 'in', codes),
    );
  }
  if (filter.year !== undefined) query = query.where('filing_year', '=', filter.year);
  if (filter.period) query = query.where('filing_period', '=', filter.period);
  if (filter.minAmount !== undefined) query = query.where('amount', '>=', filter.minAmount);
  return query;
}

/** The fields of a filing in the JSON page, in the Lobbying resource's order. */
const LOBBYING_JSON_FIELDS = [
  'id',
  'filing_uuid',
  'filing_type',
  'filing_type_display',
  'filing_year',
  'filing_period',
  'no_activity',
  'registrant_id',
  'registrant_name',
  'client_id',
  'client_name',
  'client_description',
  'ticker',
  'ticker_match',
  'income',
  'expenses',
  'amount',
  'filed_date',
  'posted_at',
  'issues',
  'lobbyists',
  'government_entities',
  'url',
  'source',
] as const;

const JSON_VALUED = new Set(['ticker_match', 'issues', 'lobbyists', 'government_entities']);

/**
 * listLobbyingFilings' page as the text of its JSON array, each filing with the fields and values
 * of the Lobbying resource (resources/lobbying.ts `toLobbyingResource`, which the tests hold it
 * to), written by the database: no JS object per filing, issue and lobbyist, and no serializing
 * of a megabyte of text. `documentUrl` is the resource's link to a filing without a stored one,
 * split around its UUID.
 */
export async function listLobbyingFilingsJson(
  db: Kysely<Database>,
  filter: LobbyingFilter,
  page: ListPage,
  documentUrl: { before: string; after: string },
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const sqlite = isSqlite(plain);
  const fields = lobbyingJsonFields(plain, documentUrl);
  const direction = sql.raw(page.direction);
  const order = sql`r.filed_date ${direction}, r.id ${direction}`;
  // SQLite: each filing as its text, joined as the rows arrive (the page is one ordered subquery
  // read alone); PostgreSQL: each filing's row as its object, the rows sorted.
  const columns: readonly AliasedRawBuilder<unknown, string>[] = sqlite
    ? [
        sqliteFilingText(fields).as('filing'),
        sql.ref('lobbying_filings.filed_date').as('filed_date'),
        sql.ref('lobbying_filings.id').as('id'),
      ]
    : LOBBYING_JSON_FIELDS.map((field) => fields[field].as(field));
  const inner = inListOrder(
    filteredFilings(db, filter).select(columns),
    'lobbying_filings.filed_date',
    'lobbying_filings.id',
    page,
  );
  const json = sqlite
    ? jsonTextsArray(plain, sql.ref('r.filing'), order, page.limit > BYTES_PAGE_ROWS)
    : jsonObjectsArray(
        plain,
        LOBBYING_JSON_FIELDS,
        { booleans: new Set(['no_activity']), json: JSON_VALUED },
        order,
        false,
      );
  const row = await db
    .selectFrom(inner.as('r'))
    .select([json.as('json'), sql<number>`count(*)`.as('rows')])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/**
 * SQLite: one filing's JSON object as text, the stored arrays (issues, lobbyists, government
 * entities: JSON.stringify's text, as the resource writes them) joined in as they are. Nesting them
 * through json_object would make SQLite parse each again, the larger part of a 1000-filing page's
 * cost. The fields before them are one json_object with its closing brace cut off: the last of
 * them (posted_at) is text or null, never an object, so the brace cut is the object's own.
 */
function sqliteFilingText(
  fields: Record<(typeof LOBBYING_JSON_FIELDS)[number], RawBuilder<unknown>>,
): RawBuilder<string> {
  const stored = LOBBYING_JSON_FIELDS.indexOf('issues');
  const last = LOBBYING_JSON_FIELDS[stored - 1];
  if (last === undefined || JSON_VALUED.has(last))
    throw new Error(`the field before the stored arrays (${last}) must not be an object: its brace is cut`);
  const head = LOBBYING_JSON_FIELDS.slice(0, stored).map((field) => {
    const value =
      field === 'no_activity'
        ? sql`json(case when ${fields[field]} then 'true' else 'false' end)`
        : JSON_VALUED.has(field)
          ? sql`json(${fields[field]})`
          : fields[field];
    return sql`${sql.lit(field)}, ${value}`;
  });
  const rest = LOBBYING_JSON_FIELDS.slice(stored).map((field) =>
    JSON_VALUED.has(field)
      ? sql`${sql.lit(`,"${field}":`)} || ${fields[field]}`
      : sql`${sql.lit(`,"${field}":`)} || json_quote(${fields[field]})`,
  );
  return sql<string>`rtrim(json_object(${sql.join(head)}), '}') || ${sql.join(rest, sql` || `)} || '}'`;
}

/** Each field of the JSON page as SQL over `lobbying_filings`. */
function lobbyingJsonFields(
  db: Kysely<unknown>,
  documentUrl: { before: string; after: string },
): Record<(typeof LOBBYING_JSON_FIELDS)[number], RawBuilder<unknown>> {
  const column = (name: string) => sql.ref(`lobbying_filings.${name}`);
  const sqlite = isSqlite(db);
  // A stored JSON array: SQLite's text is marked as JSON where the page is built; PostgreSQL's is cast.
  const jsonColumn = (name: string) => (sqlite ? column(name) : sql`cast(${column(name)} as json)`);
  const matched = sql`${column('match_method')} is not null and ${column('match_confidence')} is not null`;
  return {
    id: column('id'),
    filing_uuid: column('filing_uuid'),
    filing_type: column('filing_type'),
    filing_type_display: column('filing_type_display'),
    filing_year: column('filing_year'),
    filing_period: column('filing_period'),
    no_activity: sql`(${column('no_activity')} = 1)`,
    registrant_id: column('registrant_id'),
    registrant_name: column('registrant_name'),
    client_id: column('client_id'),
    client_name: column('client_name'),
    client_description: column('client_description'),
    ticker: column('ticker'),
    ticker_match: sqlite
      ? sql`case when ${matched} then json_object('method', ${column('match_method')}, 'confidence', ${column('match_confidence')}) end`
      : sql`case when ${matched} then (select row_to_json(m) from (select ${column('match_method')} as method,
          ${javascriptJsonNumber(db, column('match_confidence'))} as confidence) m) end`,
    income: column('income'),
    expenses: column('expenses'),
    amount: javascriptJsonNumber(db, column('amount')),
    filed_date: column('filed_date'),
    posted_at: column('posted_at'),
    // Stored as the resource writes them: the issues as both LDA readers build them, the
    // lobbyists under the resource's keys (migration 0111; lobbyingWrite).
    issues: jsonColumn('issues'),
    lobbyists: jsonColumn('lobbyists'),
    government_entities: jsonColumn('government_entities'),
    url: sql`coalesce(${column('document_url')},
      cast(${documentUrl.before} as text) || ${column('filing_uuid')} || cast(${documentUrl.after} as text))`,
    source: column('origin'),
  };
}
