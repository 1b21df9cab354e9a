import type { RouteFolder } from '../../route-folders.js';
import { liveFeedRoute } from './live.js';
import { recentFeedRoute } from './recent.js';

export const routes: RouteFolder = {
  order: 110,
  register(app, { deps }) {
    recentFeedRoute(app, deps);
    liveFeedRoute(app, deps);
  },
};
