// The data-quality gate in storage: which trades count (the one predicate every statistic reads),
// the flags of a trade as it is written and again after every run (rule table: domain/quality.ts),
// the fills the filings allow (a missing disclosure date, an asset type), and the audit.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { daysBetween, todayUtc } from '../../domain/dates.js';
import {
  flagsExclude,
  type IdentityMatch,
  QUALITY_FLAGS,
  type QualityInput,
  qualityFlagsOf,
} from '../../domain/quality.js';
import { chunk, readInBatches } from '../batch.js';
import type { NewTrade } from '../schema/disclosures.js';
import type { Database } from '../schema.js';

/**
 * The trades statistics count: current (not superseded by an amendment) and without a flag that
 * makes them meaningless (domain/quality.ts, `excludes`). Member statistics, rankings, analytics
 * and the default `/trades` listing read this predicate.
 */
export function countableTrade(alias = 't'): RawBuilder<boolean> {
  const ref = (column: string) => sql.ref(alias === '' ? column : `${alias}.${column}`);
  return sql<boolean>`(${ref('superseded_by')} is null and ${ref('quality_excluded')} = 0)`;
}

/** Flags stored as text: comma-separated in the rule table's order; null when none. */
export function storedFlags(flags: readonly string[]): string | null {
  return flags.length === 0 ? null : flags.join(',');
}

export function parseStoredFlags(text: string | null | undefined): string[] {
  return text ? text.split(',').filter((flag) => flag !== '') : [];
}

interface PersonFacts {
  origin: string;
  birthday: string | null;
}

