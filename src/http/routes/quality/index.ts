import type { App, AppDeps } from '../../types.js';
import { getQualityRoute } from './get.js';

export function qualityRoutes(app: App, deps: AppDeps): void {
  getQualityRoute(app, deps);
}
