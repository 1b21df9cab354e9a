import type { RouteFolder } from '../../route-folders.js';
import { statsSummaryRoute } from './summary.js';

export const routes: RouteFolder = {
  order: 120,
  register(app, { deps }) {
    statsSummaryRoute(app, deps);
  },
};
