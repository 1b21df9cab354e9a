// The Content-Security-Policy of every HTML answer, in one place. The pages load their stylesheet,
// scripts, icon and Chart.js from this service (src/http/pages/assets.ts) and run no inline
// script or style, so the policy allows only 'self': an injected <script> or style attribute,
// a form posting elsewhere, a frame around the page, or a call to another host is refused by the
// browser even if some markup slipped through escaping.
import type { App } from '../types.js';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  // The explorer's scripts call the metered API of this same service with the user's key.
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Adds PAGE_CSP to any text/html answer that does not carry a policy of its own. */
export function registerContentSecurityPolicy(app: App): void {
  // Synchronous: every answer passes here.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (
      typeof type === 'string' &&
      type.startsWith('text/html') &&
      !reply.hasHeader('content-security-policy')
    )
      reply.header('content-security-policy', PAGE_CSP);
    done(null, payload);
  });
}
