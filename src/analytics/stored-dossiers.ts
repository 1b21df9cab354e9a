// The stored company dossiers (docs/analytics.md, "Stored results"): the answer of GET
// /companies/{ticker} for every ticker members traded, built by the same code a request runs
// (buildCompanyDossier) and kept as the JSON text the route sends, the overseeing members once per
// committee set. Rebuilt whole when an input that no ticker owns changed (members, committees,
// seats, bills), otherwise only for the tickers the changes touched.
import type { Kysely } from 'kysely';
import {
  inRebuildTransaction,
  pendingAnalyticsChanges,
  STORED_SCOPES,
  storedResultCurrent,
} from '../storage/repositories/stored-analytics.js';
import {
  clearStoredDossiers,
  markStoredDossiers,
  pendingDossierTickers,
  removeStoredDossiers,
  removeUnusedOverseers,
  storeDossiers,
  storedOverseerKeys,
  tradedTickers,
  tradedTickersAmong,
} from '../storage/repositories/stored-dossiers.js';
import type { CompanyDossiersTable } from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { buildCompanyDossiers, sharedDossierReads } from './company-dossier.js';

/**
 * Dossiers built per round of reads and written per insert batch: the rebuild never holds every
 * answer's text at once, and each section's query serves this many tickers.
 */
const BATCH = 200;

export interface DossierRefresh {
  /** Whether any stored dossier was rebuilt. */
  rebuilt: boolean;
  /** Whether every one was (an input no ticker owns changed, or forced), or only the changed tickers'. */
  whole: boolean;
  /** How many dossiers were built and stored. */
  companies: number;
  /** How many dossiers are stored after it. */
  stored: number;
}

/**
 * Rebuilds the stored dossiers when an input changed since they were computed (or always, with
 * `force`), in one transaction (stored-analytics.ts, inRebuildTransaction): every ticker's when
 * the change is not one of tickers (or nothing is stored yet), else the changed tickers' only (a
 * ticker no current trade names any more loses its dossier).
 */
export async function refreshStoredDossiers(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<DossierRefresh> {
  const whole = options.force || !(await storedResultCurrent(db, 'dossier'));
  if (!whole && (await pendingDossierTickers(db)).length === 0)
    return { rebuilt: false, whole: false, companies: 0, stored: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['dossier'], async (trx) => {
    const changes = await pendingAnalyticsChanges(trx, STORED_SCOPES.dossier);
    const tickerChanges = await pendingDossierTickers(trx);
    let tickers: string[];
    if (whole) {
      await clearStoredDossiers(trx);
      tickers = await tradedTickers(trx);
    } else {
      const touched = [...new Set(tickerChanges.map((change) => change.ticker))];
      await removeStoredDossiers(trx, touched);
      tickers = await tradedTickersAmong(trx, touched);
    }
    await storeBuiltDossiers(trx, tickers);
    if (!whole) await removeUnusedOverseers(trx);
    const stored = await markStoredDossiers(trx, computedAt, {
      changes,
      tickerChanges: tickerChanges.map((change) => change.id),
    });
    return { rebuilt: true, whole, companies: tickers.length, stored };
  });
}

/**
 * Builds and stores these tickers' dossiers (none of them stored), and the overseeing members of
 * each committee set among them not stored yet: a stored set's members are current, since a change
 * of members, committees or seats rebuilds every dossier.
 */
async function storeBuiltDossiers(trx: Kysely<Database>, tickers: readonly string[]): Promise<void> {
  // Companies of a sector share their committees: each set's seats, names and bills are read once.
  const reads = sharedDossierReads();
  const overseers = new Map<string, string>();
  let batch: CompanyDossiersTable[] = [];
  for (let start = 0; start < tickers.length; start += BATCH) {
    const dossiers = await buildCompanyDossiers(trx, tickers.slice(start, start + BATCH), reads);
    for (const { overseeing_members: members, ...head } of dossiers) {
      const key = head.overseeing_committees.map((committee) => committee.committee_id).join(',');
      if (!overseers.has(key)) overseers.set(key, JSON.stringify(members));
      // `overseeing_members` is the answer's last field: its text is the head's without the closing
      // brace, then the field (storedDossierJson appends it).
      batch.push({ ticker: head.ticker, overseers_key: key, head: JSON.stringify(head).slice(0, -1) });
    }
    if (batch.length >= BATCH) {
      await storeDossiers(trx, batch);
      batch = [];
    }
  }
  const known = await storedOverseerKeys(trx, [...overseers.keys()]);
  await storeDossiers(
    trx,
    batch,
    [...overseers]
      .filter(([key]) => !known.has(key))
      .map(([key, members]) => ({ overseers_key: key, members })),
  );
}
