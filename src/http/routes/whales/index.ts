import type { RouteFolder } from '../../route-folders.js';
import { getWhaleRoute } from './get.js';
import { listWhalesRoute } from './list.js';

export const routes: RouteFolder = {
  order: 190,
  register(app, { deps }) {
    listWhalesRoute(app, deps);
    getWhaleRoute(app, deps);
  },
};
