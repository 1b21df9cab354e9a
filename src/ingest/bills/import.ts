// `dcledger import bills <file|dir>`: congress.gov API v3 JSON (a bill, a list, or a bill's
// actions/committees/cosponsors/subjects/relatedbills) and BILLSTATUS XML, with every part.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Kysely } from 'kysely';
import {
  type BillPartsWrite,
  saveBillParts,
  saveBills,
  storedBillIds,
} from '../../storage/repositories/bills.js';
import type { Database } from '../../storage/schema.js';
import { type FileFailure, fileFailure } from '../file-failure.js';
import {
  type BillDetail,
  BillFileError,
  mergeBillDetails,
  readBillDetails,
} from '../sources/congress/bill-status.js';

export interface BillsReport {
  files: number;
  bills: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Documents of a kind this import does not store (a bill's titles, text, summaries...). */
  skipped: { file: string; reason: string }[];
  /** Files that are malformed or yielded no bill, with why: the run went on without them. */
  failed: FileFailure[];
  /** Well-formed files that list no bill (an empty page of a list): said so, not a failure. */
  empty: string[];
}

export async function importBills(
  db: Kysely<Database>,
  path: string,
  now = new Date(),
): Promise<BillsReport> {
  if (!existsSync(path)) throw new BillFileError(`no such file or directory: ${path}`);
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => ['.json', '.xml'].includes(extname(name).toLowerCase()))
        .sort()
        .map((name) => join(path, name))
    : [path];
  const skipped: BillsReport['skipped'] = [];
  const failed: BillsReport['failed'] = [];
  const empty: string[] = [];
  const details = new Map<string, BillDetail>();
  for (const file of files) {
    const name = basename(file);
    let read: BillDetail[];
    try {
      read = readBillDetails(name, readFileSync(file, 'utf8'));
    } catch (error) {
      // One bad file never stops the others: a directory of API answers also holds titles, text,
      // summaries... (skipped), and a malformed or unreadable file is a failure named with its reason.
      const failure = fileFailure(name, error);
      if (error instanceof BillFileError && error.notABillDocument) skipped.push(failure);
      else failed.push(failure);
      continue;
    }
    if (read.length === 0) empty.push(name);
    for (const detail of read) {
      // Several files may describe one bill (the bill and its sub-resources): later parts fill gaps.
      const known = details.get(detail.id);
      details.set(detail.id, known ? mergeBillDetails(known, detail) : detail);
    }
  }
  return db.transaction().execute(async (trx) => {
    const saved = await saveBillDetails(trx, [...details.values()], now);
    for (const id of saved.orphans)
      skipped.push({ file: id, reason: `${id}: records of a bill that no document describes` });
    return {
      files: files.length,
      bills: saved.inserted.length + saved.updated.length + saved.unchanged.length,
      inserted: saved.inserted.length,
      updated: saved.updated.length,
      unchanged: saved.unchanged.length,
      skipped,
      failed,
      empty,
    };
  });
}

/** What saving bills did, by bill id. */
export interface SavedBills {
  inserted: string[];
  updated: string[];
  unchanged: string[];
  /** Parts of bills neither stored nor described by any document: not saved. */
  orphans: string[];
}

/** Upserts bills and their parts (each part replaced whole when it changed); inside the caller's transaction. */
export async function saveBillDetails(
  db: Kysely<Database>,
  details: readonly BillDetail[],
  now: Date,
): Promise<SavedBills> {
  const known = await storedBillIds(
    db,
    details.map((detail) => detail.id),
  );
  const result: SavedBills = { inserted: [], updated: [], unchanged: [], orphans: [] };
  const records = details.flatMap((detail) => (detail.record ? [detail.record] : []));
  const parts: BillPartsWrite[] = [];
  for (const detail of details) {
    if (!detail.record && !known.has(detail.id)) result.orphans.push(detail.id);
    else parts.push(toPartsWrite(detail));
  }
  const stamp = now.toISOString();
  const saved = await saveBills(
    db,
    records.map((bill) => ({
      id: bill.id,
      congress: bill.congress,
      bill_type: bill.billType,
      number: bill.number,
      title: bill.title,
      short_title: bill.shortTitle,
      introduced_date: bill.introducedDate,
      sponsor_bioguide_id: bill.sponsorBioguideId,
      policy_area: bill.policyArea,
      latest_action_date: bill.latestActionDate,
      latest_action_text: bill.latestActionText,
      url: bill.url,
    })),
    stamp,
  );
  const partsChanged = await saveBillParts(db, parts, stamp);
  const touched = new Set([...saved.updatedIds, ...partsChanged]);
  for (const { billId } of parts) {
    if (!known.has(billId)) result.inserted.push(billId);
    else if (touched.has(billId)) result.updated.push(billId);
    else result.unchanged.push(billId);
  }
  return result;
}

function toPartsWrite(detail: BillDetail): BillPartsWrite {
  return {
    billId: detail.id,
    sponsors:
      detail.sponsors?.map((s) => ({
        bioguide_id: s.bioguideId,
        role: s.role,
        full_name: s.fullName,
        party: s.party,
        state: s.state,
        sponsorship_date: s.sponsorshipDate,
        is_original: s.isOriginalCosponsor === null ? null : Number(s.isOriginalCosponsor),
        withdrawn_date: s.withdrawnDate,
      })) ?? null,
    committees:
      detail.committees?.map((c) => ({
        committee_id: c.committeeId,
        system_code: c.systemCode,
        committee_name: c.name,
        chamber: c.chamber,
        activity: c.activity,
        activity_date: c.date,
      })) ?? null,
    actions:
      detail.actions?.map((a) => ({
        action_date: a.date,
        action_time: a.time,
        action_code: a.code,
        action_type: a.type,
        source_system: a.sourceSystem,
        text: a.text,
        committee_ids: a.committeeIds.length > 0 ? a.committeeIds.join(',') : null,
      })) ?? null,
    subjects: detail.subjects,
    related:
      detail.relatedBills?.map((r) => ({
        related_bill_id: r.billId,
        relationship: r.relationship,
        identified_by: r.identifiedBy,
        title: r.title,
      })) ?? null,
    votes:
      detail.recordedVotes?.map((v) => ({
        chamber: v.chamber,
        congress: v.congress,
        session: v.session,
        clerk_roll_number: v.clerkRollNumber,
        vote_date: v.date,
        action_name: v.actionName,
        url: v.url,
      })) ?? null,
  };
}
