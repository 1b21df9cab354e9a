// Bills from the congress.gov API v3 (JSON: one `bill`, a `bills` list, or one of a bill's
// sub-resources: actions, committees, cosponsors, subjects, relatedbills) and from GovInfo
// BILLSTATUS XML. Pure: text in, records out.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type Obj, obj } from '../parsed-values.js';

export interface BillRecord {
  /** "hr21-117": lower-case type, number, congress. */
  id: string;
  congress: number;
  billType: string;
  number: number;
  title: string;
  shortTitle: string | null;
  introducedDate: string | null;
  sponsorBioguideId: string | null;
  policyArea: string | null;
  latestActionDate: string | null;
  latestActionText: string | null;
  url: string | null;
}

export interface BillSponsor {
  bioguideId: string;
  role: 'sponsor' | 'cosponsor';
  fullName: string | null;
  party: string | null;
  state: string | null;
  sponsorshipDate: string | null;
  isOriginalCosponsor: boolean | null;
  withdrawnDate: string | null;
}

export interface BillCommitteeActivity {
  /** The committee as the Library of Congress codes it ("hsgo00"); the thomas id is derived from it. */
  systemCode: string;
  committeeId: string;
  name: string;
  chamber: string | null;
  /** "Referred to", "Markup by", "Reported by", "Discharged from"... */
  activity: string;
  /** When it happened, ISO timestamp as the source gives it. */
  date: string | null;
}

export interface BillAction {
  date: string;
  time: string | null;
  /** Library of Congress or chamber action code ("H11100", "10000"); absent on many Senate rows. */
  code: string | null;
  type: string | null;
  text: string;
  sourceSystem: string | null;
  committeeIds: string[];
}

/** A roll call the bill record lists, by the chamber clerk's number. */
export interface RecordedVote {
  chamber: string;
  congress: number;
  session: number | null;
  clerkRollNumber: number;
  date: string | null;
  actionName: string | null;
  url: string | null;
}

export interface RelatedBill {
  billId: string;
  title: string | null;
  relationship: string;
  identifiedBy: string | null;
}

/** What one document says about one bill; parts a document does not carry are null. */
export interface BillDetail {
  id: string;
  record: BillRecord | null;
  sponsors: BillSponsor[] | null;
  committees: BillCommitteeActivity[] | null;
  actions: BillAction[] | null;
  subjects: string[] | null;
  relatedBills: RelatedBill[] | null;
  recordedVotes: RecordedVote[] | null;
}

export class BillFileError extends Error {
  constructor(
    message: string,
    /** A well-formed document of a kind this reader does not store (a bill's titles, text...): not a failure. */
    readonly notABillDocument = false,
  ) {
    super(message);
  }
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const s = String(typeof value === 'object' ? (obj(value)['#text'] ?? '') : value).trim();
  return s === '' ? null : s;
}

function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null || value === '' ? [] : [value];
}

/** BILLSTATUS wraps every list in `<item>` elements; the JSON API gives plain arrays. */
function items(value: unknown): Obj[] {
  if (Array.isArray(value)) return value.map(obj);
  const wrapped = obj(value);
  return 'item' in wrapped ? list(wrapped.item).map(obj) : [];
}

function date(value: unknown): string | null {
  return text(value)?.slice(0, 10) ?? null;
}

export function billId(billType: string, number: number, congress: number): string {
  return `${billType.toLowerCase().replace(/[^a-z]/g, '')}${number}-${congress}`;
}

/** Library of Congress committee codes end in "00" for the full committee: "hsgo00" is thomas "HSGO", "hsag15" is "HSAG15". */
export function committeeIdFromSystemCode(systemCode: string): string {
  const upper = systemCode.trim().toUpperCase();
  return upper.endsWith('00') ? upper.slice(0, -2) : upper;
}

