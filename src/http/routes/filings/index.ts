import type { RouteFolder } from '../../route-folders.js';
import { getFilingRoute } from './get.js';
import { listFilingsRoute } from './list.js';

export const routes: RouteFolder = {
  order: 150,
  register(app, { deps }) {
    listFilingsRoute(app, deps);
    getFilingRoute(app, deps);
  },
};
