import type { RouteFolder } from '../../route-folders.js';
import { politicianCampaignFinanceRoute } from './campaign-finance.js';
import { getPoliticianRoute } from './get.js';
import { listPoliticiansRoute } from './list.js';
import { politicianTradesRoute } from './trades.js';
import { politicianVotesRoute } from './votes.js';

export const routes: RouteFolder = {
  order: 30,
  register(app, { deps }) {
    listPoliticiansRoute(app, deps);
    getPoliticianRoute(app, deps);
    politicianTradesRoute(app, deps);
    politicianVotesRoute(app, deps);
    politicianCampaignFinanceRoute(app, deps);
  },
};
