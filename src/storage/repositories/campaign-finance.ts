// FEC campaign finance: candidates, committees, linkages, PAC-to-candidate contributions,
// individual contributions summed by employer, and candidate cycle totals. Reads join them to
// members through congress-legislators' FEC ids and to companies through the identity table.
import { type Kysely, sql } from 'kysely';
import { chunk } from '../batch.js';
import { type SyncCounts, syncKeyedRows } from '../keyed-rows.js';
import type {
  FecCandidatesTable,
  FecCandidateTotalsTable,
  FecCommitteeContributionsTable,
  FecCommitteesTable,
  FecEmployerTotalsTable,
  FecLinkagesTable,
} from '../schema/legislation.js';
import type { Database } from '../schema.js';

/**
 * The rows the FEC bulk import writes, by kind: one table's row each, except a PAC contribution,
 * whose write time is the stamp it is saved with.
 */
export interface FecRows {
  candidates: FecCandidatesTable;
  committees: FecCommitteesTable;
  linkages: FecLinkagesTable;
  totals: FecCandidateTotalsTable;
  contributions: Omit<FecCommitteeContributionsTable, 'updated_at'>;
  sums: FecEmployerTotalsTable;
}

const T = 'text' as const;
const I = 'integer' as const;
const F = 'double precision' as const;

export function saveFecCandidates(
  db: Kysely<Database>,
  rows: readonly FecRows['candidates'][],
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'fec_candidates',
    'id',
    {
      name: T,
      party: T,
      election_year: I,
      office_state: T,
      office: T,
      district: T,
      incumbent_challenger: T,
      status: T,
      principal_committee_id: T,
    },
    rows,
  );
}

export function saveFecCommittees(
  db: Kysely<Database>,
  rows: readonly FecRows['committees'][],
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'fec_committees',
    'id',
    {
      name: T,
      designation: T,
      type: T,
      party: T,
      connected_org_name: T,
      connected_org_key: T,
      candidate_id: T,
    },
    rows,
  );
}

export function saveFecLinkages(
  db: Kysely<Database>,
  rows: readonly FecRows['linkages'][],
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'fec_linkages',
    'id',
    {
      candidate_id: T,
      candidate_election_year: I,
      cycle: I,
      committee_id: T,
      committee_type: T,
      designation: T,
    },
    rows,
  );
}

/** Stores PAC contributions; a row inserted or changed gets `stamp` as its write time (updated_at). */
export function saveFecCommitteeContributions(
  db: Kysely<Database>,
  rows: readonly FecRows['contributions'][],
  stamp: string,
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'fec_committee_contributions',
    'id',
    {
      committee_id: T,
      candidate_id: T,
      recipient_committee_id: T,
      transaction_type: T,
      entity_type: T,
      name: T,
      contribution_date: T,
      cycle: I,
      amount: F,
      memo: I,
    },
    rows,
    { column: 'updated_at', value: stamp },
  );
}

export function saveFecCandidateTotals(
  db: Kysely<Database>,
  rows: readonly FecRows['totals'][],
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'fec_candidate_totals',
    'id',
    {
      candidate_id: T,
      cycle: I,
      name: T,
      party: T,
      receipts: F,
      disbursements: F,
      cash_on_hand: F,
      debts: F,
      individual_contributions: F,
      pac_contributions: F,
      party_contributions: F,
      candidate_contributions: F,
      coverage_end_date: T,
    },
    rows,
  );
}

/** Replaces the employer sums one contributions file gave: a sum it no longer gives is removed. */
export async function saveEmployerTotals(
  db: Kysely<Database>,
  origin: string,
  rows: readonly FecRows['sums'][],
): Promise<SyncCounts & { removed: number }> {
  const counts = await syncKeyedRows(
    db,
    'fec_employer_totals',
    'id',
    {
      origin: T,
      committee_id: T,
      cycle: I,
      employer_key: T,
      employer_name: T,
      amount: F,
      contributions: I,
    },
    rows,
  );
  const keep = new Set(rows.map((row) => row.id));
  const stale = (
    await db.selectFrom('fec_employer_totals').select('id').where('origin', '=', origin).execute()
  )
    .map((row) => row.id)
    .filter((id) => !keep.has(id));
  for (const ids of chunk(stale, 500))
    await db.deleteFrom('fec_employer_totals').where('id', 'in', ids).execute();
  return { ...counts, removed: stale.length };
}

/** FEC candidate ids of a member (congress-legislators `id.fec`). */
export async function candidateIdsOf(db: Kysely<Database>, bioguideId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('politician_fec_ids')
    .select('fec_id')
    .where('bioguide_id', '=', bioguideId)
    .execute();
  return rows.map((row) => row.fec_id);
}

