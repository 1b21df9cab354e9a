// `dcledger import fec <dir>`: the FEC bulk files of one or more cycles (a directory of them, or a
// directory of cycle directories). Files are streamed line by line; individual contributions are
// summed by committee, cycle and employer as they are read, so the full `itcont.txt` (tens of
// millions of rows) needs memory for the sums only.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { normalizeIdentifier } from '../../market/company-links.js';
import { addCounts, NO_CHANGES, type SyncCounts } from '../../storage/keyed-rows.js';
import {
  type FecRows,
  linkedCandidateCount,
  recipientCandidates,
  saveEmployerTotals,
  saveFecCandidates,
  saveFecCandidateTotals,
  saveFecCommitteeContributions,
  saveFecCommittees,
  saveFecLinkages,
} from '../../storage/repositories/campaign-finance.js';
import { linkedNameKeys } from '../../storage/repositories/company-links.js';
import type { Database } from '../../storage/schema.js';
import { type FileFailure, fileFailure } from '../file-failure.js';
import {
  FEC_COLUMNS,
  FEC_HEADER_FILES,
  type FecFileKind,
  fecFileKind,
  readFecHeader,
  splitFecLine,
  toCandidate,
  toCandidateTotals,
  toCommittee,
  toCommitteeContribution,
  toIndividualContribution,
  toLinkage,
} from './bulk.js';

export interface FecFileReport {
  file: string;
  kind: FecFileKind;
  rows: number;
  skipped: Record<string, number>;
}

export interface FecReport {
  files: FecFileReport[];
  /**
   * What was written, per kind of record. Files of one kind are merged before writing (a later
   * cycle's file wins for a candidate or committee both list), so a re-import changes nothing.
   */
  saved: Partial<Record<FecFileKind, SyncCounts>>;
  /** Files in the directory that are not bulk files this import reads, with why. */
  ignored: { file: string; reason: string }[];
  /** Bulk files that could not be read or held no usable row, with why: the run went on without them. */
  failed: FileFailure[];
  totals: SyncCounts & { rows: number; skipped: number };
  /** Candidates whose FEC id congress-legislators lists for a member. */
  candidatesLinkedToMembers: number;
  /** Employer names summed here that no company link matches (kept, listed by amount). */
  unmatchedEmployers: { name: string; amount: number }[];
  unmatchedEmployerCount: number;
}

export class FecInputError extends Error {}

const ORDER: FecFileKind[] = [
  'candidates',
  'committees',
  'linkages',
  'candidate_totals',
  'committee_contributions',
  'individual_contributions',
];

interface Found {
  path: string;
  origin: string;
  kind: FecFileKind;
  cycle: number | null;
  columns: readonly string[];
}

/** The bulk files under a directory (one level of cycle directories), with the header each uses. */
export function findFecFiles(dir: string): { files: Found[]; ignored: FecReport['ignored'] } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new FecInputError(`not a directory: ${dir}`);
  const dirs = [
    dir,
    ...readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((path) => statSync(path).isDirectory()),
  ];
  // The FEC publishes header files once; a cycle directory without them uses the ones found elsewhere.
  const headers = new Map<FecFileKind, readonly string[]>();
  for (const d of dirs)
    for (const [kind, name] of Object.entries(FEC_HEADER_FILES) as [FecFileKind, string | null][]) {
      if (name && existsSync(join(d, name)))
        headers.set(kind, readFecHeader(readFileSync(join(d, name), 'utf8')));
    }
  const files: Found[] = [];
  const ignored: FecReport['ignored'] = [];
  for (const d of dirs) {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) continue;
      const origin = d === dir ? name : `${basename(d)}/${name}`;
      const info = fecFileKind(name);
      if (!info) {
        const header = Object.values(FEC_HEADER_FILES).includes(name) || /header/i.test(name);
        ignored.push({
          file: origin,
          reason: header
            ? 'column header file (used for its data file)'
            : 'not an FEC bulk file this import reads',
        });
        continue;
      }
      files.push({ path, origin, ...info, columns: headers.get(info.kind) ?? FEC_COLUMNS[info.kind] });
    }
  }
  if (files.length === 0)
    throw new FecInputError(
      `${dir} holds no FEC bulk files (cn.txt, cm.txt, ccl.txt, itpas2.txt, itcont.txt, weballYY.txt)`,
    );
  files.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.origin.localeCompare(b.origin));
  return { files, ignored };
}

