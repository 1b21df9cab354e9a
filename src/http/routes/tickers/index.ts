import type { RouteFolder } from '../../route-folders.js';
import { tickerPricesRoute } from './prices.js';
import { topTickersRoute } from './top.js';
import { tickerTradesRoute } from './trades.js';

export const routes: RouteFolder = {
  order: 100,
  register(app, { deps }) {
    topTickersRoute(app, deps);
    tickerTradesRoute(app, deps);
    tickerPricesRoute(app, deps);
  },
};
