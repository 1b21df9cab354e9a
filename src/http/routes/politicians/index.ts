import type { App, AppDeps } from '../../types.js';
import { getPoliticianRoute } from './get.js';
import { listPoliticiansRoute } from './list.js';
import { politicianTradesRoute } from './trades.js';

export function politicianRoutes(app: App, deps: AppDeps): void {
  listPoliticiansRoute(app, deps);
  getPoliticianRoute(app, deps);
  politicianTradesRoute(app, deps);
}
