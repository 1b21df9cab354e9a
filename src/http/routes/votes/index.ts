import type { RouteFolder } from '../../route-folders.js';
import { getVoteRoute } from './get.js';

export const routes: RouteFolder = {
  order: 210,
  register(app, { deps }) {
    getVoteRoute(app, deps);
  },
};
