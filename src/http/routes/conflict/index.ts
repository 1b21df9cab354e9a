import type { App, AppDeps } from '../../types.js';
import { getConflictsRoute } from './get.js';

export function conflictRoutes(app: App, deps: AppDeps): void {
  getConflictsRoute(app, deps);
}
