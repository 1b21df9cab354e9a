import type { RouteFolder } from '../../route-folders.js';
import { getPortfolioRoute } from './get.js';
import { getPositionsRoute } from './positions.js';

export const routes: RouteFolder = {
  order: 40,
  register(app, { deps }) {
    getPortfolioRoute(app, deps);
    getPositionsRoute(app, deps);
  },
};
