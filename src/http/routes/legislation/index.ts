import type { RouteFolder } from '../../route-folders.js';
import { suspiciousTimingRoute } from './suspicious-timing.js';

export const routes: RouteFolder = {
  order: 90,
  register(app, { deps }) {
    suspiciousTimingRoute(app, deps);
  },
};
