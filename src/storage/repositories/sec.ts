// SEC EDGAR filings, insider transaction lines and 13D/G positions: writes keyed on accession
// number (+ line) so that a re-ingest updates rows in place, and the list queries behind
// /insiders/trades and /whales. Members' trades overlapping an insider transaction are read here too.
import { type Kysely, sql } from 'kysely';
import { containsInsensitive } from '../dialect.js';
import { inListOrder, type ListOrder } from '../list-order.js';
import type { InsiderTradesTable, SecFilingsTable, WhalePositionsTable } from '../schema/records.js';
import type { Database } from '../schema.js';

export type SecFilingWrite = Omit<SecFilingsTable, 'id' | 'attempts' | 'created_at' | 'updated_at'>;
export type SecFilingRow = Omit<SecFilingsTable, 'id' | 'attempts'> & { id: number; attempts: number };
export type InsiderTradeWrite = Omit<
  InsiderTradesTable,
  'id' | 'sec_filing_id' | 'created_at' | 'updated_at'
>;
export type InsiderTradeRecord = Omit<InsiderTradesTable, 'id'> & { id: number };
export type WhalePositionWrite = Omit<
  WhalePositionsTable,
  'id' | 'sec_filing_id' | 'created_at' | 'updated_at'
>;
export type WhalePositionRecord = Omit<WhalePositionsTable, 'id'> & { id: number };

