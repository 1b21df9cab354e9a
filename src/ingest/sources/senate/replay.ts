// The Senate eFD site on the replay server, with its session flow:
//   GET  /search/home/               terms form (CSRF token + cookie)
//   POST /search/home/               agree: session cookie, redirect to /search/
//   POST /search/report/data/        search JSON (needs session + CSRF)
//   GET  /search/view/ptr/{uuid}/    report page (needs session)
// The reports are the recorded eFD PTR pages (files of pages saved back to back, split on the
// doctype), listed as eFD search rows. The pages do not carry their report UUID: a page gets the
// real one when the Senate Stock Watcher per-report files (`trades-senate/senate-stock-watcher/data`)
// recorded exactly one report of that filer, filed that day, with the same rows; otherwise a UUID
// derived from its content. Plus the recorded search rows of paper PTRs (real UUIDs, no page to
// serve: their page answers 404), and the paper filings a test registers with their page images
// (`addPaperFiling`), served as eFD shows one: a page of `img.filingImage` tags and the images.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDate } from '../../../domain/dates.js';
import { containsPhrase, nameTokens } from '../../../domain/names.js';
import { filesUnder } from '../../../files.js';
import {
  congressDir,
  notFound,
  type ReplayAnswer,
  type ReplayRequest,
  type ReplayRoutes,
  type ReplaySite,
} from '../replay-site.js';
import { parseSenatePtrPage } from './ptr-page.js';
import { parseSenateSearchResults } from './search-results.js';

export interface SenateReport {
  uuid: string;
  /** "ptr" pages are served; "paper" rows have a page only when a test registered one. */
  kind: 'ptr' | 'paper';
  html: string | null;
  /** The eFD search row: [first, last, office, link, MM/DD/YYYY]. */
  row: [string, string, string, string, string];
  filedDate: string;
}

/** A paper filing a test serves: its search row's fields and its page images, in page order. */
export interface ReplayPaperFiling {
  uuid: string;
  firstName: string;
  lastName: string;
  /** ISO date. */
  filedDate: string;
  images: Uint8Array[];
}

/** Where the replay serves paper filings' page images (eFD serves them from its media host). */
const MEDIA_PATH = /^\/media\/paper\/([0-9a-fA-F-]{36})\/(\d+)\.png$/;

export class SenateReplay implements ReplayRoutes {
  /** csrftoken cookie values handed out, with the form tokens issued for each. */
  private readonly csrf = new Map<string, Set<string>>();
  private readonly sessions = new Set<string>();
  /** The page images of the paper filings registered by `addPaperFiling`, by UUID. */
  private readonly paperImages = new Map<string, Uint8Array[]>();

  constructor(
    readonly reports: SenateReport[],
    readonly byUuid: Map<string, SenateReport>,
  ) {}

  get summary(): string {
    return `Senate: ${this.reports.length} reports`;
  }

  expireSessions(): void {
    this.sessions.clear();
  }

  /** Lists a paper filing and serves its page and page images from now on. */
  addPaperFiling(filing: ReplayPaperFiling): void {
    const uuid = filing.uuid.toLowerCase();
    const title = `Periodic Transaction Report for ${usDate(filing.filedDate)}`;
    const images = filing.images
      .map((_, index) => `<img class="filingImage" src="/media/paper/${uuid}/${index + 1}.png">`)
      .join('\n');
    const report: SenateReport = {
      uuid,
      kind: 'paper',
      html: `<!DOCTYPE HTML><html><head><title>eFD: View Paper Report</title></head><body>
<h1>${title}</h1>
<h2 class="filedReport">The Honorable ${filing.firstName} ${filing.lastName} (${filing.lastName}, ${filing.firstName})</h2>
${images}
</body></html>`,
      filedDate: filing.filedDate,
      row: [
        filing.firstName,
        filing.lastName,
        'Senator',
        `<a href="/search/view/paper/${uuid}/" target="_blank">${title}</a>`,
        usDate(filing.filedDate),
      ],
    };
    this.byUuid.set(uuid, report);
    this.reports.push(report);
    this.reports.sort(newestFirst);
    this.paperImages.set(uuid, [...filing.images]);
  }

