// The stored company dossiers (docs/analytics.md, "Stored results"): the answer of GET
// /companies/{ticker} for every ticker members traded, built by the same code a request runs
// (buildCompanyDossier) and kept as the JSON text the route sends, the overseeing members once per
// committee set.
import type { Kysely } from 'kysely';
import type { CurrentSeatRow } from '../storage/repositories/analytics-links.js';
import { currentSeatsOn } from '../storage/repositories/analytics-links.js';
import {
  inRebuildTransaction,
  pendingAnalyticsChanges,
  STORED_SCOPES,
  storedResultCurrent,
} from '../storage/repositories/stored-analytics.js';
import {
  clearStoredDossiers,
  markStoredDossiers,
  storeDossierOverseers,
  storeDossiers,
  tradedTickers,
} from '../storage/repositories/stored-dossiers.js';
import type { CompanyDossiersTable } from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { buildCompanyDossier, type SeatsOn } from './company-dossier.js';

/** Dossiers written per insert batch, so that the rebuild never holds every answer's text at once. */
const BATCH = 200;

/**
 * Rebuilds the stored dossiers when an input changed since they were computed (or always, with
 * `force`), in one transaction (stored-analytics.ts, inRebuildTransaction).
 */
export async function refreshStoredDossiers(
  db: Kysely<Database>,
  options: { now?: Date; force?: boolean } = {},
): Promise<{ rebuilt: boolean; companies: number }> {
  if (!options.force && (await storedResultCurrent(db, 'dossier'))) return { rebuilt: false, companies: 0 };
  const computedAt = (options.now ?? new Date()).toISOString();
  return inRebuildTransaction(db, ['dossier'], async (trx) => {
    const seenChanges = await pendingAnalyticsChanges(trx, STORED_SCOPES.dossier);
    await clearStoredDossiers(trx);
    // Companies of a sector share their committees: each set's seats are read once.
    const seats = new Map<string, Promise<CurrentSeatRow[]>>();
    const seatsOn: SeatsOn = (reader, committeeIds) => {
      const key = committeeIds.join(',');
      const known = seats.get(key) ?? currentSeatsOn(reader, committeeIds);
      seats.set(key, known);
      return known;
    };
    const overseers = new Map<string, string>();
    const tickers = await tradedTickers(trx);
    let batch: CompanyDossiersTable[] = [];
    for (const ticker of tickers) {
      const { overseeing_members: members, ...head } = await buildCompanyDossier(trx, ticker, seatsOn);
      const key = head.overseeing_committees.map((committee) => committee.committee_id).join(',');
      if (!overseers.has(key)) overseers.set(key, JSON.stringify(members));
      // `overseeing_members` is the answer's last field: its text is the head's without the closing
      // brace, then the field (storedDossierJson appends it).
      batch.push({ ticker, overseers_key: key, head: JSON.stringify(head).slice(0, -1) });
      if (batch.length >= BATCH) {
        await storeDossiers(trx, batch);
        batch = [];
      }
    }
    await storeDossiers(trx, batch);
    await storeDossierOverseers(
      trx,
      [...overseers].map(([key, members]) => ({ overseers_key: key, members })),
    );
    await markStoredDossiers(trx, tickers.length, computedAt, seenChanges);
    return { rebuilt: true, companies: tickers.length };
  });
}
