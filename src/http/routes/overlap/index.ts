import type { RouteFolder } from '../../route-folders.js';
import { getOverlapRoute } from './get.js';

export const routes: RouteFolder = {
  order: 60,
  register(app, { deps }) {
    getOverlapRoute(app, deps);
  },
};
