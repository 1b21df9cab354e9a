// `dcledger import trades <file|dir>`: loads a Stock Watcher style trade set into the database.
// Rows are identified by their report and their content plus its occurrence within the report, so
// re-importing changes nothing while two identical-looking rows of one report stay two trades.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { daysBetween, todayUtc } from '../../domain/dates.js';
import { slugify } from '../../domain/names.js';
import type { IdentityMatch } from '../../domain/quality.js';
import { CHAMBER_OF_SOURCE } from '../../domain/sources.js';
import { refreshTradeCounts, upsertFiling } from '../../storage/repositories/filings.js';
import { type QualityRefresh, updateQualityReport } from '../../storage/repositories/quality.js';
import {
  backfillDisclosureDates,
  FILLABLE_FIELDS,
  type FillableField,
  fillTrade,
  insertAlias,
  insertTrades,
  type KnownTrade,
  loadSourceIdentities,
  relabelTrade,
  rememberTrade,
  type SourceIdentities,
  twinContentKey,
} from '../../storage/repositories/trade-writes.js';
import type { NewTrade, TradeRow } from '../../storage/schema/disclosures.js';
import type { Database } from '../../storage/schema.js';
import { type FileFailure, fileFailure } from '../file-failure.js';
import { FilerResolver, identityMatchOf } from '../filers.js';
import { type NormalizedTrade, normalizeRow } from './normalize-row.js';
import { readTradeSet, type Source, type TradeSet, type TradeSetFormat, type TradeSetRow } from './read.js';

export type ImportProgress = (done: number, total: number) => void;

export interface FileReport {
  file: string;
  format: TradeSetFormat;
  rows: number;
  imported: number;
  merged: number;
  unchanged: number;
  skipped: Record<string, number>;
  filingsCreated: number;
  filingsCompleted: number;
  members: { bioguide: number; seat: number; name: number; created: string[] };
  /** Bioguide ids the set gave that named someone else (name or term disagreed): ignored. */
  rejectedHints: string[];
}

export interface ImportReport {
  files: FileReport[];
  /** Files that are malformed or hold no trade, with why: the run went on without them. */
  failed: FileFailure[];
  totals: { rows: number; imported: number; merged: number; unchanged: number; skipped: number };
  /** What the quality pass filled and flagged after the import (docs/data-quality.md). */
  quality: QualityRefresh;
}

export class ImportInputError extends Error {}

/** Lists the trade-set files behind a path: the file itself, or the .json/.csv files of a directory. */
export function tradeSetFiles(path: string): string[] {
  if (!existsSync(path)) throw new ImportInputError(`no such file or directory: ${path}`);
  if (!statSync(path).isDirectory()) return [path];
  const files = readdirSync(path)
    .filter(
      (name) => ['.json', '.csv'].includes(extname(name).toLowerCase()) && name !== 'filings_manifest.json',
    )
    .sort()
    .map((name) => join(path, name));
  if (files.length === 0) throw new ImportInputError(`no .json or .csv files in ${path}`);
  return files;
}

export async function importTradeSets(
  db: Kysely<Database>,
  path: string,
  options: { now?: Date; progress?: ImportProgress } = {},
): Promise<ImportReport> {
  const now = options.now ?? new Date();
  const files = tradeSetFiles(path);
  const reports: FileReport[] = [];
  const failed: FileFailure[] = [];
  // One transaction for the whole run: a directory of files lands completely or not at all, and
  // the roster and known identities are loaded once.
  await db.transaction().execute(async (trx) => {
    const session: ImportSession = {
      db: trx,
      now,
      stamp: now.toISOString(),
      filers: await FilerResolver.load(trx),
      filings: new Map(),
      filingDocIds: new Map(),
      touchedFilings: new Set(),
      identities: new Map(),
    };
    let done = 0;
    for (const file of files) {
      const set = readSet(file);
      if ('reason' in set) failed.push(set);
      else
        reports.push(await importFile(session, file, set, files.length === 1 ? options.progress : undefined));
      done += 1;
      if (files.length > 1) options.progress?.(done, files.length);
    }
    // A filing whose date became known in this run dates the trades that other files brought without it.
    await backfillDisclosureDates(trx, session.touchedFilings, session.stamp);
    await refreshTradeCounts(trx, session.touchedFilings);
  });
  // The quality pass and a fresh audit (GET /quality): flags, fills from the filings.
  const { refresh } = await updateQualityReport(db, 'import', now);
  const totals = { rows: 0, imported: 0, merged: 0, unchanged: 0, skipped: 0 };
  for (const report of reports) {
    totals.rows += report.rows;
    totals.imported += report.imported;
    totals.merged += report.merged;
    totals.unchanged += report.unchanged;
    totals.skipped += Object.values(report.skipped).reduce((sum, n) => sum + n, 0);
  }
  return { files: reports, failed, totals, quality: refresh };
}

