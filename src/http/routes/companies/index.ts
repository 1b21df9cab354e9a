import type { RouteFolder } from '../../route-folders.js';
import { companyDossierRoute } from './dossier.js';

export const routes: RouteFolder = {
  order: 70,
  register(app, { deps }) {
    companyDossierRoute(app, deps);
  },
};