  answer(request: ReplayRequest): ReplayAnswer | undefined {
    const { method, path } = request;
    if (method === 'GET') {
      if (path === '/search/home/') return this.agreementPage(request);
      if (path === '/search/') return this.requireSession(request, () => this.searchPage());
      const view = /^\/search\/view\/(ptr|paper)\/([0-9a-fA-F-]{36})\/$/.exec(path);
      if (view) {
        const uuid = (view[2] ?? '').toLowerCase();
        if (request.withheld(uuid)) return notFound();
        return this.requireSession(request, () => this.reportPage(uuid));
      }
      const media = MEDIA_PATH.exec(path);
      if (media) return this.pageImage((media[1] ?? '').toLowerCase(), Number(media[2]), request);
    }
    if (method === 'POST' && path === '/search/home/')
      return this.agree(request, new URLSearchParams(request.body));
    if (method === 'POST' && path === '/search/report/data/')
      return this.search(request, new URLSearchParams(request.body));
    return undefined;
  }

  private agreementPage(request: ReplayRequest): ReplayAnswer {
    const cookie = request.cookies.csrftoken;
    const secret = cookie && this.csrf.has(cookie) ? cookie : token();
    const formToken = token();
    const issued = this.csrf.get(secret) ?? new Set<string>();
    issued.add(formToken);
    this.csrf.set(secret, issued);
    return {
      status: 200,
      type: 'text/html; charset=utf-8',
      headers: { 'set-cookie': `csrftoken=${secret}; Path=/; SameSite=Lax` },
      body: `<!DOCTYPE html><html><head><title>eFD: Home</title></head><body>
<form method="post" action="/search/home/" id="agreement_form">
<input type="hidden" name="csrfmiddlewaretoken" value="${formToken}">
<p>Prohibition on use of Financial Disclosure Reports ...</p>
<input type="checkbox" name="prohibition_agreement" value="1" id="agree_statement">
<button type="submit">I understand the prohibitions on obtaining and use of financial disclosure reports.</button>
</form></body></html>`,
    };
  }

  /** Django accepts the form token issued with the cookie, or the cookie itself (AJAX posts). */
  private csrfValid(request: ReplayRequest, form: URLSearchParams): boolean {
    const cookie = request.cookies.csrftoken;
    if (!cookie || !this.csrf.has(cookie)) return false;
    const given = form.get('csrfmiddlewaretoken') ?? request.header('x-csrftoken');
    return (
      given !== undefined &&
      given !== null &&
      (given === cookie || (this.csrf.get(cookie)?.has(given) ?? false))
    );
  }

  private agree(request: ReplayRequest, form: URLSearchParams): ReplayAnswer {
    if (!this.csrfValid(request, form)) return csrfFailed();
    if (form.get('prohibition_agreement') !== '1') return redirect('/search/home/');
    const session = token();
    this.sessions.add(session);
    return redirect('/search/', { 'set-cookie': `sessionid=${session}; Path=/; HttpOnly; SameSite=Lax` });
  }

  private requireSession(request: ReplayRequest, next: () => ReplayAnswer): ReplayAnswer {
    const session = request.cookies.sessionid;
    if (session && this.sessions.has(session)) return next();
    const target = `${request.path}${request.query.size > 0 ? `?${request.query}` : ''}`;
    return redirect(`/search/home/?next=${encodeURIComponent(target)}`);
  }

  private searchPage(): ReplayAnswer {
    return {
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<!DOCTYPE html><html><head><title>eFD: Search</title></head><body><form id="searchForm"></form></body></html>',
    };
  }