/**
 * A file's trade set, or why it cannot be used (one bad file never stops the others). A well-formed
 * set with no row (the Senate's per-day files include empty lists) is imported as a file of 0 rows
 * and listed as such, not a failure.
 */
function readSet(file: string): TradeSet | FileFailure {
  const name = basename(file);
  let set: TradeSet;
  try {
    set = readTradeSet(name, readFileSync(file, 'utf8'));
  } catch (error) {
    return fileFailure(name, error);
  }
  return set;
}

interface ImportSession {
  db: Kysely<Database>;
  now: Date;
  stamp: string;
  filers: FilerResolver;
  filings: Map<string, { id: number; filedDate: string | null }>;
  /** Filing id to its source document id, for filings seen in this run. */
  filingDocIds: Map<number, string>;
  touchedFilings: Set<number>;
  identities: Map<Source, SourceIdentities>;
}

interface PreparedRow {
  row: TradeSetRow;
  trade: NormalizedTrade | null;
  filingOnly: { status: string; reason: string } | null;
  key: string | null;
  docKey: string;
}

async function importFile(
  session: ImportSession,
  file: string,
  set: TradeSet,
  progress?: ImportProgress,
): Promise<FileReport> {
  const origin = set.format;
  const report: FileReport = {
    file: basename(file),
    format: set.format,
    rows: set.rows.length,
    imported: 0,
    merged: 0,
    unchanged: 0,
    skipped: {},
    filingsCreated: 0,
    filingsCompleted: 0,
    members: { bioguide: 0, seat: 0, name: 0, created: [] },
    rejectedHints: [],
  };
  const skip = (reason: string) => {
    report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
  };
  const prepared = prepareRows(set.rows, todayUtc(session.now), skip, readManifest(file));
  const { db: trx, stamp } = session;
  const pending: NewTrade[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const ids = await insertTrades(trx, pending);
    // New rows become known identities for the rest of this run (later files may repeat them).
    pending.forEach((trade, position) => {
      const id = ids[position];
      const known = session.identities.get(trade.source as Source);
      if (id !== undefined && known) rememberTrade(known, id, trade, session.filingDocIds);
    });
    pending.length = 0;
  };

  let index = 0;
  for (const item of prepared) {
    index += 1;
    if (progress && index % 250 === 0) progress(index, prepared.length);
    const { row } = item;
    const member = await resolveMember(trx, session.filers, row, item, report, stamp);
    const memberId = member.id;
    const filing = row.docId
      ? await resolveFiling(trx, session.filings, row, item, memberId, report, stamp)
      : null;
    if (filing && row.docId) {
      session.touchedFilings.add(filing.id);
      session.filingDocIds.set(filing.id, row.docId);
    }
    if (!item.trade || !item.key) continue;

    const trade = item.trade;
    const disclosureDate =
      trade.disclosureDate ?? filingDateFor(trade.transactionDate, filing?.filedDate ?? null);
    let known = session.identities.get(row.source);
    if (!known) {
      known = await loadSourceIdentities(trx, row.source);
      session.identities.set(row.source, known);
    }
    const existing = known.byKey.get(item.key);
    if (existing) {
      const changed = await completeTrade(trx, existing, trade, disclosureDate, filing?.id ?? null, stamp);
      if (changed) report.merged += 1;
      else report.unchanged += 1;
      continue;
    }
    const twin = findTwin(known, origin, memberId, trade, row.docId, disclosureDate);
    if (twin) {
      await insertAlias(trx, { source: row.source, sourceKey: item.key, tradeId: twin.id, origin });
      known.byKey.set(item.key, twin);
      known.claims.get(twin.id)?.add(origin);
      await completeTrade(trx, twin, trade, disclosureDate, filing?.id ?? null, stamp);
      await labelFromWording(trx, twin, trade, stamp);
      report.merged += 1;
      continue;
    }
    pending.push({
      ...newTrade(row.source, item.key, origin, memberId, filing?.id ?? null, trade, disclosureDate, stamp),
      identity_match: member.identityMatch,
    });
    report.imported += 1;
    if (pending.length >= 500) await flush();
  }
  await flush();
  progress?.(prepared.length, prepared.length);
  return report;
}

