// Webhook test helpers: a real HTTP receiver on 127.0.0.1 that records every delivery and answers
// as told, a resolver that never touches DNS, and the runtime the tests use.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCidrList } from '../config/webhooks.js';
import type { Resolver } from '../webhooks/address-guard.js';
import { createWebhookRuntime, type WebhookRuntime } from '../webhooks/runtime.js';
import type { WorkerLogger } from '../webhooks/worker-options.js';

/** A fixed 32-byte key, so that tests exercise encrypted secrets. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
}

/**
 * How the receiver answers a delivery: a status (with headers), "hang" (never answers), or a status
 * whose body trickles (`trickle`: one byte every that many ms, never finished).
 */
export type Answer = { status: number; headers?: Record<string, string>; trickle?: number } | 'hang';
export type Responder = (delivery: ReceivedDelivery, index: number) => Answer | Promise<Answer>;

export class TestReceiver {
  readonly received: ReceivedDelivery[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];
  private readonly hanging = new Set<ServerResponse>();
  /** Requests being answered right now, and the most there ever were at once. */
  open = 0;
  maxOpen = 0;

  private constructor(
    private readonly server: Server,
    private responder: Responder,
  ) {}

  static async start(responder: Responder = () => ({ status: 204 })): Promise<TestReceiver> {
    let receiver: TestReceiver | undefined;
    const server = createServer((request, response) => {
      if (receiver) {
        const counted = receiver;
        counted.open += 1;
        counted.maxOpen = Math.max(counted.maxOpen, counted.open);
        response.once('close', () => {
          counted.open -= 1;
        });
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (receiver)
          void receiver.handle(request.method ?? '', request.url ?? '', request.headers, chunks, response);
      });
    });
    receiver = new TestReceiver(server, responder);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  answerWith(responder: Responder): void {
    this.responder = responder;
  }

  /** Resolves once `count` deliveries have arrived in all. */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver got ${this.received.length} of ${count} deliveries`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Ends every request left hanging (the sender has given up on them by then). */
  releaseHanging(): void {
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    this.releaseHanging();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    chunks: Buffer[],
    response: ServerResponse,
  ): Promise<void> {
    const delivery = { method, path, headers, body: Buffer.concat(chunks) };
    const index = this.received.push(delivery) - 1;
    this.waiters = this.waiters.filter((waiter) => {
      if (this.received.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
    const answer = await this.responder(delivery, index);
    if (answer === 'hang') {
      this.hanging.add(response);
      return;
    }
    if (answer.trickle !== undefined) {
      this.hanging.add(response);
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.flushHeaders();
      const timer = setInterval(() => response.write('.'), answer.trickle);
      response.once('close', () => clearInterval(timer));
      return;
    }
    response.writeHead(answer.status, answer.headers ?? {}).end();
  }
}

/** Resolves only the names given (no DNS at all); anything else is "not found". */
export function fixedResolver(names: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = names[hostname.toLowerCase()];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** The runtime tests use: 127.0.0.1/32 exempt (the receivers live there), no DNS, encrypted secrets. */
export function testWebhookRuntime(
  options: { allow?: string; names?: Record<string, string[]>; timeoutMs?: number } = {},
): WebhookRuntime {
  return createWebhookRuntime(
    {
      allowCidrs: parseCidrList(options.allow ?? '127.0.0.1/32'),
      secretKey: TEST_SECRET_KEY,
      timeoutMs: options.timeoutMs ?? 5000,
    },
    { resolve: fixedResolver(options.names ?? {}) },
  );
}

/** A logger that keeps what it is told, to check that no secret is ever logged. */
export class MemoryLogger implements WorkerLogger {
  readonly lines: string[] = [];

  info(fields: object, message: string): void {
    this.lines.push(JSON.stringify({ level: 'info', message, ...fields }, errorFields));
  }
  warn(fields: object, message: string): void {
    this.lines.push(JSON.stringify({ level: 'warn', message, ...fields }, errorFields));
  }
  error(fields: object, message: string): void {
    this.lines.push(JSON.stringify({ level: 'error', message, ...fields }, errorFields));
  }
  debug(fields: object, message: string): void {
    this.lines.push(JSON.stringify({ level: 'debug', message, ...fields }, errorFields));
  }
}

function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value;
}
