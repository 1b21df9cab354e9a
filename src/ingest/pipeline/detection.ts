// What the disclosure.detected event says about a newly listed filing beyond its Filing resource:
// the filer as the politicians table knows them, what a quick read of the document found (its
// tickers and largest amount, see sources/quick-scan.ts), and whether the filing is high-signal
// (that amount, or the filer's disclosed volume of the past year). The same for every source.
import type { Kysely } from 'kysely';
import { addDays } from '../../domain/dates.js';
import { memberDisclosedVolume, politicianSummary } from '../../storage/repositories/member-activity.js';
import type { Database } from '../../storage/schema.js';
import { type DisclosureContext, isHighSignal } from '../../webhooks/payloads.js';
import type { QuickScan } from '../sources/quick-scan.js';

/** The context of a new filing by `politicianId` (null: not matched to a member), before its full parse. */
export async function detectionContext(
  db: Kysely<Database>,
  politicianId: number | null,
  filedDate: string,
  scan: QuickScan,
): Promise<DisclosureContext> {
  const member = politicianId === null ? undefined : await politicianSummary(db, politicianId);
  const volume = member ? await memberDisclosedVolume(db, member.id, addDays(filedDate, -365), filedDate) : 0;
  return {
    member: member?.name ?? null,
    party: member?.party ?? null,
    chamber: member?.chamber ?? null,
    tickers: scan.tickers,
    estAmountHigh: scan.estAmountHigh,
    isHighSignal: isHighSignal(volume, scan.estAmountHigh),
  };
}
