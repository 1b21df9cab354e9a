import type { RouteFolder } from '../../route-folders.js';
import { openApiRoute } from './openapi.js';

export const routes: RouteFolder = {
  order: 280,
  register(app) {
    openApiRoute(app);
  },
};
