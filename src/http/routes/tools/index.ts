import type { RouteCatalog } from '../../route-catalog.js';
import type { App, AppDeps } from '../../types.js';
import { listToolsRoute } from './list.js';

export function toolRoutes(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  listToolsRoute(app, deps, catalog);
}
