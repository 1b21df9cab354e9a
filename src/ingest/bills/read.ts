// Bills from the congress.gov API v3 (JSON: one `bill` or a `bills` list) and from GovInfo
// BILLSTATUS XML. Pure: text in, bill records out.
import { XMLParser } from 'fast-xml-parser';

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

export class BillFileError extends Error {}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const s = String(typeof value === 'object' ? (obj(value)['#text'] ?? '') : value).trim();
  return s === '' ? null : s;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

export function billId(billType: string, number: number, congress: number): string {
  return `${billType.toLowerCase().replace(/[^a-z]/g, '')}${number}-${congress}`;
}

function record(raw: Obj, source: 'json' | 'xml'): BillRecord | null {
  const congress = Number(text(raw.congress));
  const billType = text(raw.type) ?? text(raw.billType);
  const number = Number(text(raw.number) ?? text(raw.billNumber));
  const title = text(raw.title);
  if (!Number.isInteger(congress) || !billType || !Number.isInteger(number) || !title) return null;
  const latest = obj(raw.latestAction);
  const sponsor = obj(first(source === 'json' ? raw.sponsors : obj(raw.sponsors).item));
  const policy = obj(raw.policyArea);
  return {
    id: billId(billType, number, congress),
    congress,
    billType: billType.toUpperCase(),
    number,
    title,
    shortTitle: shortTitleOf(raw),
    introducedDate: text(raw.introducedDate)?.slice(0, 10) ?? null,
    sponsorBioguideId: text(sponsor.bioguideId),
    policyArea: text(policy.name),
    latestActionDate: text(latest.actionDate)?.slice(0, 10) ?? null,
    latestActionText: text(latest.text),
    url: `https://www.congress.gov/bill/${congress}th-congress/${billType.toLowerCase() === 'hr' ? 'house-bill' : billType.toLowerCase() === 's' ? 'senate-bill' : billType.toLowerCase()}/${number}`,
  };
}

/** BILLSTATUS lists every title; the short title "as introduced" or the first short one is the name people use. */
function shortTitleOf(raw: Obj): string | null {
  const items = obj(raw.titles).item;
  const titles = (Array.isArray(items) ? items : items ? [items] : []).map(obj);
  const short = titles.find((item) => /short title/i.test(text(item.titleType) ?? ''));
  return short ? text(short.title) : null;
}

export function readBills(fileName: string, content: string): BillRecord[] {
  const trimmed = content.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{')) {
    let data: Obj;
    try {
      data = obj(JSON.parse(trimmed));
    } catch (error) {
      throw new BillFileError(`${fileName}: not valid JSON (${(error as Error).message})`);
    }
    const list = Array.isArray(data.bills) ? data.bills : data.bill ? [data.bill] : null;
    if (!list)
      throw new BillFileError(`${fileName}: neither a "bill" nor a "bills" document of the congress.gov API`);
    return list
      .map((entry) => record(obj(entry), 'json'))
      .filter((bill): bill is BillRecord => bill !== null);
  }
  if (trimmed.startsWith('<')) {
    const parsed = obj(new XMLParser({ ignoreAttributes: true, parseTagValue: false }).parse(trimmed));
    const bill = obj(obj(parsed.billStatus).bill);
    if (Object.keys(bill).length === 0) throw new BillFileError(`${fileName}: not a BILLSTATUS document`);
    const found = record(bill, 'xml');
    return found ? [found] : [];
  }
  throw new BillFileError(`${fileName}: neither JSON nor XML`);
}