async function* lines(path: string): AsyncGenerator<string> {
  const reader = createInterface({
    input: createReadStream(path, { encoding: 'latin1' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of reader) if (line.trim() !== '') yield line;
}

export interface FecImportOptions {
  now?: Date;
  progress?: (done: number, total: number, file: string) => void;
}

export async function importFec(
  db: Kysely<Database>,
  dir: string,
  options: FecImportOptions = {},
): Promise<FecReport> {
  const { files, ignored } = findFecFiles(dir);
  const report: FecReport = {
    files: [],
    saved: {},
    ignored,
    failed: [],
    totals: { ...NO_CHANGES, rows: 0, skipped: 0 },
    candidatesLinkedToMembers: 0,
    unmatchedEmployers: [],
    unmatchedEmployerCount: 0,
  };
  const employers = new Map<string, { name: string; amount: number }>();
  // The write time of stored contributions: the incremental member refresh follows it.
  const stamp = (options.now ?? new Date()).toISOString();
  let done = 0;
  for (const kind of ORDER) {
    const pending = emptyPending();
    for (const file of files.filter((f) => f.kind === kind)) {
      let fileReport: FecFileReport;
      try {
        fileReport = await readFile(db, file, pending, employers);
      } catch (error) {
        report.failed.push(fileFailure(file.origin, error));
        // Sums of a file cut short are never saved as that file's (nor added to the next one's).
        pending.sums.clear();
        done += 1;
        options.progress?.(done, files.length, file.origin);
        continue;
      }
      report.files.push(fileReport);
      report.totals.rows += fileReport.rows;
      const skipped = Object.values(fileReport.skipped).reduce((a, b) => a + b, 0);
      report.totals.skipped += skipped;
      // Lines that all miss the layout are a malformed file; an empty file is listed with 0 rows.
      if (fileReport.rows > 0 && fileReport.rows === skipped)
        report.failed.push({
          file: file.origin,
          reason: `yielded nothing: ${fileReport.rows} line(s), none a usable ${file.kind} row`,
        });
      if (kind === 'individual_contributions') {
        const saved = await db
          .transaction()
          .execute((trx) => saveEmployerTotals(trx, file.origin, [...pending.sums.values()]));
        report.saved[kind] = addCounts(report.saved[kind] ?? NO_CHANGES, saved);
        pending.sums.clear();
      }
      done += 1;
      options.progress?.(done, files.length, file.origin);
    }
    if (kind !== 'individual_contributions' && files.some((f) => f.kind === kind))
      report.saved[kind] = await db.transaction().execute((trx) => savePending(trx, kind, pending, stamp));
  }
  for (const counts of Object.values(report.saved))
    report.totals = { ...report.totals, ...addCounts(report.totals, counts) };
  report.candidatesLinkedToMembers = await linkedCandidateCount(db);
  const matched = await linkedNameKeys(db);
  const unmatched = [...employers].filter(([key]) => !matched.has(key)).map(([, value]) => value);
  report.unmatchedEmployerCount = unmatched.length;
  report.unmatchedEmployers = unmatched.sort((a, b) => b.amount - a.amount).slice(0, 25);
  return report;
}

/** Records read from the files of one kind, by their id: a later file's record replaces an earlier one's. */
type Pending = { [Kind in keyof FecRows]: Map<string, FecRows[Kind]> };

function emptyPending(): Pending {
  return {
    candidates: new Map(),
    committees: new Map(),
    linkages: new Map(),
    totals: new Map(),
    contributions: new Map(),
    sums: new Map(),
  };
}

function savePending(
  db: Kysely<Database>,
  kind: FecFileKind,
  pending: Pending,
  stamp: string,
): Promise<SyncCounts> {
  switch (kind) {
    case 'candidates':
      return saveFecCandidates(db, [...pending.candidates.values()]);
    case 'committees':
      return saveFecCommittees(db, [...pending.committees.values()]);
    case 'linkages':
      return saveFecLinkages(db, [...pending.linkages.values()]);
    case 'candidate_totals':
      return saveFecCandidateTotals(db, [...pending.totals.values()]);
    case 'committee_contributions':
      return saveFecCommitteeContributions(db, [...pending.contributions.values()], stamp);
    case 'individual_contributions':
      return Promise.resolve(NO_CHANGES);
  }
}

async function readFile(
  db: Kysely<Database>,
  file: Found,
  pending: Pending,
  employers: Map<string, { name: string; amount: number }>,
): Promise<FecFileReport> {
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  let rows = 0;
  const { sums } = pending;
  let recipients: Map<string, string> | undefined;
  for await (const line of lines(file.path)) {
    rows += 1;
    const fields = splitFecLine(file.columns, line);
    if (!fields) {
      skip(`line without the ${file.columns.length} fields of the ${file.kind} layout`);
      continue;
    }
    switch (file.kind) {
      case 'candidates': {
        const c = toCandidate(fields);
        if (!c) skip('no candidate id or name');
        else pending.candidates.set(c.id, snakeCased(c));
        break;
      }
      case 'committees': {
        const c = toCommittee(fields);
        if (!c) skip('no committee id or name');
        else
          pending.committees.set(c.id, {
            ...snakeCased(c),
            connected_org_key: c.connectedOrgName ? normalizeIdentifier('name', c.connectedOrgName) : null,
          });
        break;
      }
      case 'linkages': {
        const l = toLinkage(fields);
        if (!l) skip('no linkage, candidate or committee id');
        else {
          const { linkageId, ...linkage } = l;
          pending.linkages.set(linkageId, { id: linkageId, ...snakeCased(linkage) });
        }
        break;
      }
      case 'candidate_totals': {
        const t = file.cycle === null ? null : toCandidateTotals(fields, file.cycle);
        if (!t) skip('no candidate id or name');
        else
          pending.totals.set(`${t.candidateId}:${t.cycle}`, {
            id: `${t.candidateId}:${t.cycle}`,
            ...snakeCased(t),
          });
        break;
      }
      case 'committee_contributions': {
        const x = toCommitteeContribution(fields);
        if (!x) {
          skip('no SUB_ID, giving committee, or recipient');
          break;
        }
        recipients ??= await recipientCandidates(db);
        const candidateId = x.candidateId ?? recipients.get(x.recipientCommitteeId ?? '');
        if (!candidateId) skip('no candidate id, and the receiving committee names no candidate');
        else
          pending.contributions.set(x.subId, {
            id: x.subId,
            committee_id: x.committeeId,
            candidate_id: candidateId,
            recipient_committee_id: x.recipientCommitteeId,
            transaction_type: x.transactionType,
            entity_type: x.entityType,
            name: x.name,
            contribution_date: x.date,
            cycle: x.cycle,
            amount: x.amount,
            memo: x.memo ? 1 : 0,
          });
        break;
      }
      case 'individual_contributions': {
        const x = toIndividualContribution(fields);
        if (!x) {
          skip('no SUB_ID or committee id');
          break;
        }
        // A memo line repeats money reported on another line (earmark, partnership attribution).
        if (x.memo) {
          skip('memo entry (the money is on another line)');
          break;
        }
        if (x.cycle === null) {
          skip('no transaction date');
          break;
        }
        const key = x.employer ? normalizeIdentifier('name', x.employer) : null;
        if (!x.employer || !key) {
          skip('no employer given');
          break;
        }
        const id = `${file.origin}|${x.committeeId}|${x.cycle}|${key}`;
        const sum = sums.get(id) ?? {
          id,
          origin: file.origin,
          committee_id: x.committeeId,
          cycle: x.cycle,
          employer_key: key,
          employer_name: x.employer,
          amount: 0,
          contributions: 0,
        };
        sum.amount = Math.round((sum.amount + x.amount) * 100) / 100;
        sum.contributions += 1;
        sums.set(id, sum);
        const employer = employers.get(key) ?? { name: x.employer, amount: 0 };
        employer.amount = Math.round((employer.amount + x.amount) * 100) / 100;
        employers.set(key, employer);
        break;
      }
    }
  }
  return { file: file.origin, kind: file.kind, rows, skipped };
}

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A parsed record as its table's row: the tables name each of the record's fields in snake case. */
function snakeCased<T extends object>(record: T): { [K in keyof T & string as SnakeCase<K>]: T[K] } {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  ) as { [K in keyof T & string as SnakeCase<K>]: T[K] };
}