/** Insert or update a filing by accession number; returns its id. */
export async function saveSecFiling(
  db: Kysely<Database>,
  filing: SecFilingWrite,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('sec_filings')
    .values({ ...filing, created_at: now, updated_at: now })
    .onConflict((conflict) =>
      conflict.column('accession_number').doUpdateSet({
        form: filing.form,
        filed_date: filing.filed_date,
        period_of_report: filing.period_of_report,
        issuer_cik: filing.issuer_cik,
        issuer_name: filing.issuer_name,
        status: filing.status,
        reason: filing.reason,
        url: filing.url,
        content_hash: filing.content_hash,
        updated_at: now,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Lists a filing seen in an index without overwriting what a previous run stored. */
export async function listSecFiling(
  db: Kysely<Database>,
  filing: SecFilingWrite,
  now: string,
): Promise<void> {
  await db
    .insertInto('sec_filings')
    .values({ ...filing, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column('accession_number').doNothing())
    .execute();
}

export async function findSecFiling(
  db: Kysely<Database>,
  accessionNumber: string,
): Promise<SecFilingRow | undefined> {
  return (await db
    .selectFrom('sec_filings')
    .selectAll()
    .where('accession_number', '=', accessionNumber)
    .executeTakeFirst()) as SecFilingRow | undefined;
}

/** The accession numbers of these that are listed already. */
export async function knownSecAccessions(
  db: Kysely<Database>,
  accessionNumbers: readonly string[],
): Promise<Set<string>> {
  const known = new Set<string>();
  for (let at = 0; at < accessionNumbers.length; at += 500) {
    const rows = await db
      .selectFrom('sec_filings')
      .select('accession_number')
      .where('accession_number', 'in', accessionNumbers.slice(at, at + 500))
      .execute();
    for (const row of rows) known.add(row.accession_number);
  }
  return known;
}

/** Filings still to fetch (listed, or failed fewer than `maxAttempts` times), oldest first. */
export async function pendingSecFilings(db: Kysely<Database>, maxAttempts: number): Promise<SecFilingRow[]> {
  return (await db
    .selectFrom('sec_filings')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('status', '=', 'listed'),
        eb.and([eb('status', '=', 'failed'), eb('attempts', '<', maxAttempts)]),
      ]),
    )
    .orderBy('filed_date')
    .orderBy('id')
    .execute()) as SecFilingRow[];
}

/**
 * A fetch that stored no lines: `failed` counts an attempt (retried until the source's limit), and
 * `unsupported` is a document that is another's byte for byte, never read again (the reason says
 * whose).
 */
export async function closeSecFetch(
  db: Kysely<Database>,
  accessionNumber: string,
  status: 'failed' | 'unsupported',
  reason: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('sec_filings')
    .set((eb) => ({
      status,
      reason,
      updated_at: now,
      ...(status === 'failed' ? { attempts: eb('attempts', '+', 1) } : {}),
    }))
    .where('accession_number', '=', accessionNumber)
    .execute();
}

export async function countSecFilings(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('sec_filings')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

/** Upserts lines on (accession number, line); returns the ids of the lines that are new. */
export async function saveInsiderTrades(
  db: Kysely<Database>,
  filingId: number,
  rows: readonly InsiderTradeWrite[],
  now: string,
): Promise<number[]> {
  return upsertLines(db, 'insider_trades', filingId, rows, now);
}

/** Upserts reporting persons on (accession number, line); returns the ids of the new ones. */
export async function saveWhalePositions(
  db: Kysely<Database>,
  filingId: number,
  rows: readonly WhalePositionWrite[],
  now: string,
): Promise<number[]> {
  return upsertLines(db, 'whale_positions', filingId, rows, now);
}

/** The SEC tables whose rows are lines of a filing, unique on (accession_number, line). */
type LineTable = 'insider_trades' | 'whale_positions';
type LineWrite<T extends LineTable> = Omit<Database[T], 'id' | 'sec_filing_id' | 'created_at' | 'updated_at'>;

/**
 * One upsert for every line table: `on conflict (accession_number, line) do update` (the unique
 * constraint of migration 0008, the same clause on SQLite and PostgreSQL). The lines that already
 * existed are read first, in one query, so that the caller learns which ids are new.
 */
async function upsertLines<T extends LineTable>(
  db: Kysely<Database>,
  table: T,
  filingId: number,
  rows: readonly LineWrite<T>[],
  now: string,
): Promise<number[]> {
  if (rows.length === 0) return [];
  // Kysely types a query on the union of both tables, where the shared columns (and rows of
  // either shape) fit; on the generic `T` it cannot resolve the columns.
  const lines: LineTable = table;
  const accessionNumbers = [...new Set(rows.map((row) => row.accession_number))];
  const existing = await db
    .selectFrom(lines)
    .select('id')
    .where('accession_number', 'in', accessionNumbers)
    .execute();
  const known = new Set(existing.map((row) => row.id));
  const created: number[] = [];
  for (const row of rows) {
    const inserted = await db
      .insertInto(lines)
      .values({ ...row, sec_filing_id: filingId, created_at: now, updated_at: now })
      .onConflict((conflict) =>
        conflict
          .columns(['accession_number', 'line'])
          .doUpdateSet({ ...row, sec_filing_id: filingId, updated_at: now }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!known.has(inserted.id)) created.push(inserted.id);
  }
  return created;
}

// ---- Insider trade lists ----------------------------------------------------------------------

export const INSIDER_SORT_COLUMNS = [
  'transaction_date',
  'filed_date',
  'total_value',
  'shares',
  'id',
] as const;
export type InsiderSortColumn = (typeof INSIDER_SORT_COLUMNS)[number];

export interface InsiderTradeFilter {
  ticker?: string;
  /** Issuer or reporting owner CIK, without leading zeros. */
  cik?: string;
  insiderName?: string;
  codes?: readonly string[];
  dateFrom?: string;
  dateTo?: string;
  minValue?: number;
  hasPoliticianOverlap?: boolean;
  ids?: readonly number[];
}

/** CIKs are stored as filed (zero-padded to 10 digits). */
function paddedCik(cik: string): string {
  return cik.replace(/^0+/, '').padStart(10, '0');
}

export async function findInsiderTrades(
  db: Kysely<Database>,
  filter: InsiderTradeFilter,
  order: ListOrder<InsiderSortColumn>,
): Promise<InsiderTradeRecord[]> {
  const query = filteredInsiderTrades(db, filter).selectAll('it');
  const rows = await inListOrder(query, `it.${order.column}`, 'it.id', order).execute();
  return rows as InsiderTradeRecord[];
}

/** The insider lines (`it`) the filter keeps, nothing selected yet. */
export function filteredInsiderTrades(db: Kysely<Database>, filter: InsiderTradeFilter) {
  let query = db.selectFrom('insider_trades as it');
  if (filter.ids) query = query.where('it.id', 'in', filter.ids.length > 0 ? [...filter.ids] : [-1]);
  if (filter.ticker) query = query.where('it.ticker', '=', filter.ticker.toUpperCase());
  if (filter.cik) {
    const cik = paddedCik(filter.cik);
    query = query.where((eb) => eb.or([eb('it.issuer_cik', '=', cik), eb('it.insider_cik', '=', cik)]));
  }
  if (filter.insiderName) query = query.where(containsInsensitive('it.insider_name', filter.insiderName));
  if (filter.codes && filter.codes.length > 0) query = query.where('it.code', 'in', [...filter.codes]);
  if (filter.dateFrom) query = query.where('it.transaction_date', '>=', filter.dateFrom);
  if (filter.dateTo) query = query.where('it.transaction_date', '<=', filter.dateTo);
  if (filter.minValue !== undefined) query = query.where('it.total_value', '>=', filter.minValue);
  if (filter.hasPoliticianOverlap !== undefined) {
    const wanted = filter.hasPoliticianOverlap;
    query = query.where((eb) => {
      const exists = eb.exists(
        eb
          .selectFrom('trades as t')
          .select(sql<number>`1`.as('one'))
          .whereRef('t.ticker', '=', 'it.ticker')
          .whereRef('t.transaction_date', '>=', 'it.overlap_from')
          .whereRef('t.transaction_date', '<=', 'it.overlap_to')
          .where('t.superseded_by', 'is', null),
      );
      return wanted ? exists : eb.not(exists);
    });
  }
  return query;
}

/** A member's trade near an insider's transaction (the resource's politician_trades rows). */
export interface MemberTradeOverlap {
  id: number;
  politician_slug: string;
  politician_name: string;
  trade_type: string;
  transaction_date: string;
  disclosure_date: string | null;
  days_apart: number;
}

/**
 * Members' trades of the same ticker inside each insider row's window, keyed by insider row id.
 * One query for the page: every trade of the page's tickers between the earliest and latest bound.
 */
export async function overlappingMemberTrades(
  db: Kysely<Database>,
  rows: readonly InsiderTradeRecord[],
): Promise<Map<number, MemberTradeOverlap[]>> {
  const result = new Map<number, MemberTradeOverlap[]>();
  const windowed = rows.filter(
    (row) => row.ticker && row.overlap_from && row.overlap_to && row.transaction_date,
  );
  if (windowed.length === 0) return result;
  const tickers = [...new Set(windowed.map((row) => row.ticker ?? ''))];
  const from = windowed.map((row) => row.overlap_from ?? '').sort()[0] ?? '';
  const to =
    windowed
      .map((row) => row.overlap_to ?? '')
      .sort()
      .at(-1) ?? '';
  const trades = await db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select([
      't.id',
      't.ticker',
      'p.slug as politician_slug',
      'p.name as politician_name',
      't.trade_type',
      't.transaction_date',
      't.disclosure_date',
    ])
    .where('t.ticker', 'in', tickers)
    .where('t.transaction_date', '>=', from)
    .where('t.transaction_date', '<=', to)
    .where('t.superseded_by', 'is', null)
    .orderBy('t.transaction_date')
    .orderBy('t.id')
    .execute();
  for (const row of windowed) {
    const matches = trades
      .filter(
        (trade) =>
          trade.ticker === row.ticker &&
          trade.transaction_date >= (row.overlap_from ?? '') &&
          trade.transaction_date <= (row.overlap_to ?? ''),
      )
      .map((trade) => ({
        id: trade.id,
        politician_slug: trade.politician_slug,
        politician_name: trade.politician_name,
        trade_type: trade.trade_type,
        transaction_date: trade.transaction_date,
        disclosure_date: trade.disclosure_date,
        days_apart: dayNumber(trade.transaction_date) - dayNumber(row.transaction_date ?? ''),
      }));
    if (matches.length > 0) result.set(row.id, matches);
  }
  return result;
}

function dayNumber(isoDate: string): number {
  return Math.round(Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000);
}

// ---- Whale lists ------------------------------------------------------------------------------

export const WHALE_SORT_COLUMNS = [
  'filed_date',
  'event_date',
  'percent_of_class',
  'aggregate_amount',
  'id',
] as const;
export type WhaleSortColumn = (typeof WHALE_SORT_COLUMNS)[number];

export interface WhaleFilter {
  ticker?: string;
  /** Any reporting person's name contains this. */
  filer?: string;
  forms?: readonly string[];
  minPercent?: number;
  dateFrom?: string;
  dateTo?: string;
  ids?: readonly number[];
}

/** Lead rows (one per statement). */
export async function findWhales(
  db: Kysely<Database>,
  filter: WhaleFilter,
  order: ListOrder<WhaleSortColumn>,
): Promise<WhalePositionRecord[]> {
  let query = db.selectFrom('whale_positions as w').selectAll('w').where('w.is_lead', '=', 1);
  if (filter.ids) query = query.where('w.id', 'in', filter.ids.length > 0 ? [...filter.ids] : [-1]);
  if (filter.ticker) query = query.where('w.ticker', '=', filter.ticker.toUpperCase());
  if (filter.forms && filter.forms.length > 0) query = query.where('w.form', 'in', [...filter.forms]);
  if (filter.minPercent !== undefined) query = query.where('w.percent_of_class', '>=', filter.minPercent);
  if (filter.dateFrom) query = query.where('w.filed_date', '>=', filter.dateFrom);
  if (filter.dateTo) query = query.where('w.filed_date', '<=', filter.dateTo);
  if (filter.filer) {
    const filer = filter.filer;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('whale_positions as person')
          .select(sql<number>`1`.as('one'))
          .whereRef('person.accession_number', '=', 'w.accession_number')
          .where(containsInsensitive('person.filer_name', filer)),
      ),
    );
  }
  const rows = await inListOrder(query, `w.${order.column}`, 'w.id', order).execute();
  return rows as WhalePositionRecord[];
}

/** Every reporting person of these statements, in line order, keyed by accession number. */
export async function personsOfStatements(
  db: Kysely<Database>,
  accessionNumbers: readonly string[],
): Promise<Map<string, WhalePositionRecord[]>> {
  const result = new Map<string, WhalePositionRecord[]>();
  if (accessionNumbers.length === 0) return result;
  const rows = (await db
    .selectFrom('whale_positions')
    .selectAll()
    .where('accession_number', 'in', [...accessionNumbers])
    .orderBy('accession_number')
    .orderBy('line')
    .execute()) as WhalePositionRecord[];
  for (const row of rows)
    result.set(row.accession_number, [...(result.get(row.accession_number) ?? []), row]);
  return result;
}

/** Companies of the directory that have a CIK (for CIK → ticker links). */
export async function directoryCiks(
  db: Kysely<Database>,
): Promise<{ ticker: string; cik: string; name: string | null }[]> {
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'cik', 'name'])
    .where('cik', 'is not', null)
    .orderBy('ticker')
    .execute();
  return rows.flatMap((row) => (row.cik ? [{ ticker: row.ticker, cik: row.cik, name: row.name }] : []));
}

/** The lead rows (one per statement) of a 13D/G filing. */
export async function whaleLeadIds(db: Kysely<Database>, accessionNumber: string): Promise<number[]> {
  const rows = await db
    .selectFrom('whale_positions')
    .select('id')
    .where('accession_number', '=', accessionNumber)
    .where('is_lead', '=', 1)
    .execute();
  return rows.map((row) => row.id);
}
