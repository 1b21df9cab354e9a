// Two stand-ins for a model provider's address, both on 127.0.0.1, for the assistant-model bench:
// - the recording proxy passes each request of the provider's SDK to the provider (key headers and
//   all) and hands every exchange to a Recorder, which keeps the bodies only;
// - the replay server answers each request with the response recorded for the same request (path,
//   model, system prompt, messages and tool results so far). A request it has no recording of is
//   answered 404 with why, never with a made-up answer, and counted as a miss.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  canonical,
  type Exchange,
  expandRecording,
  questionOf,
  type Recorder,
  type RecordingFile,
  requestKey,
} from './recording.js';

type Json = Record<string, unknown>;

export interface LocalServer {
  /** What DCLEDGER_ASSISTANT_BASE_URL points to. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface ReplayServer extends LocalServer {
  /** Why each request that had no recorded response was refused. */
  misses: string[];
  /** Recorded exchanges not asked for (yet). */
  unused(): number;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Json = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** An error body both SDKs read a message from (Anthropic's shape; OpenAI's reads `error.message`). */
function errorBody(type: string, message: string): Json {
  return { type: 'error', error: { type, message } };
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

// Headers that describe one hop, or the body the proxy re-encodes: not passed on.
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'keep-alive',
]);
// Response headers the SDKs act on (retry advice): passed back.
const RETRY_HEADERS = ['retry-after', 'retry-after-ms', 'x-should-retry'];

/** Passes the SDK's requests to `upstream` (the provider's base URL) and records each exchange. */
export async function startRecordingProxy(upstream: string, recorder: Recorder): Promise<LocalServer> {
  const base = upstream.replace(/\/+$/, '');
  const server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
      const path = request.url ?? '/';
      let answer: Response;
      try {
        answer = await fetch(`${base}${path}`, {
          method: request.method ?? 'POST',
          headers,
          ...(text === '' ? {} : { body: text }),
        });
      } catch (error) {
        // Not recorded: the SDK retries, and the retry's exchange is the one a replay needs.
        sendJson(response, 502, errorBody('proxy_error', `the provider did not answer: ${String(error)}`));
        return;
      }
      const answerText = await answer.text();
      const body = parse(text);
      if (typeof body === 'object' && body !== null && !Array.isArray(body))
        recorder.add({ path, body: body as Json, status: answer.status, response: parse(answerText) });
      const passed: Json = {};
      for (const name of RETRY_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) passed[name] = value;
      }
      sendJson(response, answer.status, answerText, passed);
    })().catch((error: unknown) => {
      sendJson(response, 502, errorBody('proxy_error', String(error)));
    });
  });
  return { baseUrl: await listen(server), close: closer(server) };
}

/** The index of the first message two message lists differ at (their shorter length when one begins the other). */
function firstDifference(a: unknown[], b: unknown[]): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1)
    if (canonical(a[index]) !== canonical(b[index])) return index;
  return length;
}

function whyMissing(path: string, body: Json, exchanges: readonly Exchange[], exhausted: boolean): string {
  const question = questionOf(body) ?? '(no user message)';
  if (exhausted) return `question "${question}": this request was recorded, but asked more times than it was`;
  const same = exchanges.filter(
    (exchange) => questionOf(exchange.body) === question && exchange.path === path,
  );
  if (same.length === 0) return `question "${question}" (${path}) is not in the recording`;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const closest = Math.max(
    ...same.map((exchange) =>
      firstDifference(messages, Array.isArray(exchange.body.messages) ? exchange.body.messages : []),
    ),
  );
  return (
    `question "${question}": no recorded request has these messages; the closest differs from message ${closest} ` +
    'on (a changed tool result, system prompt, model or database)'
  );
}

/** Answers the SDK's requests from a recording, each recorded response once, in recorded order. */
export async function startReplayServer(recording: RecordingFile, port = 0): Promise<ReplayServer> {
  const exchanges = expandRecording(recording);
  const byKey = new Map<string, Exchange[]>();
  for (const exchange of exchanges) {
    const key = requestKey(exchange.path, exchange.body);
    byKey.set(key, [...(byKey.get(key) ?? []), exchange]);
  }
  let served = 0;
  const misses: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = request.url ?? '/';
      const parsed = parse(text || '{}');
      const body = typeof parsed === 'object' && parsed !== null ? (parsed as Json) : {};
      const key = requestKey(path, body);
      const next = byKey.get(key)?.shift();
      if (!next) {
        const why = whyMissing(path, body, exchanges, byKey.has(key));
        misses.push(why);
        // 404 with x-should-retry false: neither SDK asks again, and the chat reports the message.
        sendJson(response, 404, errorBody('replay_miss', `not in the recording: ${why}`), {
          'x-should-retry': 'false',
        });
        return;
      }
      served += 1;
      // A recorded refusal (a rate limit the SDK retried) is answered again, with the retry made at once.
      sendJson(response, next.status, next.response, next.status === 200 ? {} : { 'retry-after-ms': '1' });
    });
  });
  return {
    baseUrl: await listen(server, port),
    close: closer(server),
    misses,
    unused: () => exchanges.length - served,
  };
}