const URL_KINDS: Record<string, string> = {
  hr: 'house-bill',
  s: 'senate-bill',
  hres: 'house-resolution',
  sres: 'senate-resolution',
  hjres: 'house-joint-resolution',
  sjres: 'senate-joint-resolution',
  hconres: 'house-concurrent-resolution',
  sconres: 'senate-concurrent-resolution',
};

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

function billUrl(billType: string, number: number, congress: number): string {
  const kind = billType.toLowerCase().replace(/[^a-z]/g, '');
  return `https://www.congress.gov/bill/${ordinal(congress)}-congress/${URL_KINDS[kind] ?? kind}/${number}`;
}

function identity(raw: Obj): { congress: number; billType: string; number: number } | null {
  const congress = Number(text(raw.congress));
  const billType = text(raw.type) ?? text(raw.billType);
  const number = Number(text(raw.number) ?? text(raw.billNumber));
  if (!Number.isInteger(congress) || !billType || !Number.isInteger(number)) return null;
  return { congress, billType: billType.toUpperCase().replace(/[^A-Z]/g, ''), number };
}

function record(raw: Obj): BillRecord | null {
  const id = identity(raw);
  const title = text(raw.title);
  if (!id || !title) return null;
  const latest = obj(raw.latestAction);
  const sponsor = items(raw.sponsors)[0] ?? {};
  return {
    id: billId(id.billType, id.number, id.congress),
    congress: id.congress,
    billType: id.billType,
    number: id.number,
    title,
    shortTitle: shortTitleOf(raw),
    introducedDate: date(raw.introducedDate),
    sponsorBioguideId: text(sponsor.bioguideId),
    // Legacy BILLSTATUS files name the policy area as the primary subject.
    policyArea:
      text(obj(raw.policyArea).name) ?? text(obj(obj(obj(raw.subjects).billSubjects).primarySubject).name),
    latestActionDate: date(latest.actionDate),
    latestActionText: text(latest.text),
    url: billUrl(id.billType, id.number, id.congress),
  };
}

/** BILLSTATUS lists every title; the short title "as introduced" or the first short one is the name people use. */
function shortTitleOf(raw: Obj): string | null {
  const short = items(raw.titles).find((item) => /short title/i.test(text(item.titleType) ?? ''));
  return short ? text(short.title) : null;
}

function bool(value: unknown): boolean | null {
  const s = text(value)?.toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : null;
}

function sponsors(raw: Obj, role: BillSponsor['role']): BillSponsor[] {
  return items(role === 'sponsor' ? raw.sponsors : raw.cosponsors).flatMap((person) => {
    const bioguideId = text(person.bioguideId);
    if (!bioguideId) return [];
    return [
      {
        bioguideId,
        role,
        fullName: text(person.fullName),
        party: text(person.party),
        state: text(person.state),
        sponsorshipDate: date(person.sponsorshipDate),
        isOriginalCosponsor: role === 'cosponsor' ? bool(person.isOriginalCosponsor) : null,
        withdrawnDate: date(person.sponsorshipWithdrawnDate),
      },
    ];
  });
}

function committeeActivities(committees: Obj[]): BillCommitteeActivity[] {
  const rows: BillCommitteeActivity[] = [];
  const visit = (committee: Obj, chamber: string | null) => {
    const systemCode = text(committee.systemCode);
    const name = text(committee.name);
    if (!systemCode || !name) return;
    for (const activity of items(committee.activities)) {
      const activityName = text(activity.name);
      if (!activityName) continue;
      rows.push({
        systemCode,
        committeeId: committeeIdFromSystemCode(systemCode),
        name,
        chamber,
        activity: activityName,
        date: text(activity.date),
      });
    }
    for (const sub of items(committee.subcommittees)) visit(sub, chamber);
  };
  for (const committee of committees) visit(committee, text(committee.chamber));
  return rows;
}

