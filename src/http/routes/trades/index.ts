import type { RouteFolder } from '../../route-folders.js';
import { bulkLatestRoute } from './bulk-latest.js';
import { listTradesRoute } from './list.js';

export const routes: RouteFolder = {
  order: 10,
  register(app, { deps }) {
    listTradesRoute(app, deps);
    bulkLatestRoute(app, deps);
  },
};
