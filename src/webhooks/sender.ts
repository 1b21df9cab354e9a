// Sends one signed delivery: an HTTP POST through an undici Agent whose connections can only reach
// addresses the SSRF guard accepts (judged on the address each socket actually connects to).
import { performance } from 'node:perf_hooks';
import type { Agent, buildConnector, request } from 'undici';
import { type AddressPolicy, BlockedAddressError, guardedLookup, judgeAddress } from './address-guard.js';

export interface OutgoingDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type SendResult =
  | { ok: true; statusCode: number; latencyMs: number; retryAfter: string | undefined }
  | {
      ok: false;
      /** The receiver's status, or null when no answer came (refused address, network, timeout). */
      statusCode: number | null;
      latencyMs: number;
      retryAfter: string | undefined;
      error: string;
      /** The SSRF guard refused the address. */
      blocked: boolean;
    };

export interface WebhookSender {
  send(delivery: OutgoingDelivery): Promise<SendResult>;
  close(): Promise<void>;
}

/** Bytes of a receiver's answer that are read (and discarded) before the connection is reused. */
const MAX_ANSWER_BYTES = 64 * 1024;
/**
 * How long the answer's body may take once the status line is in (never past the total deadline).
 * A delivery counts only when the whole answer arrived: a receiver that sends its status at once and
 * then trickles the body would otherwise keep a slot for the whole timeout.
 */
export const ANSWER_BODY_GRACE_MS = 1000;

export function createSender(options: {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Connections per receiver origin (default 32); a worker passes its concurrency. */
  connections?: number;
}): WebhookSender {
  // undici is loaded at the first delivery: an API process that never sends one does not hold it.
  let client: Promise<{ agent: Agent; request: typeof request }> | undefined;
  const open = () =>
    (client ??= import('undici').then((undici) => ({
      agent: new undici.Agent({
        connect: guardedConnector(undici.buildConnector, options.policy, options.timeoutMs),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        // At least one connection per slot: a send queued for a connection spends its timeout waiting,
        // and one that times out after the receiver took it is sent again.
        connections: Math.max(32, options.connections ?? 0),
      }),
      request: undici.request,
    })));
  return {
    async send(delivery) {
      const { agent, request } = await open();
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const deadline = AbortSignal.timeout(options.timeoutMs);
      try {
        const answer = await request(delivery.url, {
          method: 'POST',
          body: delivery.body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'dcledger-webhooks/1',
            ...delivery.headers,
          },
          dispatcher: agent,
          // One deadline for the whole exchange: connect, send, status line and answer body.
          signal: deadline,
        });
        const retryAfter = headerText(answer.headers['retry-after']);
        const bodyMs = Math.min(ANSWER_BODY_GRACE_MS, Math.max(0, options.timeoutMs - elapsed()));
        const bodyDone = await answer.body
          .dump({ limit: MAX_ANSWER_BYTES, signal: AbortSignal.any([deadline, AbortSignal.timeout(bodyMs)]) })
          .then(
            () => true,
            () => false,
          );
        if (!bodyDone)
          // Whatever the status said, an answer that did not arrive whole is not an answer: the
          // attempt fails and is retried under the same delivery id (receivers dedupe on it).
          return {
            ok: false,
            statusCode: answer.statusCode,
            latencyMs: elapsed(),
            retryAfter,
            error: `answer body not complete within ${bodyMs} ms of the status (deadline ${options.timeoutMs} ms)`,
            blocked: false,
          };
        if (answer.statusCode >= 200 && answer.statusCode < 300)
          return { ok: true, statusCode: answer.statusCode, latencyMs: elapsed(), retryAfter };
        return {
          ok: false,
          statusCode: answer.statusCode,
          latencyMs: elapsed(),
          retryAfter,
          error: `receiver answered ${answer.statusCode}`,
          blocked: false,
        };
      } catch (error) {
        return {
          ok: false,
          statusCode: null,
          latencyMs: elapsed(),
          retryAfter: undefined,
          error: describe(error, options.timeoutMs),
          blocked: isBlocked(error),
        };
      }
    },
    async close() {
      if (client) await (await client).agent.close();
    },
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isBlocked(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof BlockedAddressError) return true;
    current = current.cause;
  }
  return false;
}

function describe(error: unknown, timeoutMs: number): string {
  if (isBlocked(error)) {
    let current: unknown = error;
    while (current instanceof Error && !(current instanceof BlockedAddressError)) current = current.cause;
    return `address refused: ${current instanceof Error ? current.message : 'blocked'}`;
  }
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.name))
      return `no answer within ${timeoutMs} ms`;
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/**
 * undici's connector with the guard in front: names are resolved through the guarded lookup, IP
 * literals (which net.connect never looks up) are judged before connecting, and the socket's
 * remote address is judged once more after connecting.
 */
function guardedConnector(
  build: typeof buildConnector,
  policy: AddressPolicy,
  timeoutMs: number,
): buildConnector.connector {
  const connect = build({ timeout: timeoutMs, lookup: guardedLookup(policy) });
  return (options, callback) => {
    const host = options.hostname;
    const literal = judgeLiteral(host, policy);
    if (literal) {
      callback(literal, null);
      return;
    }
    connect(options, (error, socket) => {
      if (error || !socket) {
        callback(error ?? new Error('connect failed'), null);
        return;
      }
      const remote = socket.remoteAddress;
      const verdict = remote
        ? judgeAddress(remote, policy.allow)
        : { allowed: false, reason: 'unknown peer' };
      if (!verdict.allowed) {
        socket.destroy();
        callback(new BlockedAddressError(`connected to ${verdict.reason}, which is not allowed`), null);
        return;
      }
      callback(null, socket);
    });
  };
}

function judgeLiteral(host: string, policy: AddressPolicy): BlockedAddressError | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (!/^[\d.]+$/.test(bare) && !bare.includes(':')) return null;
  const verdict = judgeAddress(bare, policy.allow);
  return verdict.allowed ? null : new BlockedAddressError(`${verdict.reason} is not allowed`);
}
