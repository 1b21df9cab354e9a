import type { RouteFolder } from '../../route-folders.js';
import { getQualityRoute } from './get.js';

export const routes: RouteFolder = {
  order: 130,
  register(app, { deps }) {
    getQualityRoute(app, deps);
  },
};
