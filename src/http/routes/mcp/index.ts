import type { RouteFolder } from '../../route-folders.js';
import { mcpRpcRoute } from './rpc.js';

export const routes: RouteFolder = {
  order: 260,
  register(app, { catalog }) {
    mcpRpcRoute(app, catalog);
  },
};
