// Every refusal, the framework's own included, answers `{ detail, request_id, code }` and never
// echoes the raw path back.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_OF } from '../../errors.js';
import { type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { frameworkErrorOptions } from './errors.js';

interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
  raw: string;
}

/** Sends raw bytes to the listening server: the only way to reach Node's own parser refusals. */
function rawRequest(port: number, text: string): Promise<ErrorAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      try {
        resolve({ status, body: JSON.parse(body) as Record<string, unknown>, raw: received });
      } catch (error) {
        reject(new Error(`not JSON: ${received.slice(0, 300)} (${String(error)})`));
      }
    });
  });
}

function expectErrorShape(answer: ErrorAnswer, status: number, code: string, secret?: string): void {
  expect(answer.status).toBe(status);
  expect(typeof answer.body.detail).toBe('string');
  expect(typeof answer.body.request_id).toBe('string');
  expect(answer.body.code).toBe(code);
  expect(STATUS_OF[code as keyof typeof STATUS_OF]).toBe(status);
  if (secret) expect(answer.raw).not.toContain(secret);
}

describe('error bodies', () => {
  let ctx: FixtureApp;
  let port: number;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => ctx.close());

  const inject = async (options: InjectOptions): Promise<ErrorAnswer> => {
    const response = await ctx.app.inject(options);
    return { status: response.statusCode, body: response.json(), raw: response.payload };
  };

  it('an unknown route: 404 not_found without the path', async () => {
    expectErrorShape(await inject({ url: '/no-such-place-zq9' }), 404, 'not_found', 'zq9');
  });

  it('bad percent-encoding: 400 bad_request without the path', async () => {
    expectErrorShape(await inject({ url: '/trades/%zzmarker' }), 400, 'bad_request', 'marker');
    expectErrorShape(await inject({ url: '/nope%zzmarker' }), 400, 'bad_request', 'marker');
  });

  it('an over-long path: 414 uri_too_long', async () => {
    // Letters no request id (a UUID, hex digits) can hold, so finding them means the path was echoed.
    expectErrorShape(await inject({ url: `/trades?q=${'q'.repeat(9000)}` }), 414, 'uri_too_long', 'qqqq');
    expectErrorShape(await inject({ url: `/politicians/${'z'.repeat(300)}` }), 414, 'uri_too_long', 'zzzz');
  });

  it('a body too large: 413 payload_too_large', async () => {
    const answer = await inject({
      method: 'POST',
      url: '/alerts/subscriptions',
      headers: { 'dc-api-key': ctx.key, 'content-type': 'application/json' },
      payload: `{"webhook_url":"${'x'.repeat(1_100_000)}"}`,
    });
    expectErrorShape(answer, 413, 'payload_too_large');
  });

  it('a malformed JSON body and an unsupported media type', async () => {
    const headers = { 'dc-api-key': ctx.key };
    expectErrorShape(
      await inject({
        method: 'POST',
        url: '/alerts/subscriptions',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"webhook_url": secretmarker',
      }),
      400,
      'bad_request',
      'secretmarker',
    );
    expectErrorShape(
      await inject({
        method: 'POST',
        url: '/alerts/subscriptions',
        headers: { ...headers, 'content-type': 'text/x-marker' },
        payload: 'hello',
      }),
      415,
      'unsupported_media_type',
      'x-marker',
    );
  });

  it('service errors carry their code too (401 unauthorized, 422 unprocessable)', async () => {
    expectErrorShape(await inject({ url: '/trades' }), 401, 'unauthorized');
    expectErrorShape(
      await inject({ url: '/trades?limit=0', headers: { 'dc-api-key': ctx.key } }),
      422,
      'unprocessable',
    );
  });

  it('over-large headers: 431 headers_too_large as JSON', async () => {
    const answer = await rawRequest(
      port,
      `GET /trades HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`,
    );
    expectErrorShape(answer, 431, 'headers_too_large', 'hhhh');
  });

  it('NUL or CR inside a header and a garbage request line: 400 bad_request as JSON', async () => {
    expectErrorShape(
      await rawRequest(port, 'GET /trades HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\0b\r\n\r\n'),
      400,
      'bad_request',
    );
    expectErrorShape(
      await rawRequest(port, 'GET /trades HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\rb\r\n\r\n'),
      400,
      'bad_request',
    );
    expectErrorShape(await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_request');
  });

  it('a request whose headers do not arrive in time: 408 request_timeout as JSON', async () => {
    // Node's own timeout, shortened: the same client-error handler the API server is given.
    const server = createServer({
      headersTimeout: 200,
      requestTimeout: 300,
      connectionsCheckingInterval: 50,
    });
    server.on('clientError', frameworkErrorOptions.clientErrorHandler as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const slowPort = (server.address() as AddressInfo).port;
      const answer = await rawRequest(slowPort, 'GET /trades HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
      expectErrorShape(answer, 408, 'request_timeout');
      expect(answer.raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a real client sees the same body for an unknown route', async () => {
    const answer = await new Promise<ErrorAnswer>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/missing-route-marker' }, (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), raw: text }),
        );
      });
      request.on('error', reject);
      request.end();
    });
    expectErrorShape(answer, 404, 'not_found', 'marker');
  });
});
