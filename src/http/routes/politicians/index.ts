import type { App, AppDeps } from '../../types.js';
import { politicianCampaignFinanceRoute } from './campaign-finance.js';
import { getPoliticianRoute } from './get.js';
import { listPoliticiansRoute } from './list.js';
import { politicianTradesRoute } from './trades.js';
import { politicianVotesRoute } from './votes.js';

export function politicianRoutes(app: App, deps: AppDeps): void {
  listPoliticiansRoute(app, deps);
  getPoliticianRoute(app, deps);
  politicianTradesRoute(app, deps);
  politicianVotesRoute(app, deps);
  politicianCampaignFinanceRoute(app, deps);
}
