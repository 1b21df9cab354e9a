import type { App } from '../../types.js';
import { openApiRoute } from './openapi.js';

export function metaRoutes(app: App): void {
  openApiRoute(app);
}