function prepareRows(
  rows: readonly TradeSetRow[],
  today: string,
  skip: (reason: string) => void,
  manifest: Map<string, number> | null,
): PreparedRow[] {
  const occurrences = new Map<string, number>();
  const perDoc = new Map<string, number>();
  for (const row of rows) if (row.docId) perDoc.set(row.docId, (perDoc.get(row.docId) ?? 0) + 1);
  const excess = new Map<string, number>();
  if (manifest) {
    for (const [docId, count] of perDoc) {
      const expected = manifest.get(docId);
      if (expected !== undefined && count > expected) excess.set(docId, count - expected);
    }
  }

  const prepared: PreparedRow[] = [];
  for (const row of rows) {
    const outcome = normalizeRow(row, today);
    const docKey = row.docId ?? `${slugify(row.filerName)}@${row.filedDate ?? 'undated'}`;
    if (outcome.kind === 'skip') {
      skip(outcome.reason);
      continue;
    }
    if (outcome.kind === 'filing-only') {
      if (row.docId) prepared.push({ row, trade: null, filingOnly: outcome, key: null, docKey });
      else skip(outcome.reason);
      continue;
    }
    const contentKey = `${docKey}#${outcome.trade.contentDigest}`;
    const occurrence = occurrences.get(contentKey) ?? 0;
    occurrences.set(contentKey, occurrence + 1);
    const surplus = row.docId ? (excess.get(row.docId) ?? 0) : 0;
    if (occurrence > 0 && surplus > 0 && row.docId) {
      // The data set's manifest lists fewer trades for this filing than it has rows: the extra
      // identical rows are re-emitted copies, not trades.
      excess.set(row.docId, surplus - 1);
      skip('duplicate row re-emitted by the data set (more rows than its manifest lists)');
      continue;
    }
    prepared.push({
      row,
      trade: outcome.trade,
      filingOnly: null,
      key: `${contentKey}#${occurrence}`,
      docKey,
    });
  }
  return prepared;
}

/** Trade sets may ship a `filings_manifest.json` (DocID -> { trades }) beside them. */
function readManifest(file: string): Map<string, number> | null {
  const path = join(dirname(file), 'filings_manifest.json');
  if (!existsSync(path) || basename(file) === 'filings_manifest.json') return null;
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { trades?: unknown }>;
    const manifest = new Map<string, number>();
    for (const [docId, entry] of Object.entries(data)) {
      if (typeof entry?.trades === 'number') manifest.set(docId, entry.trades);
    }
    return manifest;
  } catch {
    return null;
  }
}

async function resolveMember(
  db: Kysely<Database>,
  filers: FilerResolver,
  row: TradeSetRow,
  item: PreparedRow,
  report: FileReport,
  stamp: string,
): Promise<{ id: number; identityMatch: IdentityMatch }> {
  const resolved = await filers.resolve(
    db,
    {
      name: row.filerName,
      chamber: CHAMBER_OF_SOURCE[row.source],
      bioguideId: row.bioguideId,
      seat: row.district,
      date: item.trade?.disclosureDate ?? item.trade?.transactionDate ?? toIsoOrNull(row.filedDate ?? ''),
    },
    { origin: `import:${report.format}` },
    stamp,
  );
  const result = { id: resolved.id, identityMatch: identityMatchOf(resolved.by) };
  if (!resolved.first) return result;
  if (resolved.hintRejected) report.rejectedHints.push(`${row.filerName}: ${resolved.hintRejected}`);
  if (resolved.by === 'created') report.members.created.push(resolved.name);
  else if (resolved.by !== 'manual') report.members[resolved.by] += 1;
  return result;
}

