import type { App, AppDeps } from '../../types.js';
import { liveFeedRoute } from './live.js';
import { recentFeedRoute } from './recent.js';

export function feedRoutes(app: App, deps: AppDeps): void {
  recentFeedRoute(app, deps);
  liveFeedRoute(app, deps);
}
