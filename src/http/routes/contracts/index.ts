import type { App, AppDeps } from '../../types.js';
import { getContractRoute } from './get.js';
import { listContractsRoute } from './list.js';

export function contractRoutes(app: App, deps: AppDeps): void {
  listContractsRoute(app, deps);
  getContractRoute(app, deps);
}
