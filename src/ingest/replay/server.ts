// A local stand-in for the three official sites, replaying the recorded real documents at the
// paths the connectors use, so tests and newcomers can run a full ingest without the network:
//   House Clerk  GET  /public_disc/financial-pdfs/{YEAR}FD.zip    index zip, built from the recording
//                GET  /public_disc/ptr-pdfs/{YEAR}/{DocID}.pdf
//   Senate eFD   GET  /search/home/                               terms form (CSRF token + cookie)
//                POST /search/home/                               agree: session cookie, redirect to /search/
//                POST /search/report/data/                        search JSON (needs session + CSRF)
//                GET  /search/view/ptr/{uuid}/                    report page (needs session)
//   OGE          GET  /278t/                                      HTML listing of the PDFs
//                GET  /278t/{file name}
//   LDA, USAspending: the paths related.ts lists
//   Voteview     GET  /static/data/out/{rollcalls|members|votes}/{H119}_{kind}.csv   roll-call sets
//   Prices       GET  /q/d/l/ (Stooq), /tiingo/daily/{ticker}/prices (Tiingo): prices.ts
// Faults can be injected (`failNext`) to test retries; every request is logged in `requests`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseDate } from '../../domain/dates.js';
import { houseIndexZip, loadCatalog, type ReplayCatalog } from './catalog.js';
import { PriceReplay } from './prices.js';
import { RelatedReplay } from './related.js';
import { loadSecReplayCatalog, type SecReplayEntry, secReplayAnswer } from './sec.js';

export interface ReplayServerOptions {
  dataDir: string;
  port?: number;
  host?: string;
}

export interface ReplayRequest {
  method: string;
  path: string;
  status: number;
}

interface Fault {
  matches: (path: string) => boolean;
  status: number;
  remaining: number;
}

export const OGE_LISTING_PATH = '/278t/';

export class ReplayServer {
  readonly catalog: ReplayCatalog;
  /** The recorded SEC documents, served at EDGAR's paths. */
  readonly sec: SecReplayEntry[];
  readonly requests: ReplayRequest[] = [];
  private server: Server | undefined;
  private readonly faults: Fault[] = [];
  private readonly zips = new Map<number, Uint8Array>();
  /** csrftoken cookie values handed out, with the form tokens issued for each. */
  private readonly csrf = new Map<string, Set<string>>();
  private readonly sessions = new Set<string>();

  /** LDA and USAspending answers (related.ts). */
  readonly related: RelatedReplay;

  /** The price providers' answers (prices.ts); `prices.until` holds back newer closes. */
  readonly prices: PriceReplay;

  constructor(private readonly options: ReplayServerOptions) {
    this.catalog = loadCatalog(options.dataDir);
    this.related = new RelatedReplay(options.dataDir);
    this.sec = loadSecReplayCatalog(options.dataDir);
    this.prices = new PriceReplay(options.dataDir);
  }

  async start(): Promise<string> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.send(request, response, 500, 'text/plain', `replay server error: ${String(error)}`);
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('replay server is not listening');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next `times` requests whose path matches answer `status` (default 503) instead. */
  failNext(path: string | RegExp, times: number, status = 503): void {
    const matches =
      typeof path === 'string'
        ? (candidate: string) => candidate === path
        : (candidate: string) => path.test(candidate);
    this.faults.push({ matches, status, remaining: times });
  }

