// A local stand-in for a model provider (127.0.0.1 only): it answers the Anthropic Messages API
// (POST /v1/messages) or OpenAI Chat Completions (POST /v1/chat/completions) with recorded
// responses, in order, and keeps the requests it got. Recorded responses are constructed in the
// providers' documented shapes (see llm-recordings/*.constructed.json); `{{path}}` in them is filled
// from the latest tool result the request carries, so a recording fits any database's ids.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplayProvider {
  baseUrl: string;
  requests: Record<string, unknown>[];
  /** Responses not yet served. */
  remaining(): number;
  close(): Promise<void>;
}

export function loadRecording(name: string): unknown[] {
  const url = new URL(`./llm-recordings/${name}`, import.meta.url);
  const recording = JSON.parse(readFileSync(url, 'utf8')) as { responses: unknown[] };
  return recording.responses;
}

type Json = Record<string, unknown>;

/** The JSON of the last tool result in a request, Anthropic or OpenAI shaped. */
function lastToolResult(body: Json): unknown {
  const messages = (body.messages ?? []) as Json[];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Json;
    if (message.role === 'tool' && typeof message.content === 'string') return JSON.parse(message.content);
    if (message.role === 'user' && Array.isArray(message.content)) {
      const results = (message.content as Json[]).filter((block) => block.type === 'tool_result');
      const last = results[results.length - 1];
      if (last && typeof last.content === 'string') return JSON.parse(last.content);
    }
  }
  return undefined;
}

function lookupPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function fill(template: unknown, source: unknown): unknown {
  const text = JSON.stringify(template).replace(/\{\{(\$[^}]*)\}\}/g, (_match, path: string) => {
    const value = lookupPath(source, path);
    if (value === undefined) throw new Error(`recording placeholder ${path} has no value in the tool result`);
    return JSON.stringify(String(value)).slice(1, -1);
  });
  return JSON.parse(text);
}

export async function startReplayProvider(responses: unknown[]): Promise<ReplayProvider> {
  const queue = [...responses];
  const requests: Json[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    request.on('end', () => {
      const body = JSON.parse(raw || '{}') as Json;
      requests.push({ path: request.url, headers: request.headers, body });
      const next = queue.shift();
      const known = request.url === '/v1/messages' || request.url === '/v1/chat/completions';
      if (!known || next === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { type: 'replay', message: `no recorded response for ${request.url}` } }),
        );
        return;
      }
      try {
        const filled = fill(next, lastToolResult(body));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(filled));
      } catch (error) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'replay', message: String(error) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
