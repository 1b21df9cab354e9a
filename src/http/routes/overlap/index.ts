import type { App, AppDeps } from '../../types.js';
import { getOverlapRoute } from './get.js';

export function overlapRoutes(app: App, deps: AppDeps): void {
  getOverlapRoute(app, deps);
}
