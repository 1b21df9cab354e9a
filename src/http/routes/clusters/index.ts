import type { App, AppDeps } from '../../types.js';
import { recentClustersRoute } from './recent.js';

export function clusterRoutes(app: App, deps: AppDeps): void {
  recentClustersRoute(app, deps);
}
