// Tool calls made inside the app (by /mcp and /chad/chat) go through the tool's own route with the
// caller's key, so each one is authenticated, gated, rate-limited and charged as that endpoint is.
import type { FastifyRequest } from 'fastify';
import type { ToolTransport } from '../services/tools.js';
import type { App } from './types.js';

/** The caller's credentials as they sent them (never logged, never stored). */
export function callerCredentials(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = request.headers['dc-api-key'];
  const authorization = request.headers.authorization;
  if (typeof key === 'string') headers['dc-api-key'] = key;
  if (typeof authorization === 'string') headers.authorization = authorization;
  return headers;
}

export function injectToolTransport(app: App, credentials: Record<string, string>): ToolTransport {
  return async ({ method, url }) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...credentials, accept: 'application/json' },
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = { detail: response.body.slice(0, 500) };
    }
    return {
      status: response.statusCode,
      body,
      creditsCharged: Number(response.headers['x-credits-charged'] ?? 0) || 0,
    };
  };
}
