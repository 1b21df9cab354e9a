// EDGAR on the replay server, served from the recorded real SEC documents under
// <dataDir>/related/{form4,sc13}: the daily `form.YYYYMMDD.idx`, the current-events Atom feed, and
// each filing at /Archives/edgar/data/<cik>/<accession>.txt; and the company directory files
// (/files/company_tickers*.json) from <dataDir>/market/companies. The indexes and the feed are BUILT
// here from the documents (EDGAR's own index files are not in the shared data). A document that
// names its accession number (EDGAR envelope, or go-edgar's source URL) keeps it; the others get a
// replay-assigned one of the form 0000000000-YY-NNNNNN (CIK 0 is no filer), and are listed on their
// signature, period or event date.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplaySite } from '../replay-site.js';
import { SEC_COMPANY_FILES } from './connector.js';
import { dailyIndexPath, formMatcher } from './index-file.js';
import { parseSecDocument } from './parse-sec.js';

export interface SecReplayEntry {
  accession_number: string;
  form: string;
  company: string;
  cik: string;
  filed_date: string;
  file: string;
  /** True when the accession number is replay-assigned. */
  assigned: boolean;
}

export interface SecReplayAnswer {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

const FALLBACK_DATE = '2025-01-02';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name.endsWith('-derived-2024Q3') ? [] : filesUnder(path);
      return /\.(xml|txt|html)$/.test(name) ? [path] : [];
    });
}

/** go-edgar's expected.json names the EDGAR URL of its input: …/data/879407/000124261525000006/… */
function goEdgarAccession(file: string): string | null {
  const expected = file.replace(/\.input\.xml$/, '.expected.json');
  if (expected === file || !existsSync(expected)) return null;
  const url = /"source_url":\s*"([^"]+)"/.exec(readFileSync(expected, 'utf8'))?.[1] ?? '';
  const folder = /\/data\/\d+\/(\d{18})\//.exec(url)?.[1];
  return folder ? `${folder.slice(0, 10)}-${folder.slice(10, 12)}-${folder.slice(12)}` : null;
}

export function loadSecReplayCatalog(dataDir: string): SecReplayEntry[] {
  const related = join(dataDir, 'related');
  const files = [...filesUnder(join(related, 'form4')), ...filesUnder(join(related, 'sc13'))];
  const entries: SecReplayEntry[] = [];
  const taken = new Set<string>();
  let assignedCount = 0;
  for (const file of files) {
    const parsed = parseSecDocument(readFileSync(file, 'utf8'));
    if (parsed.kind === 'failed') continue;
    if (parsed.kind === 'unsupported' && !/^[345](\/A)?$/.test(parsed.form ?? '')) continue;
    if (parsed.kind === 'unsupported' && parsed.reason.includes('without any document')) continue;
    const known = parsed.header.accession_number ?? goEdgarAccession(file);
    const document = parsed.kind === 'unsupported' ? null : parsed.document;
    const filed =
      parsed.header.filed_date ??
      (parsed.kind === 'ownership'
        ? (parsed.document.signatures[0]?.date ?? parsed.document.period_of_report)
        : parsed.kind === 'schedule13'
          ? parsed.document.event_date
          : null) ??
      FALLBACK_DATE;
    const accession = known ?? `0000000000-${filed.slice(2, 4)}-${String(++assignedCount).padStart(6, '0')}`;
    if (taken.has(accession)) continue;
    taken.add(accession);
    const issuer = document?.issuer;
    entries.push({
      accession_number: accession,
      form: document?.form ?? parsed.header.form_type ?? '4',
      company: issuer?.name ?? parsed.header.issuer_name ?? 'UNKNOWN',
      cik: String(Number(issuer?.cik ?? parsed.header.issuer_cik ?? '0')),
      filed_date: filed,
      file,
      assigned: known === null,
    });
  }
  return entries;
}

function archivePath(entry: SecReplayEntry): string {
  return `edgar/data/${entry.cik}/${entry.accession_number}.txt`;
}

