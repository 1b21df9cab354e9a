// The API reference at /docs and the guides at /docs/guides: HTML pages, public (PUBLIC_ROUTES).
import type { App } from '../../types.js';
import { guideRoutes } from './guides.js';
import { referenceRoutes } from './reference.js';

export function docsRoutes(app: App): void {
  referenceRoutes(app);
  guideRoutes(app);
}
