import type { RouteFolder } from '../../route-folders.js';
import { getConflictsRoute } from './get.js';

export const routes: RouteFolder = {
  order: 50,
  register(app, { deps }) {
    getConflictsRoute(app, deps);
  },
};
