import type { App, AppDeps } from '../../types.js';
import { statsSummaryRoute } from './summary.js';

export function statsRoutes(app: App, deps: AppDeps): void {
  statsSummaryRoute(app, deps);
}