  private search(request: ReplayRequest, form: URLSearchParams): ReplayAnswer {
    const session = request.cookies.sessionid;
    if (!session || !this.sessions.has(session)) return redirect('/search/home/');
    if (!this.csrfValid(request, form)) return csrfFailed();
    const types = form.get('report_types') ?? '[]';
    const from = parseDate((form.get('submitted_start_date') ?? '').split(' ')[0] ?? '');
    const to = parseDate((form.get('submitted_end_date') ?? '').split(' ')[0] ?? '');
    const wantsPtr = types === '[]' || /\b11\b/.test(types);
    const published = this.reports.filter((report) => !request.withheld(report.uuid.toLowerCase()));
    const rows = published.filter(
      (report) => wantsPtr && (!from || report.filedDate >= from) && (!to || report.filedDate <= to),
    );
    const start = Math.max(0, Number(form.get('start') ?? 0) || 0);
    const length = Math.min(1000, Math.max(1, Number(form.get('length') ?? 100) || 100));
    const envelope = {
      draw: Number(form.get('draw') ?? 1) || 1,
      recordsTotal: published.length,
      recordsFiltered: rows.length,
      result: 'ok',
      data: rows.slice(start, start + length).map((report) => report.row),
    };
    return { status: 200, type: 'application/json', body: JSON.stringify(envelope) };
  }

  private pageImage(uuid: string, page: number, request: ReplayRequest): ReplayAnswer {
    const image = request.withheld(uuid) ? undefined : this.paperImages.get(uuid)?.[page - 1];
    return image ? { status: 200, type: 'image/png', body: image } : notFound();
  }

  private reportPage(uuid: string): ReplayAnswer {
    const report = this.byUuid.get(uuid.toLowerCase());
    if (!report?.html) return notFound();
    return { status: 200, type: 'text/html; charset=utf-8', body: report.html };
  }
}

export const senateReplay: ReplaySite = {
  load(dataDir) {
    const { reports, byUuid } = loadSenate(congressDir(dataDir));
    return new SenateReplay(reports, byUuid);
  },
};

function redirect(location: string, headers: Record<string, string> = {}): ReplayAnswer {
  return { status: 302, type: 'text/plain', body: '', headers: { ...headers, location } };
}

function csrfFailed(): ReplayAnswer {
  return { status: 403, type: 'text/html', body: '<h1>Forbidden (403)</h1><p>CSRF verification failed.</p>' };
}

function token(): string {
  return randomBytes(24).toString('hex');
}

function loadSenate(root: string): { reports: SenateReport[]; byUuid: Map<string, SenateReport> } {
  const reports: SenateReport[] = [];
  const byUuid = new Map<string, SenateReport>();
  const add = (report: SenateReport) => {
    if (byUuid.has(report.uuid)) return;
    byUuid.set(report.uuid, report);
    reports.push(report);
  };
  const known = loadKnownSenateReports(root);
  const seen = new Set<string>();
  for (const path of filesUnder(join(root, 'raw-senate', 'efd-ptr-html'), (name) => /\.html?$/i.test(name))) {
    for (const html of splitPages(readFileSync(path, 'utf8'))) {
      const page = parseSenatePtrPage(html);
      const filedDate = page.filing.filed_date;
      if (!filedDate) continue;
      // The recordings hold some pages twice: the same bytes are the same report.
      const hash = contentUuid(html);
      if (seen.has(hash)) continue;
      seen.add(hash);
      const recorded = recordedUuid(known, page, filedDate);
      const uuid = recorded && !byUuid.has(recorded) ? recorded : hash;
      const [first, last] = nameParts(page.filing);
      const title = page.filing.title ?? 'Periodic Transaction Report';
      add({
        uuid,
        kind: 'ptr',
        html,
        filedDate,
        row: [
          first,
          last,
          `${last}, ${first} (${page.filing.filer_status ?? 'Senator'})`,
          `<a href="/search/view/ptr/${uuid}/" target="_blank">${title}</a>`,
          usDate(filedDate),
        ],
      });
    }
  }
  for (const path of filesUnder(join(root, 'raw-senate', 'efd-search-json'), (name) =>
    /\.json$/i.test(name),
  )) {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const rows = Array.isArray(json) ? json : [];
    const parsed = parseSenateSearchResults(rows).rows;
    parsed.forEach((row, index) => {
      const raw = rows[index];
      if (!row.is_ptr || !row.is_paper || !row.report_id || !row.filed_date || !isRow(raw)) return;
      add({ uuid: row.report_id, kind: 'paper', html: null, filedDate: row.filed_date, row: raw });
    });
  }
  reports.sort(newestFirst);
  return { reports, byUuid };
}

