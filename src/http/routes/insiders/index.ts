import type { RouteFolder } from '../../route-folders.js';
import { getInsiderTradeRoute } from './get.js';
import { listInsiderTradesRoute } from './list.js';
import { tickerInsidersRoute } from './ticker.js';

export const routes: RouteFolder = {
  order: 180,
  register(app, { deps }) {
    listInsiderTradesRoute(app, deps);
    getInsiderTradeRoute(app, deps);
    tickerInsidersRoute(app, deps);
  },
};