async function peopleOf(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, PersonFacts>> {
  const rows = await readInBatches([...new Set(ids)], (batch) =>
    db.selectFrom('politicians').select(['id', 'origin', 'birthday']).where('id', 'in', batch).execute(),
  );
  return new Map(rows.map((row) => [row.id, { origin: row.origin, birthday: row.birthday }]));
}

/** How a trade's person was matched when the writer did not say: a roster record or a filer of its own. */
function defaultIdentityMatch(person: PersonFacts | undefined): IdentityMatch {
  return person?.origin === 'legislators' ? 'name+term' : 'filer';
}

/**
 * New trades with their identity match and quality flags, as insertTrades writes them: a trade is
 * flagged from the moment it is stored, so its `trade.created` payload already carries the flags.
 */
export async function withQuality(
  db: Kysely<Database>,
  trades: readonly NewTrade[],
  today: string = todayUtc(new Date()),
): Promise<NewTrade[]> {
  const people = await peopleOf(
    db,
    trades.map((trade) => trade.politician_id),
  );
  return trades.map((trade) => {
    const person = people.get(trade.politician_id);
    const identityMatch = trade.identity_match ?? defaultIdentityMatch(person);
    const flags = qualityFlagsOf(
      {
        source: trade.source,
        ticker: trade.ticker,
        transaction_date: trade.transaction_date,
        disclosure_date: trade.disclosure_date ?? null,
        amount_range: trade.amount_range ?? null,
        amount_low: trade.amount_low ?? null,
        amount_high: trade.amount_high ?? null,
        asset_type: trade.asset_type ?? null,
        asset_description: trade.asset_description ?? null,
        option_type: trade.option_type ?? null,
        strike_price: trade.strike_price ?? null,
        option_expiry: trade.option_expiry ?? null,
        identity_match: identityMatch,
        politician_origin: person?.origin ?? 'legislators',
        politician_birthday: person?.birthday ?? null,
      },
      today,
    );
    return {
      ...trade,
      identity_match: identityMatch,
      quality_flags: storedFlags(flags),
      quality_excluded: flagsExclude(flags) ? 1 : 0,
    };
  });
}

export interface QualityRefresh {
  disclosureDatesFilled: number;
  assetTypesFilled: number;
  identityMatchesFilled: number;
  flagsChanged: number;
}

/**
 * The pass every import, ingest and enrichment run ends with: fills what the filing says (a
 * missing disclosure date from the filing that holds the row, when it is not before the trade; an
 * asset type for a row with a ticker: ETF when the directory says so, else Stock), then recomputes
 * every trade's flags and writes those that changed. With `changedSince` (an ingest run's start)
 * the asset types and flags are those of the trades written since only (a trade's flags rest on
 * its own row, its member and the day); the disclosure dates are filled everywhere, as a filing
 * dated later fills trades the run did not write.
 */
export async function refreshTradeQuality(
  db: Kysely<Database>,
  now: Date = new Date(),
  scope: { changedSince?: string } = {},
): Promise<QualityRefresh> {
  const today = todayUtc(now);
  const stamp = now.toISOString();
  const result: QualityRefresh = {
    disclosureDatesFilled: 0,
    assetTypesFilled: 0,
    identityMatchesFilled: 0,
    flagsChanged: 0,
  };

  const undated = await db
    .selectFrom('trades as t')
    .innerJoin('filings as f', 'f.id', 't.filing_id')
    .select(['t.id', 't.transaction_date', 'f.filed_date'])
    .where('t.disclosure_date', 'is', null)
    .where('f.filed_date', 'is not', null)
    .execute();
  for (const row of undated) {
    if (!row.filed_date || row.filed_date < row.transaction_date) continue;
    await db
      .updateTable('trades')
      .set({
        disclosure_date: row.filed_date,
        days_to_disclose: daysBetween(row.transaction_date, row.filed_date),
        updated_at: stamp,
      })
      .where('id', '=', row.id)
      .execute();
    result.disclosureDatesFilled += 1;
  }

  const untyped = await db
    .selectFrom('trades as t')
    .leftJoin('companies as c', 'c.ticker', 't.ticker')
    .select(['t.id', 'c.is_etf'])
    .where('t.asset_type', 'is', null)
    .where('t.ticker', '<>', 'N/A')
    .$if(scope.changedSince !== undefined, (query) =>
      query.where('t.updated_at', '>=', scope.changedSince ?? ''),
    )
    .execute();
  for (const group of [1, 0]) {
    const ids = untyped.filter((row) => (row.is_etf === 1 ? 1 : 0) === group).map((row) => row.id);
    for (const batch of chunk(ids, 500)) {
      await db
        .updateTable('trades')
        .set({ asset_type: group === 1 ? 'ETF' : 'Stock', updated_at: stamp })
        .where('id', 'in', batch)
        .execute();
    }
    result.assetTypesFilled += ids.length;
  }

  const rows = await db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select([
      't.id',
      't.source',
      't.ticker',
      't.transaction_date',
      't.disclosure_date',
      't.amount_range',
      't.amount_low',
      't.amount_high',
      't.asset_type',
      't.asset_description',
      't.option_type',
      't.strike_price',
      't.option_expiry',
      't.identity_match',
      't.quality_flags',
      't.quality_excluded',
      'p.origin as politician_origin',
      'p.birthday as politician_birthday',
    ])
    .$if(scope.changedSince !== undefined, (query) =>
      query.where('t.updated_at', '>=', scope.changedSince ?? ''),
    )
    .execute();
  const byChange = new Map<string, number[]>();
  for (const row of rows) {
    const identityMatch =
      row.identity_match ?? defaultIdentityMatch({ origin: row.politician_origin, birthday: null });
    const input: QualityInput = { ...row, identity_match: identityMatch };
    const flags = qualityFlagsOf(input, today);
    const text = storedFlags(flags);
    const excluded = flagsExclude(flags) ? 1 : 0;
    if (text === row.quality_flags && excluded === row.quality_excluded && row.identity_match !== null)
      continue;
    if (row.identity_match === null) result.identityMatchesFilled += 1;
    if (text !== row.quality_flags || excluded !== row.quality_excluded) result.flagsChanged += 1;
    const key = JSON.stringify([text, excluded, identityMatch]);
    // Appended in place: copying the list per row made a run quadratic in the rows that change,
    // which is every trade of a first enrichment after a large backfill.
    const ids = byChange.get(key);
    if (ids) ids.push(row.id);
    else byChange.set(key, [row.id]);
  }
  for (const [key, ids] of byChange) {
    const [text, excluded, identityMatch] = JSON.parse(key) as [string | null, number, string];
    for (const batch of chunk(ids, 500)) {
      await db
        .updateTable('trades')
        .set({
          quality_flags: text,
          quality_excluded: excluded,
          identity_match: identityMatch,
          updated_at: stamp,
        })
        .where('id', 'in', batch)
        .execute();
    }
  }
  return result;
}

export interface SourceAudit {
  source: string;
  trades: number;
  /** Trades left out of statistics by a flag. */
  excluded: number;
  flags: Record<string, number>;
  identity_match: Record<string, number>;
  /** Filers held on a record of their own because no legislator matched them by name and term. */
  unresolved_identities: { politician_id: number; name: string; slug: string; trades: number }[];
  /** Rows of this source kept as another row's alias: the same trade from two sources or sets. */
  merged_duplicates: number;
  unparsed_option_descriptions: number;
  parse_statuses: Record<string, number>;
}

export interface QualityReport {
  computed_at: string;
  trigger: string;
  totals: {
    trades: number;
    excluded: number;
    flagged: number;
    merged_duplicates: number;
    manual_links: number;
  };
  sources: SourceAudit[];
}

/** The audit: per source, trades, flags by kind, identities, merged duplicates, parse statuses. */
export async function qualityAudit(
  db: Kysely<Database>,
  trigger: string,
  now: Date = new Date(),
): Promise<QualityReport> {
  const trades = await db
    .selectFrom('trades')
    .select(['source', 'quality_flags', 'quality_excluded', 'identity_match', 'politician_id'])
    .where('superseded_by', 'is', null)
    .execute();
  const aliases = await db
    .selectFrom('trade_aliases')
    .select((eb) => ['source', eb.fn.countAll<number>().as('n')])
    .groupBy('source')
    .execute();
  const statuses = await db
    .selectFrom('filings')
    .select((eb) => ['source', 'parse_status', eb.fn.countAll<number>().as('n')])
    .groupBy(['source', 'parse_status'])
    .execute();
  const manual = await db
    .selectFrom('identity_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const sources = new Map<string, SourceAudit>();
  const audit = (source: string): SourceAudit => {
    let entry = sources.get(source);
    if (!entry) {
      entry = {
        source,
        trades: 0,
        excluded: 0,
        flags: Object.fromEntries(QUALITY_FLAGS.map((flag) => [flag, 0])),
        identity_match: {},
        unresolved_identities: [],
        merged_duplicates: 0,
        unparsed_option_descriptions: 0,
        parse_statuses: {},
      };
      sources.set(source, entry);
    }
    return entry;
  };
  const unresolved = new Map<string, Map<number, number>>();
  for (const trade of trades) {
    const entry = audit(trade.source);
    entry.trades += 1;
    entry.excluded += trade.quality_excluded;
    const match = trade.identity_match ?? 'unknown';
    entry.identity_match[match] = (entry.identity_match[match] ?? 0) + 1;
    for (const flag of parseStoredFlags(trade.quality_flags)) {
      entry.flags[flag] = (entry.flags[flag] ?? 0) + 1;
      if (flag === 'identity_unresolved') {
        const people = unresolved.get(trade.source) ?? new Map<number, number>();
        people.set(trade.politician_id, (people.get(trade.politician_id) ?? 0) + 1);
        unresolved.set(trade.source, people);
      }
    }
  }
  for (const row of aliases) audit(row.source).merged_duplicates = Number(row.n);
  for (const row of statuses) audit(row.source).parse_statuses[row.parse_status] = Number(row.n);
  for (const [source, people] of unresolved) {
    const records = await db
      .selectFrom('politicians')
      .select(['id', 'name', 'slug'])
      .where('id', 'in', [...people.keys()])
      .orderBy('name')
      .execute();
    audit(source).unresolved_identities = records.map((record) => ({
      politician_id: record.id,
      name: record.name,
      slug: record.slug,
      trades: people.get(record.id) ?? 0,
    }));
  }
  const list = [...sources.values()].sort((a, b) => a.source.localeCompare(b.source));
  for (const entry of list) entry.unparsed_option_descriptions = entry.flags.option_terms_unparsed ?? 0;
  return {
    computed_at: now.toISOString(),
    trigger,
    totals: {
      trades: trades.length,
      excluded: list.reduce((sum, entry) => sum + entry.excluded, 0),
      flagged: trades.filter((trade) => trade.quality_flags !== null).length,
      merged_duplicates: list.reduce((sum, entry) => sum + entry.merged_duplicates, 0),
      manual_links: Number(manual.n),
    },
    sources: list,
  };
}

/** Runs the quality pass and stores the audit GET /quality serves (the latest one is kept). */
export async function updateQualityReport(
  db: Kysely<Database>,
  trigger: string,
  now: Date = new Date(),
): Promise<{ refresh: QualityRefresh; report: QualityReport }> {
  const refresh = await refreshTradeQuality(db, now);
  const report = await qualityAudit(db, trigger, now);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('quality_reports').execute();
    await trx
      .insertInto('quality_reports')
      .values({ computed_at: report.computed_at, trigger, report: JSON.stringify(report) })
      .execute();
  });
  return { refresh, report };
}