function actions(raw: unknown): BillAction[] {
  return items(raw).flatMap((action) => {
    const actionDate = date(action.actionDate);
    const actionText = text(action.text);
    if (!actionDate || !actionText) return [];
    return [
      {
        date: actionDate,
        time: text(action.actionTime),
        code: text(action.actionCode),
        type: text(action.type),
        text: actionText,
        sourceSystem: text(obj(action.sourceSystem).name),
        committeeIds: items(action.committees).flatMap((c) => {
          const code = text(c.systemCode);
          return code ? [committeeIdFromSystemCode(code)] : [];
        }),
      },
    ];
  });
}

/** Legislative subjects (current schema) or the legacy `billSubjects/otherSubjects`. */
function subjects(raw: Obj): string[] {
  const holder = 'billSubjects' in raw ? obj(raw.billSubjects) : raw;
  const names = [...items(holder.legislativeSubjects), ...items(holder.otherSubjects)].flatMap((s) => {
    const name = text(s.name);
    return name ? [name] : [];
  });
  return [...new Set(names)];
}

function relatedBills(raw: unknown): RelatedBill[] {
  return items(raw).flatMap((related) => {
    const id = identity(related);
    if (!id) return [];
    const details = items(related.relationshipDetails);
    const relationship = details.map((d) => text(d.type)).find((t) => t !== null) ?? 'Related bill';
    return [
      {
        billId: billId(id.billType, id.number, id.congress),
        title: text(related.title) ?? text(related.latestTitle),
        relationship,
        identifiedBy: details.map((d) => text(d.identifiedBy)).find((t) => t !== null) ?? null,
      },
    ];
  });
}

function recordedVotes(raw: unknown): RecordedVote[] {
  const holder = obj(raw);
  return list(holder.recordedVote ?? holder.item).flatMap((entry) => {
    const vote = obj(entry);
    const chamber = text(vote.chamber);
    const congress = Number(text(vote.congress));
    const roll = Number(text(vote.rollNumber));
    if (!chamber || !Number.isInteger(congress) || !Number.isInteger(roll)) return [];
    const session = Number(text(vote.sessionNumber));
    return [
      {
        chamber,
        congress,
        session: Number.isInteger(session) ? session : null,
        clerkRollNumber: roll,
        date: text(vote.date),
        actionName: text(vote.fullActionName),
        url: text(vote.url),
      },
    ];
  });
}

function fullDetail(raw: Obj, fromXml: boolean): BillDetail | null {
  const bill = record(raw);
  if (!bill) return null;
  const committees = fromXml ? items(obj(raw.committees).billCommittees) : null;
  return {
    id: bill.id,
    record: bill,
    sponsors: [...sponsors(raw, 'sponsor'), ...(fromXml ? sponsors(raw, 'cosponsor') : [])],
    // The API's bill answer links its committees, actions, cosponsors... by URL: only the
    // sub-resource answers carry them, so the bill alone leaves them unknown (null).
    committees: committees ? committeeActivities(committees) : null,
    actions: fromXml ? actions(raw.actions) : null,
    subjects: fromXml ? subjects(obj(raw.subjects)) : null,
    relatedBills: fromXml ? relatedBills(raw.relatedBills) : null,
    recordedVotes: fromXml ? recordedVotes(raw.recordedVotes) : null,
  };
}

function empty(id: string): BillDetail {
  return {
    id,
    record: null,
    sponsors: null,
    committees: null,
    actions: null,
    subjects: null,
    relatedBills: null,
    recordedVotes: null,
  };
}

/** A sub-resource answer names its bill in `request` ({congress, billType, billNumber}). */
function subResource(data: Obj, fileName: string): BillDetail | null {
  const id = identity(obj(data.request));
  if (!id) return null;
  const detail = empty(billId(id.billType, id.number, id.congress));
  if (Array.isArray(data.actions)) detail.actions = actions(data.actions);
  else if (Array.isArray(data.committees)) detail.committees = committeeActivities(data.committees.map(obj));
  else if (Array.isArray(data.cosponsors)) detail.sponsors = sponsors(data, 'cosponsor');
  else if (Array.isArray(data.relatedBills)) detail.relatedBills = relatedBills(data.relatedBills);
  else if ('subjects' in data && !Array.isArray(data.subjects))
    detail.subjects = subjects(obj(data.subjects));
  else
    throw new BillFileError(
      `${fileName}: a congress.gov answer about a bill that carries none of its records`,
      true,
    );
  return detail;
}

