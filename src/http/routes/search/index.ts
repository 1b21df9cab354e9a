import type { RouteFolder } from '../../route-folders.js';
import { globalSearchRoute } from './global.js';
import { semanticSearchRoute } from './semantic.js';

export const routes: RouteFolder = {
  order: 140,
  register(app, { deps }) {
    semanticSearchRoute(app, deps);
    globalSearchRoute(app, deps);
  },
};
