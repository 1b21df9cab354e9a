import type { RouteCatalog } from '../../route-catalog.js';
import type { App } from '../../types.js';
import { mcpRpcRoute } from './rpc.js';

export function mcpRoutes(app: App, catalog: RouteCatalog): void {
  mcpRpcRoute(app, catalog);
}
