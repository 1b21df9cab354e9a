// GET /credits/endpoints (public)
import { Type } from 'typebox';
import { PLAN_TERMS } from '../../../accounts/plans.js';
import { isPublicRoute, openApiPath, priceOf, routeKey, TIER_PLAN } from '../../../accounts/price-table.js';
import { PLANS } from '../../../domain/plans.js';
import type { RouteCatalog } from '../../route-catalog.js';
import { Nullable } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Endpoint = Type.Object({
  method: Type.String(),
  path: Type.String(),
  tier: Type.String({ description: 'public, free, core, pro or max' }),
  required_plan: Nullable(Type.String({ description: 'Lowest plan that reaches it (null: no key needed)' })),
  base_credits: Type.Integer(),
  per_row_credits: Type.Integer(),
  per_executive_row_credits: Type.Integer(),
  summary: Nullable(Type.String()),
});

const Catalog = Type.Object(
  {
    count: Type.Integer(),
    endpoints: Type.Array(Endpoint),
    plans: Type.Array(
      Type.Object({
        plan: Type.String(),
        monthly_credits: Type.Integer(),
        requests_per_minute: Type.Integer(),
      }),
    ),
  },
  {
    examples: [
      {
        count: 1,
        endpoints: [
          {
            method: 'GET',
            path: '/trades',
            tier: 'free',
            required_plan: 'none',
            base_credits: 15,
            per_row_credits: 1,
            per_executive_row_credits: 5,
            summary: 'Paginated trade feed',
          },
        ],
        plans: [{ plan: 'none', monthly_credits: 0, requests_per_minute: 60 }],
      },
    ],
  },
);

export function endpointsRoute(app: App, catalog: RouteCatalog): void {
  app.get(
    '/credits/endpoints',
    {
      schema: {
        operationId: 'creditsEndpoints',
        tags: ['credits'],
        summary: 'Every endpoint with its tier and credit costs (public)',
        description:
          'A call costs base_credits + per_row_credits per returned row (per_executive_row_credits for executive-branch rows). Failed calls cost nothing.',
        response: { 200: Catalog },
      },
    },
    async () => {
      const endpoints = catalog
        .list()
        .filter((entry) => !entry.url.startsWith('/docs'))
        .map((entry) => {
          const key = routeKey(entry.method, entry.url);
          const price = priceOf(key);
          const open = isPublicRoute(key) || !price;
          return {
            method: entry.method,
            path: openApiPath(entry.url),
            tier: open ? 'public' : (price?.tier ?? 'public'),
            required_plan: open || !price ? null : TIER_PLAN[price.tier],
            base_credits: price?.base ?? 0,
            per_row_credits: price?.perRow ?? 0,
            per_executive_row_credits: price?.perExecutiveRow ?? 0,
            summary: entry.summary ?? null,
          };
        });
      return {
        count: endpoints.length,
        endpoints,
        plans: PLANS.map((plan) => ({
          plan,
          monthly_credits: PLAN_TERMS[plan].monthlyCredits,
          requests_per_minute: PLAN_TERMS[plan].requestsPerMinute,
        })),
      };
    },
  );
}
