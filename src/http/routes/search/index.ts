import type { App, AppDeps } from '../../types.js';
import { globalSearchRoute } from './global.js';
import { semanticSearchRoute } from './semantic.js';

export function searchRoutes(app: App, deps: AppDeps): void {
  semanticSearchRoute(app, deps);
  globalSearchRoute(app, deps);
}
