import type { App, AppDeps } from '../../types.js';
import { getVoteRoute } from './get.js';

export function voteRoutes(app: App, deps: AppDeps): void {
  getVoteRoute(app, deps);
}
