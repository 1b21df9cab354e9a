import type { App, AppDeps } from '../../types.js';
import { bulkLatestRoute } from './bulk-latest.js';
import { listTradesRoute } from './list.js';

export function tradeRoutes(app: App, deps: AppDeps): void {
  listTradesRoute(app, deps);
  bulkLatestRoute(app, deps);
}
