// `dcledger import bills <file|dir>`: congress.gov API v3 JSON and BILLSTATUS XML.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { saveBills } from '../../storage/repositories/bills.js';
import type { Database } from '../../storage/schema.js';
import { BillFileError, type BillRecord, readBills } from './read.js';

export interface BillsReport {
  files: number;
  bills: number;
  inserted: number;
  updated: number;
  skipped: { file: string; reason: string }[];
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
  const bills = new Map<string, BillRecord>();
  const skipped: BillsReport['skipped'] = [];
  for (const file of files) {
    try {
      for (const bill of readBills(basename(file), readFileSync(file, 'utf8'))) {
        // Several files may describe one bill (a list entry and its detail): later fields fill earlier gaps.
        const known = bills.get(bill.id);
        bills.set(bill.id, known ? mergeBill(known, bill) : bill);
      }
    } catch (error) {
      // A directory of API answers also holds actions, cosponsors...: those are not bills, say so and go on.
      if (error instanceof BillFileError) skipped.push({ file: basename(file), reason: error.message });
      else throw error;
    }
  }
  const rows = [...bills.values()].map((bill) => ({
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
  }));
  const saved = await db.transaction().execute((trx) => saveBills(trx, rows, now.toISOString()));
  return { files: files.length, bills: rows.length, ...saved, skipped };
}

function mergeBill(a: BillRecord, b: BillRecord): BillRecord {
  const merged = { ...a };
  for (const [key, value] of Object.entries(b) as [keyof BillRecord, BillRecord[keyof BillRecord]][]) {
    if (value !== null) Object.assign(merged, { [key]: value });
  }
  return merged;
}
