// GET /docs/json: the OpenAPI document at its former Swagger UI address, for clients that
// bookmarked it (the same document as /openapi.json).
import type { App } from '../../types.js';

export function referenceJsonRoute(app: App): void {
  app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());
}
