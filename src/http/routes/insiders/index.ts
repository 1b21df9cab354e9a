import type { App, AppDeps } from '../../types.js';
import { getInsiderTradeRoute } from './get.js';
import { listInsiderTradesRoute } from './list.js';
import { tickerInsidersRoute } from './ticker.js';

export function insiderRoutes(app: App, deps: AppDeps): void {
  listInsiderTradesRoute(app, deps);
  getInsiderTradeRoute(app, deps);
  tickerInsidersRoute(app, deps);
}
