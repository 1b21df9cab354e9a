import type { App, AppDeps } from '../../types.js';
import { getCommitteeRoute } from './get.js';
import { listCommitteesRoute } from './list.js';

export function committeeRoutes(app: App, deps: AppDeps): void {
  listCommitteesRoute(app, deps);
  getCommitteeRoute(app, deps);
}