async function resolveFiling(
  db: Kysely<Database>,
  cache: Map<string, { id: number; filedDate: string | null }>,
  row: TradeSetRow,
  item: PreparedRow,
  memberId: number,
  report: FileReport,
  stamp: string,
): Promise<{ id: number; filedDate: string | null }> {
  const docId = row.docId as string;
  const cacheKey = `${row.source}:${docId}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const filedDate = item.trade?.disclosureDate ?? (row.filedDate ? toIsoOrNull(row.filedDate) : null);
  const { filing, created, updated } = await upsertFiling(
    db,
    {
      source: row.source,
      sourceDocId: docId,
      kind: row.reportKind,
      politicianId: memberId,
      filerName: row.filerName,
      filedDate,
      url: row.reportUrl,
      isPaper: row.isPaper,
      parseStatus: item.filingOnly ? item.filingOnly.status : 'imported',
      parseReason: item.filingOnly ? item.filingOnly.reason : `rows from the ${report.format} data set`,
    },
    stamp,
  );
  if (created) report.filingsCreated += 1;
  if (updated) report.filingsCompleted += 1;
  const entry = { id: filing.id, filedDate: filing.filed_date };
  cache.set(cacheKey, entry);
  return entry;
}

/** A filing's date dates a trade only when it is not before the transaction (typos in the source). */
export function filingDateFor(transactionDate: string, filedDate: string | null): string | null {
  return filedDate !== null && filedDate >= transactionDate ? filedDate : null;
}

function toIsoOrNull(text: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (match) return `${match[3]}-${(match[1] ?? '').padStart(2, '0')}-${(match[2] ?? '').padStart(2, '0')}`;
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
}

/** A trade of another origin that is the same disclosed transaction (same member, report, content). */
function findTwin(
  known: SourceIdentities,
  origin: string,
  memberId: number,
  trade: NormalizedTrade,
  docId: string | null,
  disclosureDate: string | null,
): KnownTrade | null {
  for (const action of twinActions(trade)) {
    const content = twinContentKey(memberId, trade.transactionDate, trade.ticker, action, trade.amountLow);
    for (const candidate of known.byContent.get(content) ?? []) {
      if (candidate.origin === origin || known.claims.get(candidate.id)?.has(origin)) continue;
      if (trade.owner && candidate.owner && trade.owner !== candidate.owner) continue;
      const sameReport =
        docId && candidate.filing_doc_id
          ? docId === candidate.filing_doc_id
          : disclosureDate !== null && disclosureDate === candidate.disclosure_date;
      if (sameReport) return candidate;
    }
  }
  return null;
}

/**
 * The actions a row's twin may be stored under, the row's own first. The wording ("Exercised 50
 * call options ...") relabels a Purchase or Sale, and one set may keep that wording where another
 * cut the description to the company's name: the row with the wording pairs with a twin under the
 * form's action, the row without it with a twin the wording relabelled.
 */
function twinActions(trade: NormalizedTrade): string[] {
  if (trade.tradeAction !== trade.filedAction) return [trade.tradeAction, trade.filedAction];
  if (trade.tradeAction === 'buy' || trade.tradeAction === 'sell')
    return [trade.tradeAction, ...WORDING_ACTIONS];
  return [trade.tradeAction];
}

/** The actions only a filing's wording gives (domain/trade-type.ts, tradeKindFromWording). */
const WORDING_ACTIONS = ['exercise', 'expired'];

/**
 * A twin stored under the form's action takes the label this row's wording gives (the set that
 * cut the wording could not say the Purchase was an exercise); the reverse never happens.
 */
async function labelFromWording(
  db: Kysely<Database>,
  twin: KnownTrade,
  trade: NormalizedTrade,
  stamp: string,
): Promise<void> {
  if (trade.tradeAction === trade.filedAction || twin.trade_action !== trade.filedAction) return;
  await relabelTrade(db, twin.id, { trade_type: trade.tradeType, trade_action: trade.tradeAction }, stamp);
  twin.trade_action = trade.tradeAction;
}

async function completeTrade(
  db: Kysely<Database>,
  existing: KnownTrade,
  trade: NormalizedTrade,
  disclosureDate: string | null,
  filingId: number | null,
  stamp: string,
): Promise<boolean> {
  const incoming = fillableFields(trade, disclosureDate, filingId);
  const fill: Partial<Pick<TradeRow, FillableField>> = {};
  for (const field of FILLABLE_FIELDS) {
    if (existing[field] === null && incoming[field] !== null) {
      Object.assign(fill, { [field]: incoming[field] });
    }
  }
  if (Object.keys(fill).length === 0) return false;
  Object.assign(existing, fill);
  await fillTrade(db, existing.id, fill, stamp);
  return true;
}

/** What a later copy of a trade may fill in where the stored one has nothing. */
function fillableFields(
  trade: NormalizedTrade,
  disclosureDate: string | null,
  filingId: number | null,
): Pick<TradeRow, FillableField> {
  return {
    filing_id: filingId,
    disclosure_date: disclosureDate,
    days_to_disclose: disclosureDate ? daysBetween(trade.transactionDate, disclosureDate) : null,
    asset_type: trade.assetType,
    owner: trade.owner,
    comment: trade.comment,
    option_type: trade.optionType,
    strike_price: trade.strikePrice,
    option_expiry: trade.optionExpiry,
    cap_gains_over_200: capGainsFlag(trade.capGainsOver200),
  };
}

function newTrade(
  source: Source,
  key: string,
  origin: string,
  memberId: number,
  filingId: number | null,
  trade: NormalizedTrade,
  disclosureDate: string | null,
  stamp: string,
): NewTrade {
  return {
    ...fillableFields(trade, disclosureDate, filingId),
    politician_id: memberId,
    source,
    source_key: key,
    origin,
    ticker: trade.ticker,
    asset_description: trade.assetDescription,
    trade_type: trade.tradeType,
    trade_action: trade.tradeAction,
    amount_range: trade.amountRange,
    amount_low: trade.amountLow,
    amount_high: trade.amountHigh,
    transaction_date: trade.transactionDate,
    exchange_from_ticker: trade.exchangeFromTicker,
    exchange_to_ticker: trade.exchangeToTicker,
    is_ma_affected: 0,
    created_at: stamp,
    updated_at: stamp,
  };
}

/** The cap-gains box as stored: 1 ticked, 0 empty, null not given. */
function capGainsFlag(value: boolean | null): number | null {
  return value === null ? null : Number(value);
}