  /** Forgets every Senate session, as when the site's sessions expire. */
  expireSessions(): void {
    this.sessions.clear();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://replay.invalid');
    const path = decodeURIComponent(url.pathname);
    const fault = this.faults.find((candidate) => candidate.remaining > 0 && candidate.matches(path));
    if (fault) {
      fault.remaining -= 1;
      return this.send(request, response, fault.status, 'text/plain', `injected fault ${fault.status}`);
    }
    const method = request.method ?? 'GET';
    const body = method === 'POST' ? await readBody(request) : '';
    if (method === 'GET') {
      const house = /^\/public_disc\/financial-pdfs\/(\d{4})FD\.zip$/.exec(path);
      if (house) return this.houseIndex(request, response, Number(house[1]));
      const pdf = /^\/public_disc\/ptr-pdfs\/(\d{4})\/(\d+)\.pdf$/.exec(path);
      if (pdf) return this.housePdf(request, response, Number(pdf[1]), pdf[2] ?? '');
      if (path === '/search/home/') return this.agreementPage(request, response);
      if (path === '/search/')
        return this.requireSession(request, response, () => this.searchPage(request, response));
      const view = /^\/search\/view\/(ptr|paper)\/([0-9a-fA-F-]{36})\/$/.exec(path);
      if (view)
        return this.requireSession(request, response, () =>
          this.reportPage(request, response, view[2] ?? ''),
        );
      const voteview =
        /^\/static\/data\/out\/(rollcalls|members|votes)\/([HS]\d{2,3})_(rollcalls|members|votes)\.csv$/.exec(
          path,
        );
      if (voteview && voteview[1] === voteview[3])
        return this.voteviewFile(request, response, `${voteview[2]}_${voteview[3]}.csv`);
      if (path === OGE_LISTING_PATH) return this.ogeListing(request, response);
      if (path.startsWith(OGE_LISTING_PATH))
        return this.ogePdf(request, response, path.slice(OGE_LISTING_PATH.length));
    }
    if (method === 'GET') {
      const sec = secReplayAnswer(this.sec, path, url.searchParams, this.url);
      if (sec) return this.send(request, response, sec.status, sec.contentType, sec.body);
    }
    if (method === 'POST' && path === '/search/home/')
      return this.agree(request, response, new URLSearchParams(body));
    if (method === 'POST' && path === '/search/report/data/')
      return this.search(request, response, new URLSearchParams(body));
    const price = this.prices.handle(method, path, url.searchParams, request.headers);
    if (price) return this.send(request, response, price.status, price.type, price.body);
    const related = this.related.handle(method, path, url.searchParams, body, this.url);
    if (related) return this.send(request, response, related.status, related.type, related.body);
    return this.send(request, response, 404, 'text/plain', 'not found');
  }

  /** Voteview download files, recorded under related/votes/voteview of the shared data. */
  private voteviewFile(request: IncomingMessage, response: ServerResponse, name: string) {
    const path = join(this.options.dataDir, 'related', 'votes', 'voteview', name);
    if (!existsSync(path)) return this.send(request, response, 404, 'text/plain', 'not found');
    return this.send(request, response, 200, 'text/csv', readFileSync(path));
  }

  private houseIndex(request: IncomingMessage, response: ServerResponse, year: number) {
    const entry = this.catalog.house.years.get(year);
    if (!entry) return this.send(request, response, 404, 'text/plain', 'not found');
    let zip = this.zips.get(year);
    if (!zip) {
      zip = houseIndexZip(entry);
      this.zips.set(year, zip);
    }
    return this.send(request, response, 200, 'application/zip', zip);
  }

  private housePdf(request: IncomingMessage, response: ServerResponse, year: number, docId: string) {
    const file = this.catalog.house.pdfs.get(docId);
    if (!file || !this.catalog.house.years.get(year)?.docIds.has(docId)) {
      return this.send(request, response, 404, 'text/plain', 'not found');
    }
    return this.send(request, response, 200, 'application/pdf', readFileSync(file));
  }

  private agreementPage(request: IncomingMessage, response: ServerResponse) {
    const cookie = cookies(request).csrftoken;
    const secret = cookie && this.csrf.has(cookie) ? cookie : token();
    const formToken = token();
    const issued = this.csrf.get(secret) ?? new Set<string>();
    issued.add(formToken);
    this.csrf.set(secret, issued);
    response.setHeader('set-cookie', `csrftoken=${secret}; Path=/; SameSite=Lax`);
    return this.send(
      request,
      response,
      200,
      'text/html; charset=utf-8',
      `<!DOCTYPE html><html><head><title>eFD: Home</title></head><body>
<form method="post" action="/search/home/" id="agreement_form">
<input type="hidden" name="csrfmiddlewaretoken" value="${formToken}">
<p>Prohibition on use of Financial Disclosure Reports ...</p>
<input type="checkbox" name="prohibition_agreement" value="1" id="agree_statement">
<button type="submit">I understand the prohibitions on obtaining and use of financial disclosure reports.</button>
</form></body></html>`,
    );
  }

  /** Django accepts the form token issued with the cookie, or the cookie itself (AJAX posts). */
  private csrfValid(request: IncomingMessage, form: URLSearchParams): boolean {
    const cookie = cookies(request).csrftoken;
    if (!cookie || !this.csrf.has(cookie)) return false;
    const given = form.get('csrfmiddlewaretoken') ?? headerValue(request, 'x-csrftoken');
    return (
      given !== undefined &&
      given !== null &&
      (given === cookie || (this.csrf.get(cookie)?.has(given) ?? false))
    );
  }

