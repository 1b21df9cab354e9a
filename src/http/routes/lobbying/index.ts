import type { App, AppDeps } from '../../types.js';
import { getLobbyingRoute } from './get.js';
import { listLobbyingRoute } from './list.js';

export function lobbyingRoutes(app: App, deps: AppDeps): void {
  listLobbyingRoute(app, deps);
  getLobbyingRoute(app, deps);
}
