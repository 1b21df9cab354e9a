// A recording of the exchanges between the assistant and its model provider (Anthropic Messages or
// OpenAI Chat Completions): every request body the provider's SDK sent and the response it got, so
// a run measured where the provider is reachable can be replayed anywhere (replay-server.ts).
//
// The file stays readable and small: the tool definitions, the same in every request, are kept once
// (`tools`, by digest), and a request that continues an earlier one's conversation keeps only the
// messages it adds (`continues`: the index of that exchange). No header is kept, so neither is a key;
// the keys the recorder is given are also struck from every text it writes.
import { createHash } from 'node:crypto';
import type { AssistantProviderName } from '../../src/config.js';

type Json = Record<string, unknown>;

/** Where each provider's SDK sends requests when no base URL is configured. */
export const PROVIDER_BASE_URLS: Record<AssistantProviderName, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
};

export interface RecordedExchange {
  /** The question of the chat that made the request (for a reader and for a replay's misses). */
  question?: string;
  /** The request's path below the base URL: /v1/messages or /chat/completions. */
  path: string;
  /** The request body; `tools` is a key of the file's `tools`, `messages` only the added ones. */
  request: Json;
  /** The exchange whose messages this request's messages begin with. */
  continues?: number;
  status: number;
  response: unknown;
}

export interface RecordingFile {
  note: string;
  provider: AssistantProviderName;
  model: string;
  /** DCLEDGER_ASSISTANT_MAX_STEPS of the run: the last step offers no tools, so replay needs it. */
  max_steps: number;
  /** The provider's address, without credentials or query. */
  upstream: string;
  recorded_at: string;
  /** The questions asked, in order: a replay asks the same. */
  questions: string[];
  tools: Record<string, unknown>;
  exchanges: RecordedExchange[];
}

/** One exchange as it went over the wire: the whole request body. */
export interface Exchange {
  question?: string;
  path: string;
  body: Json;
  status: number;
  response: unknown;
}

const messagesOf = (body: Json): unknown[] => (Array.isArray(body.messages) ? body.messages : []);

function digest(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted, so equal values give equal text whatever order they were built in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

// A refused tool call's result carries the API's request id, new on every run; it says nothing the
// model reasons on, so requests are matched without it.
const REQUEST_ID = /"request_id":\s*"[^"]*"/g;

function withoutRequestIds(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(REQUEST_ID, '"request_id":"*"');
  if (Array.isArray(value)) return value.map(withoutRequestIds);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Json).map(([key, inner]) => [key, withoutRequestIds(inner)]),
    );
  return value;
}

/** What a request is matched on: its path, model, system prompt and messages (tool results included). */
export function requestKey(path: string, body: Json): string {
  return canonical({
    path,
    model: body.model,
    system: withoutRequestIds(body.system),
    messages: withoutRequestIds(messagesOf(body)),
  });
}

/** The first user message's text: the question a conversation began with. */
export function questionOf(body: Json): string | undefined {
  for (const message of messagesOf(body)) {
    const { role, content } = message as Json;
    if (role === 'user' && typeof content === 'string') return content;
  }
  return undefined;
}

/** An address without its user, password and query (where a proxy may carry a token). */
export function publicAddress(address: string): string {
  const url = new URL(address);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export interface RecorderSettings {
  provider: AssistantProviderName;
  model: string;
  maxSteps: number;
  upstream: string;
  /** Texts never written (the provider key): replaced by [redacted] wherever they appear. */
  secrets: readonly string[];
  note?: string;
}

/** Collects the exchanges of a run and writes them as a recording file. */
export class Recorder {
  /** The question being asked; the bench sets it before each chat. */
  question: string | undefined;
  readonly exchanges: Exchange[] = [];

  constructor(private readonly settings: RecorderSettings) {}

  add(exchange: Omit<Exchange, 'question'>): void {
    this.exchanges.push({ ...(this.question ? { question: this.question } : {}), ...exchange });
  }

  file(questions: readonly string[], recordedAt: Date): RecordingFile {
    const tools: Record<string, unknown> = {};
    const exchanges: RecordedExchange[] = this.exchanges.map((exchange, index) => {
      const request: Json = { ...exchange.body };
      if (request.tools !== undefined) {
        const key = `sha256:${digest(request.tools)}`;
        tools[key] = request.tools;
        request.tools = key;
      }
      const continues = this.earlierPrefix(index);
      if (continues !== undefined) {
        request.messages = messagesOf(exchange.body).slice(
          messagesOf(this.exchanges[continues]?.body ?? {}).length,
        );
      }
      return {
        ...(exchange.question ? { question: exchange.question } : {}),
        path: exchange.path,
        request,
        ...(continues !== undefined ? { continues } : {}),
        status: exchange.status,
        response: exchange.response,
      };
    });
    const recording: RecordingFile = {
      note:
        this.settings.note ??
        `Recorded from ${this.settings.provider} (${this.settings.model}) by npm run bench -- assistant-model: ` +
          'each request body the SDK sent (headers and keys left out) and the response it got.',
      provider: this.settings.provider,
      model: this.settings.model,
      max_steps: this.settings.maxSteps,
      upstream: publicAddress(this.settings.upstream),
      recorded_at: recordedAt.toISOString(),
      questions: [...questions],
      tools,
      exchanges,
    };
    return JSON.parse(scrub(JSON.stringify(recording), this.settings.secrets)) as RecordingFile;
  }

  /** The latest earlier exchange of the same path whose messages begin this one's (a conversation's step before). */
  private earlierPrefix(index: number): number | undefined {
    const current = this.exchanges[index];
    if (!current) return undefined;
    const messages = messagesOf(current.body);
    for (let earlier = index - 1; earlier >= 0; earlier -= 1) {
      const candidate = this.exchanges[earlier];
      if (!candidate || candidate.path !== current.path) continue;
      const before = messagesOf(candidate.body);
      if (before.length === 0 || before.length >= messages.length) continue;
      if (canonical(before) === canonical(messages.slice(0, before.length))) return earlier;
    }
    return undefined;
  }
}

/** Replaces each secret in a text (JSON-escaped too) by [redacted]. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === '') continue;
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)]))
      out = out.split(form).join('[redacted]');
  }
  return out;
}

/** The exchanges of a recording with each request whole again (its tools and earlier messages put back). */
export function expandRecording(recording: RecordingFile): Exchange[] {
  const expanded: Exchange[] = [];
  for (const [index, recorded] of recording.exchanges.entries()) {
    const body: Json = { ...recorded.request };
    if (typeof body.tools === 'string') {
      if (!(body.tools in recording.tools))
        throw new Error(`exchange ${index}: tools ${body.tools} not in the file`);
      body.tools = recording.tools[body.tools];
    }
    if (recorded.continues !== undefined) {
      const earlier = expanded[recorded.continues];
      if (!earlier || recorded.continues >= index)
        throw new Error(
          `exchange ${index} continues ${recorded.continues}, which is not an earlier exchange`,
        );
      body.messages = [...messagesOf(earlier.body), ...messagesOf(body)];
    }
    expanded.push({
      ...(recorded.question ? { question: recorded.question } : {}),
      path: recorded.path,
      body,
      status: recorded.status,
      response: recorded.response,
    });
  }
  return expanded;
}

/** The file name a run of this provider and model records to. */
export function recordingName(provider: AssistantProviderName, model: string): string {
  const slug = model
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `recordings-${provider}-${slug}.json`;
}
