import type { App, AppDeps } from '../../types.js';
import { getWhaleRoute } from './get.js';
import { listWhalesRoute } from './list.js';

export function whaleRoutes(app: App, deps: AppDeps): void {
  listWhalesRoute(app, deps);
  getWhaleRoute(app, deps);
}
