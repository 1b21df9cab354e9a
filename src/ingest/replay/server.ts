// A local stand-in for the official sites, replaying the recorded real documents at the paths
// the connectors use, so tests and newcomers can run a full ingest without the network. Which
// paths it answers is each source's business: every registered source with recordings has a
// replay site (its folder's replay.ts) and the server asks them in registry order. The price
// providers' answers, which are market data rather than a source, are served beside them (prices.ts).
// Faults can be injected (`failNext`) to test retries; every request is logged in `requests`.
// Documents can be held back (`withhold`) and published later (`POST /_replay/publish`), as when a
// site adds a filing: the freshness tests and benchmark measure how soon it is found.
// Every GET answered 200 carries an ETag (a hash of its body) and a conditional GET whose
// If-None-Match names it is answered 304, as a static web server does: an index changes its ETag
// when a withheld document is published into it.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REGISTRY, type SourceRegistry } from '../sources/registry.js';
import type { ReplayAnswer, ReplayRequest, ReplayRoutes } from '../sources/replay-site.js';
import { PriceReplay } from './prices.js';

export interface ReplayServerOptions {
  dataDir: string;
  port?: number;
  host?: string;
  /** The sources replayed; default the registered ones. */
  registry?: SourceRegistry;
  /**
   * Document ids left out of every index and listing until published (House DocID, eFD UUID, OGE
   * file, EDGAR accession number, USAspending award key).
   */
  withhold?: readonly string[];
}

/** The path that publishes withheld documents: `POST {"ids": [...]}`, from loopback only. */
export const PUBLISH_PATH = '/_replay/publish';

export interface PublishOutcome {
  /** The ids that were withheld and are now served. */
  published: string[];
  /** The ids asked for that were not withheld (already published, or never withheld). */
  not_withheld: string[];
  /** How many documents are still withheld. */
  still_withheld: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

interface Fault {
  matches: (path: string) => boolean;
  status: number;
  remaining: number;
}

export class ReplayServer {
  readonly requests: LoggedRequest[] = [];
  private server: Server | undefined;
  private readonly faults: Fault[] = [];
  private readonly sites = new Map<string, ReplayRoutes>();
  /** Withheld ids, lower-cased (eFD UUIDs are case-insensitive; a file name is matched so too). */
  private readonly withheld: Set<string>;

  /** The price providers' answers (prices.ts); `prices.until` holds back newer closes. */
  readonly prices: PriceReplay;

  constructor(private readonly options: ReplayServerOptions) {
    this.prices = new PriceReplay(options.dataDir);
    this.withheld = new Set((options.withhold ?? []).map((id) => id.trim().toLowerCase()).filter(Boolean));
  }

  /** Serves the withheld documents among `ids` from now on. */
  publish(ids: readonly string[]): PublishOutcome {
    const published: string[] = [];
    const notWithheld: string[] = [];
    for (const id of ids) {
      if (this.withheld.delete(id.trim().toLowerCase())) published.push(id);
      else notWithheld.push(id);
    }
    return { published, not_withheld: notWithheld, still_withheld: this.withheld.size };
  }

  /** Loads every source's recordings, then listens; resolves with the server's address. */
  async start(): Promise<string> {
    const registry = this.options.registry ?? REGISTRY;
    for (const source of registry.sources) {
      const routes = (await source.load()).replay?.load(this.options.dataDir);
      if (routes) this.sites.set(source.manifest.name, routes);
    }
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.send(request, response, {
          status: 500,
          type: 'text/plain',
          body: `replay server error: ${String(error)}`,
        });
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

  /** What each replayed source serves, one phrase each (the banner of `dcledger replay-server`). */
  get summaries(): string[] {
    return [...this.sites.values()].map((routes) => routes.summary);
  }

  /** The routes of one source (tests read the recordings they serve). */
  routesOf<T extends ReplayRoutes>(source: string): T {
    const routes = this.sites.get(source);
    if (!routes) throw new Error(`the replay server serves nothing for ${source}`);
    return routes as T;
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

  /** Forgets every session the sites handed out, as when the sites' sessions expire. */
  expireSessions(): void {
    for (const routes of this.sites.values()) routes.expireSessions?.();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://replay.invalid');
    const path = decodeURIComponent(url.pathname);
    const fault = this.faults.find((candidate) => candidate.remaining > 0 && candidate.matches(path));
    if (fault) {
      fault.remaining -= 1;
      return this.send(request, response, {
        status: fault.status,
        type: 'text/plain',
        body: `injected fault ${fault.status}`,
      });
    }
    const method = request.method ?? 'GET';
    if (path === PUBLISH_PATH)
      return this.send(request, response, await this.publishRequest(request, method));
    const replayRequest: ReplayRequest = {
      method,
      path,
      query: url.searchParams,
      body: method === 'POST' ? await readBody(request) : '',
      cookies: cookies(request),
      header: (name) => {
        const value = request.headers[name.toLowerCase()];
        return Array.isArray(value) ? value[0] : value;
      },
      baseUrl: this.url,
      withheld: (id) => this.withheld.has(id.toLowerCase()),
    };
    for (const routes of this.sites.values()) {
      const answer = await routes.answer(replayRequest);
      if (answer) return this.send(request, response, answer);
    }
    const price = this.prices.handle(method, path, url.searchParams, request.headers);
    if (price) return this.send(request, response, price);
    return this.send(request, response, { status: 404, type: 'text/plain', body: 'not found' });
  }

  private async publishRequest(request: IncomingMessage, method: string): Promise<ReplayAnswer> {
    const refuse = (status: number, detail: string): ReplayAnswer => ({
      status,
      type: 'application/json',
      body: JSON.stringify({ detail }),
    });
    if (method !== 'POST') return refuse(405, `${PUBLISH_PATH} takes POST {"ids": [...]}`);
    if (!isLoopback(request.socket.remoteAddress))
      return refuse(403, `${PUBLISH_PATH} answers callers on this machine only`);
    let ids: unknown;
    try {
      ids = (JSON.parse(await readBody(request)) as { ids?: unknown }).ids;
    } catch {
      return refuse(400, 'The body must be JSON: {"ids": ["DocID or report UUID or file name", ...]}');
    }
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
      return refuse(400, '"ids" must be a list of document ids (strings)');
    return { status: 200, type: 'application/json', body: JSON.stringify(this.publish(ids)) };
  }

  private send(request: IncomingMessage, response: ServerResponse, answer: ReplayAnswer) {
    const method = request.method ?? 'GET';
    const etag =
      method === 'GET' && answer.status === 200
        ? `"${createHash('sha256').update(answer.body).digest('base64url').slice(0, 32)}"`
        : undefined;
    const notModified = etag !== undefined && matchesEtag(request.headers['if-none-match'], etag);
    const status = notModified ? 304 : answer.status;
    this.requests.push({ method, path: (request.url ?? '/').split('?')[0] ?? '/', status });
    const headers: Record<string, string> = { ...answer.headers, 'content-type': answer.type };
    if (etag) headers.etag = etag;
    response.writeHead(status, headers);
    response.end(notModified ? undefined : answer.body);
  }
}

/** If-None-Match: `*` or a list of entity tags, weak ones compared weakly (RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function isLoopback(address: string | undefined): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address ?? '');
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
