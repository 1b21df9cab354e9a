import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListingValidator, ListingValidators } from './conditional.js';
import { DocumentTooLargeError, FetchError, HttpClient, parseRetryAfter } from './http-client.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

describe('HttpClient against a local server', () => {
  let server: Server;
  let base = '';
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const sleeps: number[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const handler = routes.get(path);
      if (!handler) {
        response.writeHead(404).end('not found');
        return;
      }
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
    new HttpClient({
      timeoutMs: 2000,
      retries: 3,
      minIntervalMs: 0,
      backoffMs: 100,
      userAgent: 'dcledger-test',
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...overrides,
    });

  it('asks a listing conditionally with what it last answered, and keeps the validators only once committed', async () => {
    const STAMP = 'Tue, 02 Jun 2026 10:00:00 GMT';
    const asked: Array<string | undefined> = [];
    routes.set('/index', (request, response) => {
      asked.push(request.headers['if-modified-since']);
      if (request.headers['if-modified-since'] === STAMP) response.writeHead(304).end();
      else response.writeHead(200, { 'last-modified': STAMP }).end('rows');
    });
    const saved: ListingValidator[] = [];
    const validators = new ListingValidators([], { save: async (validator) => void saved.push(validator) });
    validators.listingFrom('2025-01-01');
    const http = client();
    expect((await http.getListing(`${base}/index`, validators)).status).toBe(200);
    // Not committed (the run stopped before recording the listing): still asked unconditionally.
    expect((await http.getListing(`${base}/index`, validators)).status).toBe(200);
    await validators.commit('2026-06-02T10:00:01Z');
    expect(saved).toEqual([
      { url: `${base}/index`, etag: null, lastModified: STAMP, listedSince: '2025-01-01' },
    ]);
    const third = await http.getListing(`${base}/index`, validators);
    expect({ status: third.status, body: third.body.length, notModified: validators.notModified }).toEqual({
      status: 304,
      body: 0,
      notModified: 1,
    });
    // A run listing from an earlier date cannot trust a 304 given for a later window.
    validators.listingFrom('2024-01-01');
    expect((await http.getListing(`${base}/index`, validators)).status).toBe(200);
    expect(asked).toEqual([undefined, undefined, STAMP, undefined]);
  });

  it('retries server errors with exponential backoff, then succeeds', async () => {
    routes.set('/flaky', (_request, response) => {
      const n = hits.get('/flaky') ?? 0;
      if (n <= 2) response.writeHead(503).end('busy');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('finally');
    });
    sleeps.length = 0;
    const document = await client().get(`${base}/flaky`);
    expect(document.body.toString()).toBe('finally');
    expect(hits.get('/flaky')).toBe(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('honours Retry-After on 429', async () => {
    routes.set('/limited', (_request, response) => {
      if ((hits.get('/limited') ?? 0) === 1) response.writeHead(429, { 'retry-after': '7' }).end();
      else response.writeHead(200).end('ok');
    });
    sleeps.length = 0;
    await client().get(`${base}/limited`);
    expect(sleeps).toEqual([7000]);
  });

  it('does not retry a 404 and says which URL failed', async () => {
    await expect(client().get(`${base}/missing`)).rejects.toThrow(FetchError);
    expect(hits.get('/missing')).toBe(1);
    const accepted = await client().get(`${base}/missing`, { acceptStatuses: [404] });
    expect(accepted.status).toBe(404);
  });

  it('gives up after its retries on a server that hangs past the timeout', async () => {
    routes.set('/hang', () => undefined);
    await expect(client({ timeoutMs: 100, retries: 1 }).get(`${base}/hang`)).rejects.toThrow(/hang/);
    expect(hits.get('/hang')).toBe(2);
  });

  it('keeps session cookies per host and sends form posts', async () => {
    routes.set('/login', (_request, response) => {
      response
        .writeHead(200, { 'set-cookie': ['csrftoken=abc123; Path=/', 'sessionid=s1; HttpOnly'] })
        .end('ok');
    });
    routes.set('/data', (request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () =>
        response.writeHead(200).end(JSON.stringify({ cookie: request.headers.cookie, body })),
      );
    });
    const http = client();
    await http.get(`${base}/login`);
    expect(http.cookie(new URL(base).host, 'csrftoken')).toBe('abc123');
    const answer = await http.request(`${base}/data`, { method: 'POST', form: { a: '1', b: 'x y' } });
    expect(JSON.parse(answer.body.toString())).toEqual({
      cookie: 'csrftoken=abc123; sessionid=s1',
      body: 'a=1&b=x+y',
    });
  });

  it('stops reading an endless body at the limit, closes the connection and does not retry', async () => {
    let written = 0;
    let closed: () => void = () => undefined;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    routes.set('/endless', (_request, response) => {
      // A constructed "PDF": the header, then junk for as long as the client keeps reading.
      response.writeHead(200, { 'content-type': 'application/pdf' });
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const pump = () => {
        while (!response.destroyed && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (
            !response.write(
              written === chunk.length ? Buffer.concat([Buffer.from('%PDF-1.4\n'), chunk]) : chunk,
            )
          )
            return;
        }
      };
      response.on('drain', pump);
      response.on('close', () => closed());
      pump();
    });
    const error = await client({ maxBytes: 1024 * 1024 })
      .get(`${base}/endless`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect((error as DocumentTooLargeError).limitBytes).toBe(1024 * 1024);
    expect((error as Error).message).toMatch(/larger than the limit of 1 MB/);
    expect(hits.get('/endless')).toBe(1);
    await connectionClosed;
    // The server could push only what the socket buffers held beyond the limit.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    routes.set('/announced', (_request, response) => {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      response.write(Buffer.alloc(1024));
    });
    const http = client({ maxBytes: 1024 * 1024 });
    await expect(http.get(`${base}/announced`)).rejects.toThrow(/announced 10 MB/);
    // A request may raise the limit for itself; a body within the limit is read whole.
    routes.set('/small', (_request, response) => response.writeHead(200).end(Buffer.alloc(2048, 1)));
    expect((await http.get(`${base}/small`, { maxBytes: 4096 })).body.length).toBe(2048);
    await expect(http.get(`${base}/small`, { maxBytes: 1000 })).rejects.toThrow(DocumentTooLargeError);
  });

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 16:00:10 GMT', Date.parse('2026-11-22T16:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
