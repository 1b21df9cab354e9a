import type { App, AppDeps } from '../../types.js';
import { getBillRoute } from './get.js';
import { listBillsRoute } from './list.js';

export function billRoutes(app: App, deps: AppDeps): void {
  listBillsRoute(app, deps);
  getBillRoute(app, deps);
}
