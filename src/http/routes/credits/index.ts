import type { RouteCatalog } from '../../route-catalog.js';
import type { App, AppDeps } from '../../types.js';
import { balanceRoute } from './balance.js';
import { endpointsRoute } from './endpoints.js';

export function creditRoutes(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  balanceRoute(app, deps);
  endpointsRoute(app, catalog);
}
