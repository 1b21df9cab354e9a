import type { RouteFolder } from '../../route-folders.js';
import { recentClustersRoute } from './recent.js';

export const routes: RouteFolder = {
  order: 80,
  register(app, { deps }) {
    recentClustersRoute(app, deps);
  },
};
