import type { RouteFolder } from '../../route-folders.js';
import { listToolsRoute } from './list.js';

export const routes: RouteFolder = {
  order: 250,
  register(app, { deps, catalog }) {
    listToolsRoute(app, deps, catalog);
  },
};
