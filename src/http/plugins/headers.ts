// Response headers every answer carries: `X-Content-Type-Options: nosniff` everywhere (no browser
// guesses a JSON error into HTML), and `Cache-Control: no-store` on every keyed route's answer
// (an account's data, balance or refusal must not sit in a shared cache).
import { fastifyCors } from '@fastify/cors';
import type { App } from '../types.js';

export function registerSecurityHeaders(app: App): void {
  // Synchronous: every answer passes here.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (request.price !== null) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
}

/**
 * CORS for the configured browser origins only; without any, nothing is registered and no answer
 * carries Access-Control-* headers. The key travels in a header, never a cookie: no credentials.
 */
export async function registerCors(app: App, origins: readonly string[] | undefined): Promise<void> {
  if (!origins || origins.length === 0) return;
  await app.register(fastifyCors, {
    origin: [...origins],
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: ['DC-API-Key', 'Authorization', 'Content-Type'],
    exposedHeaders: [
      'X-Request-Id',
      'X-Credits-Charged',
      'X-Credits-Remaining',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
    credentials: false,
    maxAge: 600,
  });
}
