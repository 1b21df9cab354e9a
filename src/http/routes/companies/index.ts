import type { App, AppDeps } from '../../types.js';
import { companyDossierRoute } from './dossier.js';

export function companyRoutes(app: App, deps: AppDeps): void {
  companyDossierRoute(app, deps);
}
