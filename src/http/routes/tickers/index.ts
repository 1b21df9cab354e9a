import type { App, AppDeps } from '../../types.js';
import { tickerPricesRoute } from './prices.js';
import { topTickersRoute } from './top.js';
import { tickerTradesRoute } from './trades.js';

export function tickerRoutes(app: App, deps: AppDeps): void {
  topTickersRoute(app, deps);
  tickerTradesRoute(app, deps);
  tickerPricesRoute(app, deps);
}
