import type { App, AppDeps } from '../../types.js';
import { getPortfolioRoute } from './get.js';
import { getPositionsRoute } from './positions.js';

export function portfolioRoutes(app: App, deps: AppDeps): void {
  getPortfolioRoute(app, deps);
  getPositionsRoute(app, deps);
}
