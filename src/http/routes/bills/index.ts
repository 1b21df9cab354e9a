import type { RouteFolder } from '../../route-folders.js';
import { getBillRoute } from './get.js';
import { listBillsRoute } from './list.js';

export const routes: RouteFolder = {
  order: 200,
  register(app, { deps }) {
    listBillsRoute(app, deps);
    getBillRoute(app, deps);
  },
};
