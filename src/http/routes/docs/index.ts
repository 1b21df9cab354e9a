// The API reference at /docs and the guides at /docs/guides: HTML pages, public (PUBLIC_ROUTES).
import type { RouteFolder } from '../../route-folders.js';
import { guideRoutes } from './guides.js';
import { referenceRoutes } from './reference.js';

export const routes: RouteFolder = {
  order: 300,
  register(app) {
    referenceRoutes(app);
    guideRoutes(app);
  },
};
