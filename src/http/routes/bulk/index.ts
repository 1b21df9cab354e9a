import type { App, AppDeps } from '../../types.js';
import { bulkTradesRoute } from './trades.js';

export function bulkRoutes(app: App, deps: AppDeps): void {
  bulkTradesRoute(app, deps);
}