function newestFirst(a: SenateReport, b: SenateReport): number {
  return b.filedDate.localeCompare(a.filedDate) || a.uuid.localeCompare(b.uuid);
}

interface KnownSenateReport {
  uuid: string;
  /** The filer's last name as word tokens. */
  lastName: string[];
  /** ISO transaction dates of its rows, sorted. */
  dates: string[];
}

/** The eFD report UUIDs the Senate Stock Watcher per-report files recorded, by ISO filed date. */
function loadKnownSenateReports(root: string): Map<string, KnownSenateReport[]> {
  const known = new Map<string, KnownSenateReport[]>();
  const dir = join(root, 'trades-senate', 'senate-stock-watcher', 'data');
  for (const path of filesUnder(dir, (name) => /\.json$/i.test(name))) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      continue; // not ours to judge here: `import trades` reports unreadable files
    }
    if (!Array.isArray(json)) continue;
    for (const report of json as unknown[]) {
      if (typeof report !== 'object' || report === null) continue;
      const { ptr_link, last_name, date_recieved, transactions } = report as Record<string, unknown>;
      const uuid =
        typeof ptr_link === 'string' ? /\/ptr\/([0-9a-f-]{36})\/?/i.exec(ptr_link)?.[1] : undefined;
      const filed = typeof date_recieved === 'string' ? parseDate(date_recieved) : null;
      if (!uuid || !filed || typeof last_name !== 'string' || !Array.isArray(transactions)) continue;
      const dates = transactions.map((row) =>
        parseDate(String((row as Record<string, unknown> | null)?.transaction_date ?? '')),
      );
      const entry = {
        uuid: uuid.toLowerCase(),
        lastName: nameTokens(last_name),
        dates: dates.map((date) => date ?? '').sort(),
      };
      known.set(filed, [...(known.get(filed) ?? []), entry]);
    }
  }
  return known;
}

/**
 * The real UUID of a recorded page: the one recorded report of the same filer (last name), filed the
 * same day, with as many rows and the same transaction dates. Anything less certain is no match.
 */
function recordedUuid(
  known: Map<string, KnownSenateReport[]>,
  page: ReturnType<typeof parseSenatePtrPage>,
  filedDate: string,
): string | null {
  const names = [page.filing.filer_last_name, page.filing.filer_display_name, page.filing.filer_name]
    .filter((name): name is string => Boolean(name))
    .map(nameTokens);
  const rows = page.trades.length + page.rejected.length;
  const dates = page.trades.map((trade) => trade.transaction_date);
  const matches = (known.get(filedDate) ?? []).filter(
    (report) =>
      names.some((tokens) => containsPhrase(tokens, report.lastName)) &&
      report.dates.length === rows &&
      containsAll(report.dates, dates),
  );
  return matches.length === 1 ? (matches[0]?.uuid ?? null) : null;
}

/** Whether every value of `part` is in `whole`, counting repeats (both may be unsorted). */
function containsAll(whole: string[], part: string[]): boolean {
  const left = new Map<string, number>();
  for (const value of whole) left.set(value, (left.get(value) ?? 0) + 1);
  for (const value of part) {
    const n = left.get(value) ?? 0;
    if (n === 0) return false;
    left.set(value, n - 1);
  }
  return true;
}

function isRow(value: unknown): value is [string, string, string, string, string] {
  return Array.isArray(value) && value.length === 5 && value.every((cell) => typeof cell === 'string');
}

function splitPages(html: string): string[] {
  return html.split(/(?=<!DOCTYPE html>)/i).filter((part) => /<html/i.test(part));
}

/** A stable UUID-shaped id from a page's bytes (eFD report ids are random v4 UUIDs). */
export function contentUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function nameParts(filing: {
  filer_first_name: string | null;
  filer_last_name: string | null;
  filer_display_name: string | null;
}): [string, string] {
  if (filing.filer_first_name && filing.filer_last_name)
    return [filing.filer_first_name, filing.filer_last_name];
  const words = (filing.filer_display_name ?? '').split(/\s+/).filter(Boolean);
  return [words.slice(0, -1).join(' '), words.at(-1) ?? ''];
}

function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}
