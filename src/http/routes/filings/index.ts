import type { App, AppDeps } from '../../types.js';
import { getFilingRoute } from './get.js';
import { listFilingsRoute } from './list.js';

export function filingRoutes(app: App, deps: AppDeps): void {
  listFilingsRoute(app, deps);
  getFilingRoute(app, deps);
}