  private csrfFailed(request: IncomingMessage, response: ServerResponse) {
    return this.send(
      request,
      response,
      403,
      'text/html',
      '<h1>Forbidden (403)</h1><p>CSRF verification failed.</p>',
    );
  }

  private agree(request: IncomingMessage, response: ServerResponse, form: URLSearchParams) {
    if (!this.csrfValid(request, form)) return this.csrfFailed(request, response);
    if (form.get('prohibition_agreement') !== '1') return this.redirect(request, response, '/search/home/');
    const session = token();
    this.sessions.add(session);
    response.setHeader('set-cookie', `sessionid=${session}; Path=/; HttpOnly; SameSite=Lax`);
    return this.redirect(request, response, '/search/');
  }

  private requireSession(request: IncomingMessage, response: ServerResponse, next: () => void) {
    const session = cookies(request).sessionid;
    if (session && this.sessions.has(session)) return next();
    return this.redirect(
      request,
      response,
      `/search/home/?next=${encodeURIComponent(request.url ?? '/search/')}`,
    );
  }

  private searchPage(request: IncomingMessage, response: ServerResponse) {
    return this.send(
      request,
      response,
      200,
      'text/html; charset=utf-8',
      '<!DOCTYPE html><html><head><title>eFD: Search</title></head><body><form id="searchForm"></form></body></html>',
    );
  }

  private search(request: IncomingMessage, response: ServerResponse, form: URLSearchParams) {
    const session = cookies(request).sessionid;
    if (!session || !this.sessions.has(session)) return this.redirect(request, response, '/search/home/');
    if (!this.csrfValid(request, form)) return this.csrfFailed(request, response);
    const types = form.get('report_types') ?? '[]';
    const from = parseDate((form.get('submitted_start_date') ?? '').split(' ')[0] ?? '');
    const to = parseDate((form.get('submitted_end_date') ?? '').split(' ')[0] ?? '');
    const wantsPtr = types === '[]' || /\b11\b/.test(types);
    const rows = this.catalog.senate.reports.filter(
      (report) => wantsPtr && (!from || report.filedDate >= from) && (!to || report.filedDate <= to),
    );
    const start = Math.max(0, Number(form.get('start') ?? 0) || 0);
    const length = Math.min(1000, Math.max(1, Number(form.get('length') ?? 100) || 100));
    const envelope = {
      draw: Number(form.get('draw') ?? 1) || 1,
      recordsTotal: this.catalog.senate.reports.length,
      recordsFiltered: rows.length,
      result: 'ok',
      data: rows.slice(start, start + length).map((report) => report.row),
    };
    return this.send(request, response, 200, 'application/json', JSON.stringify(envelope));
  }

  private reportPage(request: IncomingMessage, response: ServerResponse, uuid: string) {
    const report = this.catalog.senate.byUuid.get(uuid.toLowerCase());
    if (!report?.html) return this.send(request, response, 404, 'text/plain', 'not found');
    return this.send(request, response, 200, 'text/html; charset=utf-8', report.html);
  }

  private ogeListing(request: IncomingMessage, response: ServerResponse) {
    const links = [...this.catalog.oge.pdfs.keys()]
      .map(
        (name) => `<li><a href="${OGE_LISTING_PATH}${encodeURIComponent(name)}">${escapeHtml(name)}</a></li>`,
      )
      .join('\n');
    return this.send(
      request,
      response,
      200,
      'text/html; charset=utf-8',
      `<!DOCTYPE html><html><head><title>OGE 278-T</title></head><body><ul>\n${links}\n</ul></body></html>`,
    );
  }

  private ogePdf(request: IncomingMessage, response: ServerResponse, name: string) {
    const file = this.catalog.oge.pdfs.get(name);
    if (!file) return this.send(request, response, 404, 'text/plain', 'not found');
    return this.send(request, response, 200, 'application/pdf', readFileSync(file));
  }

  private redirect(request: IncomingMessage, response: ServerResponse, location: string) {
    response.setHeader('location', location);
    return this.send(request, response, 302, 'text/plain', '');
  }

  private send(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    type: string,
    body: string | Uint8Array,
  ) {
    this.requests.push({
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0] ?? '/',
      status,
    });
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function cookies(request: IncomingMessage): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) jar[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return jar;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function token(): string {
  return randomBytes(24).toString('hex');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
