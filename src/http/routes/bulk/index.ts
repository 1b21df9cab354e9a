import type { RouteFolder } from '../../route-folders.js';
import { bulkTradesRoute } from './trades.js';

export const routes: RouteFolder = {
  order: 20,
  register(app, { deps }) {
    bulkTradesRoute(app, deps);
  },
};
