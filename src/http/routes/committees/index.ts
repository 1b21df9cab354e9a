import type { RouteFolder } from '../../route-folders.js';
import { getCommitteeRoute } from './get.js';
import { listCommitteesRoute } from './list.js';

export const routes: RouteFolder = {
  order: 220,
  register(app, { deps }) {
    listCommitteesRoute(app, deps);
    getCommitteeRoute(app, deps);
  },
};
