import type { RouteFolder } from '../../route-folders.js';
import { getContractRoute } from './get.js';
import { listContractsRoute } from './list.js';

export const routes: RouteFolder = {
  order: 170,
  register(app, { deps }) {
    listContractsRoute(app, deps);
    getContractRoute(app, deps);
  },
};