/** Every bill a document describes, with the parts it carries. */
export function readBillDetails(fileName: string, content: string): BillDetail[] {
  const trimmed = content.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{')) {
    let data: Obj;
    try {
      data = obj(JSON.parse(trimmed));
    } catch (error) {
      throw new BillFileError(`${fileName}: not valid JSON (${(error as Error).message})`);
    }
    const bills = Array.isArray(data.bills) ? data.bills : data.bill ? [data.bill] : null;
    if (bills) {
      // A list entry carries only the bill's own fields, never its sponsors.
      const fromList = Array.isArray(data.bills);
      return bills.flatMap((entry) => {
        const detail = fullDetail(obj(entry), false);
        if (!detail) return [];
        return [fromList ? { ...detail, sponsors: null } : detail];
      });
    }
    const part = subResource(data, fileName);
    if (!part)
      throw new BillFileError(`${fileName}: neither a "bill" nor a "bills" document of the congress.gov API`);
    return [part];
  }
  if (trimmed.startsWith('<')) {
    // The parser is lenient: a truncated file would parse into a bill missing its tail, so check first.
    const valid = XMLValidator.validate(trimmed);
    if (valid !== true)
      throw new BillFileError(`${fileName}: not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
    let parsed: Obj;
    try {
      parsed = obj(new XMLParser({ ignoreAttributes: true, parseTagValue: false }).parse(trimmed));
    } catch (error) {
      // A DOCTYPE the parser refuses (external entities, malformed declarations) lands here.
      throw new BillFileError(`${fileName}: unreadable XML (${(error as Error).message})`);
    }
    const bill = obj(obj(parsed.billStatus).bill);
    if (Object.keys(bill).length === 0) throw new BillFileError(`${fileName}: not a BILLSTATUS document`);
    const found = fullDetail(bill, true);
    if (!found)
      throw new BillFileError(`${fileName}: a BILLSTATUS bill without its number, type or congress`);
    return [found];
  }
  throw new BillFileError(`${fileName}: neither JSON nor XML`);
}

/** The bills' own fields only (what `/search` indexes). */
export function readBills(fileName: string, content: string): BillRecord[] {
  return readBillDetails(fileName, content).flatMap((detail) => (detail.record ? [detail.record] : []));
}

/** Several documents describe one bill (the API's bill and its sub-resources): later parts fill gaps. */
export function mergeBillDetails(a: BillDetail, b: BillDetail): BillDetail {
  const record = a.record && b.record ? mergeRecord(a.record, b.record) : (b.record ?? a.record);
  let sponsorList = a.sponsors;
  if (b.sponsors) {
    // The bill answer gives the sponsor, the cosponsors answer the rest: keep both, one row per person and role.
    const byKey = new Map((sponsorList ?? []).map((s) => [`${s.role}:${s.bioguideId}`, s] as const));
    for (const sponsor of b.sponsors) byKey.set(`${sponsor.role}:${sponsor.bioguideId}`, sponsor);
    sponsorList = [...byKey.values()];
  }
  return {
    id: a.id,
    record,
    sponsors: sponsorList,
    committees: b.committees ?? a.committees,
    actions: b.actions ?? a.actions,
    subjects: b.subjects ?? a.subjects,
    relatedBills: b.relatedBills ?? a.relatedBills,
    recordedVotes: b.recordedVotes ?? a.recordedVotes,
  };
}

function mergeRecord(a: BillRecord, b: BillRecord): BillRecord {
  const merged = { ...a };
  for (const [key, value] of Object.entries(b) as [keyof BillRecord, BillRecord[keyof BillRecord]][]) {
    if (value !== null) Object.assign(merged, { [key]: value });
  }
  return merged;
}
