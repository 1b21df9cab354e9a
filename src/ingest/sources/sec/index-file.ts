// EDGAR's listings of what was filed (pure): the daily `form.YYYYMMDD.idx` (fixed-width columns,
// sorted by form), `master.YYYYMMDD.idx` (pipe-separated) and the "current events" Atom feed.

export interface EdgarIndexEntry {
  form: string;
  company: string;
  cik: string;
  filed_date: string;
  /** Path under /Archives/, e.g. edgar/data/879407/0001242615-25-000006.txt */
  file_name: string;
  accession_number: string;
}

function isoOf(raw: string): string | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function accessionOf(fileName: string): string | null {
  return /(\d{10}-\d{2}-\d{6})/.exec(fileName)?.[1] ?? null;
}

/** `form.idx`: "Form Type  Company Name  CIK  Date Filed  File Name" in columns after a dashed rule. */
export function parseFormIndex(text: string): EdgarIndexEntry[] {
  const entries: EdgarIndexEntry[] = [];
  const lines = text.split(/\r?\n/);
  const rule = lines.findIndex((line) => /^-{20,}/.test(line));
  for (const line of lines.slice(rule + 1)) {
    const match = /^(\S.*?)\s{2,}(.+?)\s{2,}(\d{1,10})\s+(\d{4}-?\d{2}-?\d{2})\s+(\S+)\s*$/.exec(line);
    if (!match) continue;
    const [, form = '', company = '', cik = '', date = '', fileName = ''] = match;
    const entry = indexEntry(form, company, cik, date, fileName);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** `master.idx`: "CIK|Company Name|Form Type|Date Filed|Filename". */
export function parseMasterIndex(text: string): EdgarIndexEntry[] {
  const entries: EdgarIndexEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const parts = line.split('|');
    if (parts.length !== 5 || !/^\d+$/.test(parts[0] ?? '')) continue;
    const [cik = '', company = '', form = '', date = '', fileName = ''] = parts;
    const entry = indexEntry(form, company, cik, date, fileName);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** An index line's entry; null when its date or its file's accession number cannot be read. */
function indexEntry(
  form: string,
  company: string,
  cik: string,
  date: string,
  fileName: string,
): EdgarIndexEntry | null {
  const filed = isoOf(date);
  const accession = accessionOf(fileName);
  if (!filed || !accession) return null;
  return {
    form: form.trim(),
    company: company.trim(),
    cik,
    filed_date: filed,
    file_name: fileName.trim(),
    accession_number: accession,
  };
}

/**
 * The current-events Atom feed (`/cgi-bin/browse-edgar?action=getcurrent&output=atom`): each entry
 * has the form as its category, the filing's index page as its link, and `updated`.
 */
export function parseCurrentFeed(text: string): EdgarIndexEntry[] {
  const entries: EdgarIndexEntry[] = [];
  for (const match of text.matchAll(/<entry>([\s\S]*?)<\/entry>/g)) {
    const entry = match[1] ?? '';
    const form = /<category[^>]*term="([^"]+)"/.exec(entry)?.[1];
    const link = /<link[^>]*href="([^"]+)"/.exec(entry)?.[1];
    const updated = /<updated>(\d{4}-\d{2}-\d{2})/.exec(entry)?.[1];
    const title = /<title>([^<]*)<\/title>/.exec(entry)?.[1] ?? '';
    const accession = link ? accessionOf(link) : null;
    const cik = link ? /\/data\/(\d+)\//.exec(link)?.[1] : undefined;
    if (!form || !accession || !updated || !cik) continue;
    entries.push({
      form,
      company: title
        .replace(/^[^-]*-\s*/, '')
        .replace(/\s*\(\d+\).*$/, '')
        .trim(),
      cik,
      filed_date: updated,
      file_name: `edgar/data/${cik}/${accession}.txt`,
      accession_number: accession,
    });
  }
  return entries;
}

/** Forms as `--forms` names them (4, SC 13D, SC 13G) to every spelling EDGAR lists, amendments included. */
export function formMatcher(forms: readonly string[]): (form: string) => boolean {
  const wanted = new Set<string>();
  for (const raw of forms) {
    const form = raw
      .trim()
      .toUpperCase()
      .replace(/^SCHEDULE\s+/, 'SC ');
    const base = form.replace(/\/A$/, '');
    for (const name of [base, `${base}/A`]) {
      wanted.add(name);
      if (name.startsWith('SC ')) wanted.add(name.replace(/^SC /, 'SCHEDULE '));
    }
  }
  return (form) => wanted.has(form.trim().toUpperCase());
}

export const DEFAULT_SEC_FORMS = ['4', 'SC 13D', 'SC 13G'];

/** The daily index path of a date: edgar/daily-index/2025/QTR4/form.20251223.idx */
export function dailyIndexPath(date: string, kind: 'form' | 'master' = 'form'): string {
  const [year = '', month = ''] = date.split('-');
  const quarter = Math.floor((Number(month) - 1) / 3) + 1;
  return `edgar/daily-index/${year}/QTR${quarter}/${kind}.${date.replace(/-/g, '')}.idx`;
}
