import type { RouteFolder } from '../../route-folders.js';
import { getLobbyingRoute } from './get.js';
import { listLobbyingRoute } from './list.js';

export const routes: RouteFolder = {
  order: 160,
  register(app, { deps }) {
    listLobbyingRoute(app, deps);
    getLobbyingRoute(app, deps);
  },
};
