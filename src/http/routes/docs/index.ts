// The API reference at /docs and the guides at /docs/guides: HTML pages, public (PUBLIC_ROUTES).
import type { RouteFolder } from '../../route-folders.js';
import { guideRoute } from './guide.js';
import { guideListRoute } from './guide-list.js';
import { referenceRoute } from './reference.js';
import { referenceJsonRoute } from './reference-json.js';

export const routes: RouteFolder = {
  order: 300,
  register(app) {
    referenceRoute(app);
    referenceJsonRoute(app);
    guideListRoute(app);
    guideRoute(app);
  },
};