export async function candidatesByIds(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('fec_candidates').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

export async function cycleTotals(db: Kysely<Database>, candidateIds: readonly string[], cycle?: number) {
  if (candidateIds.length === 0) return [];
  let query = db.selectFrom('fec_candidate_totals').selectAll().where('candidate_id', 'in', candidateIds);
  if (cycle !== undefined) query = query.where('cycle', '=', cycle);
  return query.orderBy('cycle', 'desc').orderBy('candidate_id').execute();
}

/** The candidate's own committees: linkages, principal committees, and committees naming the candidate. */
export async function committeeIdsOf(
  db: Kysely<Database>,
  candidateIds: readonly string[],
): Promise<string[]> {
  if (candidateIds.length === 0) return [];
  const linked = await db
    .selectFrom('fec_linkages')
    .select('committee_id')
    .where('candidate_id', 'in', candidateIds)
    .execute();
  const principal = await db
    .selectFrom('fec_candidates')
    .select('principal_committee_id')
    .where('id', 'in', candidateIds)
    .where('principal_committee_id', 'is not', null)
    .execute();
  const named = await db
    .selectFrom('fec_committees')
    .select('id')
    .where('candidate_id', 'in', candidateIds)
    .execute();
  return [
    ...new Set([
      ...linked.map((row) => row.committee_id),
      ...principal.flatMap((row) => (row.principal_committee_id ? [row.principal_committee_id] : [])),
      ...named.map((row) => row.id),
    ]),
  ].sort();
}

/**
 * One ticker per company name. `company_links` keeps a row per match method (exact, normalized,
 * directory ...), so joining it directly repeats every contribution once per method; the most
 * confident link speaks for the name (then the lowest ticker, so the choice is stable).
 */
function nameLinks(db: Kysely<Database>) {
  return db
    .selectFrom('company_links as n')
    .select(['n.identifier_value', sql<string>`min(n.ticker)`.as('ticker')])
    .where('n.identifier_kind', '=', 'name')
    .where('n.ticker', 'is not', null)
    .where(({ eb, selectFrom }) =>
      eb(
        'n.confidence',
        '=',
        selectFrom('company_links as b')
          .select((b) => b.fn.max('b.confidence').as('top'))
          .whereRef('b.identifier_value', '=', 'n.identifier_value')
          .where('b.identifier_kind', '=', 'name')
          .where('b.ticker', 'is not', null),
      ),
    )
    .groupBy('n.identifier_value');
}

/** Individual contributions to the committees summed by employer, with the company the employer name links to. */
export async function topEmployers(
  db: Kysely<Database>,
  committeeIds: readonly string[],
  options: { cycle?: number; limit: number },
) {
  if (committeeIds.length === 0) return [];
  let query = db
    .selectFrom('fec_employer_totals as e')
    .leftJoin(nameLinks(db).as('l'), 'l.identifier_value', 'e.employer_key')
    .leftJoin('companies as c', 'c.ticker', 'l.ticker')
    .where('e.committee_id', 'in', committeeIds);
  if (options.cycle !== undefined) query = query.where('e.cycle', '=', options.cycle);
  return query
    .select([
      'e.employer_key',
      sql<string>`min(e.employer_name)`.as('employer_name'),
      sql<number>`sum(e.amount)`.as('amount'),
      sql<number>`sum(e.contributions)`.as('contributions'),
      sql<string | null>`max(l.ticker)`.as('ticker'),
      sql<string | null>`max(c.sector)`.as('sector'),
    ])
    .groupBy('e.employer_key')
    .orderBy(sql`sum(e.amount)`, 'desc')
    .orderBy('e.employer_key')
    .limit(options.limit)
    .execute();
}

/** PAC money to the candidates, by giving committee and the company behind it (its connected organization). */
export async function pacContributionsByCompany(
  db: Kysely<Database>,
  candidateIds: readonly string[],
  options: { cycle?: number; limit: number },
) {
  if (candidateIds.length === 0) return [];
  let query = db
    .selectFrom('fec_committee_contributions as x')
    .leftJoin('fec_committees as g', 'g.id', 'x.committee_id')
    .leftJoin(nameLinks(db).as('l'), 'l.identifier_value', 'g.connected_org_key')
    .where('x.candidate_id', 'in', candidateIds)
    .where('x.memo', '=', 0);
  if (options.cycle !== undefined) query = query.where('x.cycle', '=', options.cycle);
  return query
    .select([
      'x.committee_id',
      sql<string | null>`max(g.name)`.as('committee_name'),
      sql<string | null>`max(g.connected_org_name)`.as('connected_org_name'),
      sql<string | null>`max(l.ticker)`.as('ticker'),
      sql<number>`sum(x.amount)`.as('amount'),
      sql<number>`count(*)`.as('contributions'),
    ])
    .groupBy('x.committee_id')
    .orderBy(sql`sum(x.amount)`, 'desc')
    .orderBy('x.committee_id')
    .limit(options.limit)
    .execute();
}

/** A member by numeric id or slug, with the bioguide id their FEC candidacies are linked by. */
export async function financeMember(db: Kysely<Database>, idOrSlug: string) {
  const query = db.selectFrom('politicians').select(['id', 'slug', 'bioguide_id']);
  return /^\d{1,9}$/.test(idOrSlug)
    ? query.where('id', '=', Number(idOrSlug)).executeTakeFirst()
    : query.where('slug', '=', idOrSlug.toLowerCase()).executeTakeFirst();
}

/** How many FEC candidates are linked to a member (import reports). */
export async function linkedCandidateCount(db: Kysely<Database>): Promise<number> {
  const linked = await db
    .selectFrom('fec_candidates as c')
    .innerJoin('politician_fec_ids as f', 'f.fec_id', 'c.id')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(linked.n);
}

/** Candidate committees by id → their candidate (committee master, then linkages), for rows that name only the committee. */
export async function recipientCandidates(db: Kysely<Database>): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const row of await db.selectFrom('fec_linkages').select(['committee_id', 'candidate_id']).execute())
    map.set(row.committee_id, row.candidate_id);
  for (const row of await db
    .selectFrom('fec_committees')
    .select(['id', 'candidate_id'])
    .where('candidate_id', 'is not', null)
    .execute())
    if (row.candidate_id) map.set(row.id, row.candidate_id);
  return map;
}