function formIndex(date: string, entries: readonly SecReplayEntry[]): string {
  const header = [
    `Description:           Daily Index of EDGAR Dissemination Feed by Form Type (replay: built from recorded documents)`,
    `Last Data Received:    ${date}`,
    '',
    `${'Form Type'.padEnd(12)}${'Company Name'.padEnd(62)}${'CIK'.padEnd(12)}${'Date Filed'.padEnd(12)}File Name`,
    '-'.repeat(140),
  ];
  const rows = [...entries]
    .sort((a, b) => a.form.localeCompare(b.form) || a.accession_number.localeCompare(b.accession_number))
    .map(
      (entry) =>
        `${entry.form.padEnd(12)}${entry.company.slice(0, 60).padEnd(62)}${entry.cik.padEnd(12)}${entry.filed_date.replace(/-/g, '').padEnd(12)}${archivePath(entry)}`,
    );
  return `${[...header, ...rows].join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function atomFeed(baseUrl: string, entries: readonly SecReplayEntry[]): string {
  const items = entries.map((entry) => {
    const folder = entry.accession_number.replace(/-/g, '');
    const link = `${baseUrl}/Archives/edgar/data/${entry.cik}/${folder}/${entry.accession_number}-index.htm`;
    return [
      '<entry>',
      `<title>${escapeXml(`${entry.form} - ${entry.company} (${entry.cik}) (Issuer)`)}</title>`,
      `<link rel="alternate" type="text/html" href="${link}"/>`,
      `<updated>${entry.filed_date}T00:00:00-05:00</updated>`,
      `<category scheme="https://www.sec.gov/" label="form type" term="${escapeXml(entry.form)}"/>`,
      `<id>urn:tag:sec.gov,2008:accession-number=${entry.accession_number}</id>`,
      '</entry>',
    ].join('');
  });
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Latest Filings (replay)</title>${items.join('\n')}</feed>\n`;
}

/** The answer to an EDGAR path, or null when the path is not one of EDGAR's. */
export function secReplayAnswer(
  entries: readonly SecReplayEntry[],
  path: string,
  query: URLSearchParams,
  baseUrl: string,
): SecReplayAnswer | null {
  const daily = /^\/Archives\/edgar\/daily-index\/\d{4}\/QTR[1-4]\/form\.(\d{4})(\d{2})(\d{2})\.idx$/.exec(
    path,
  );
  if (daily) {
    const date = `${daily[1]}-${daily[2]}-${daily[3]}`;
    if (`/Archives/${dailyIndexPath(date)}` !== path)
      return { status: 404, contentType: 'text/plain', body: 'not found' };
    const day = entries.filter((entry) => entry.filed_date === date);
    if (day.length === 0) return { status: 404, contentType: 'text/plain', body: 'no index for this date' };
    return { status: 200, contentType: 'text/plain', body: formIndex(date, day) };
  }
  const document = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10}-\d{2}-\d{6})\.txt$/.exec(path);
  if (document) {
    const entry = entries.find(
      (candidate) => candidate.accession_number === document[2] && candidate.cik === document[1],
    );
    if (!entry) return { status: 404, contentType: 'text/plain', body: 'not found' };
    return { status: 200, contentType: 'text/plain', body: new Uint8Array(readFileSync(entry.file)) };
  }
  if (path === '/cgi-bin/browse-edgar' && query.get('action') === 'getcurrent') {
    const type = query.get('type');
    const wanted = type ? formMatcher([type]) : () => true;
    const chosen = entries
      .filter((entry) => wanted(entry.form))
      .sort((a, b) => b.filed_date.localeCompare(a.filed_date));
    return { status: 200, contentType: 'application/atom+xml', body: atomFeed(baseUrl, chosen) };
  }
  return null;
}

/**
 * The SEC's company directory files recorded in the shared data (market/companies, saved with a
 * "sec_" prefix), by the name EDGAR serves each under /files/.
 */
function companyDirectoryFiles(dataDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of SEC_COMPANY_FILES) {
    const recorded = join(dataDir, 'market', 'companies', `sec_${name}`);
    if (existsSync(recorded)) files.set(`/files/${name}`, recorded);
  }
  return files;
}

export const secReplay: ReplaySite = {
  load(dataDir) {
    const entries = loadSecReplayCatalog(dataDir);
    const companyFiles = companyDirectoryFiles(dataDir);
    if (entries.length === 0 && companyFiles.size === 0) return null;
    return {
      summary: `SEC: ${entries.length} filings in daily indexes, ${companyFiles.size} company directory files`,
      answer({ method, path, query, baseUrl, withheld }) {
        if (method !== 'GET') return undefined;
        const companyFile = companyFiles.get(path);
        if (companyFile)
          return { status: 200, type: 'application/json', body: new Uint8Array(readFileSync(companyFile)) };
        // A withheld filing (by accession number) is in no index or feed, nor served, until published.
        const published = entries.filter((entry) => !withheld(entry.accession_number));
        const answer = secReplayAnswer(published, path, query, baseUrl);
        return answer ? { status: answer.status, type: answer.contentType, body: answer.body } : undefined;
      },
    };
  },
};