/** The stored audit, or null before any run made one. */
export async function latestQualityReport(db: Kysely<Database>): Promise<QualityReport | null> {
  const row = await db
    .selectFrom('quality_reports')
    .select('report')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.report) as QualityReport) : null;
}

export interface IdentityLinkRequest {
  fromPoliticianId: number;
  toPoliticianId: number;
  /** Only this filing's trades (and the filing); null: every trade of the from record. */
  filingId: number | null;
  linkedBy: string;
  reason: string | null;
}

/**
 * An operator's fix of a match: the trades (and filings) move to the right person with
 * identity_match `manual`, and the link is recorded with who made it and when. The member totals
 * follow through their triggers; the caller recomputes both members' statistics.
 */
export async function linkIdentity(
  db: Kysely<Database>,
  request: IdentityLinkRequest,
  now: Date = new Date(),
): Promise<{ id: number; tradesMoved: number; filingsMoved: number }> {
  const stamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let trades = trx
      .updateTable('trades')
      .set({ politician_id: request.toPoliticianId, identity_match: 'manual', updated_at: stamp })
      .where('politician_id', '=', request.fromPoliticianId);
    let filings = trx
      .updateTable('filings')
      .set({ politician_id: request.toPoliticianId, updated_at: stamp })
      .where('politician_id', '=', request.fromPoliticianId);
    if (request.filingId !== null) {
      trades = trades.where('filing_id', '=', request.filingId);
      filings = filings.where('id', '=', request.filingId);
    }
    const movedTrades = await trades.executeTakeFirst();
    const movedFilings = await filings.executeTakeFirst();
    const tradesMoved = Number(movedTrades.numUpdatedRows);
    const inserted = await trx
      .insertInto('identity_links')
      .values({
        from_politician_id: request.fromPoliticianId,
        filing_id: request.filingId,
        to_politician_id: request.toPoliticianId,
        trades_moved: tradesMoved,
        linked_by: request.linkedBy,
        reason: request.reason,
        linked_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The moved trades' stored statistics are stale on both sides.
    await trx
      .deleteFrom('politician_stats')
      .where('politician_id', 'in', [request.fromPoliticianId, request.toPoliticianId])
      .execute();
    return { id: inserted.id, tradesMoved, filingsMoved: Number(movedFilings.numUpdatedRows) };
  });
}

/** Whole-record links (no filing): a later import that matches the from record means the to record. */
export async function identityRedirects(db: Kysely<Database>): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('identity_links')
    .select(['from_politician_id', 'to_politician_id'])
    .where('filing_id', 'is', null)
    .orderBy('id')
    .execute();
  return new Map(rows.map((row) => [row.from_politician_id, row.to_politician_id]));
}

export async function listIdentityLinks(db: Kysely<Database>) {
  return db
    .selectFrom('identity_links as l')
    .innerJoin('politicians as f', 'f.id', 'l.from_politician_id')
    .innerJoin('politicians as t', 't.id', 'l.to_politician_id')
    .select([
      'l.id',
      'f.slug as from_slug',
      't.slug as to_slug',
      'l.filing_id',
      'l.trades_moved',
      'l.linked_by',
      'l.reason',
      'l.linked_at',
    ])
    .orderBy('l.id')
    .execute();
}
