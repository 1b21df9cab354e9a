// What the disclosure.detected event says about a newly listed filing beyond its Filing resource:
// the filer as the politicians table knows them, and whether their disclosed volume of the past
// year makes the filing high-signal. The same for every source; nothing here reads a document.
import type { Kysely } from 'kysely';
import { addDays } from '../../domain/dates.js';
import { memberDisclosedVolume, politicianSummary } from '../../storage/repositories/member-activity.js';
import type { Database } from '../../storage/schema.js';
import { type DisclosureContext, isHighSignal } from '../../webhooks/payloads.js';

/** The index-time context of a filing by `politicianId` (null: not matched to a member). */
export async function detectionContext(
  db: Kysely<Database>,
  politicianId: number | null,
  filedDate: string,
): Promise<DisclosureContext> {
  const member = politicianId === null ? undefined : await politicianSummary(db, politicianId);
  const volume = member ? await memberDisclosedVolume(db, member.id, addDays(filedDate, -365), filedDate) : 0;
  return {
    member: member?.name ?? null,
    party: member?.party ?? null,
    chamber: member?.chamber ?? null,
    tickers: [],
    estAmountHigh: null,
    isHighSignal: isHighSignal(volume),
  };
}
