import type { RouteFolder } from '../../route-folders.js';
import { balanceRoute } from './balance.js';
import { endpointsRoute } from './endpoints.js';

export const routes: RouteFolder = {
  order: 230,
  register(app, { deps, catalog }) {
    balanceRoute(app, deps);
    endpointsRoute(app, catalog);
  },
};
