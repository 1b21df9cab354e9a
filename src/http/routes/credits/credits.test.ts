import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_TABLE, PUBLIC_ROUTES } from '../../../accounts/price-table.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../../test-support/app.js';

interface Endpoint {
  method: string;
  path: string;
  tier: string;
  required_plan: string | null;
  base_credits: number;
  per_row_credits: number;
  per_executive_row_credits: number;
}

describe('GET /credits/endpoints, /credits/balance and /v1/tools', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('publishes every route with its tier and costs, without a key', async () => {
    const { status, body } = await getJson<{ count: number; endpoints: Endpoint[] }>(
      { app: ctx.app },
      '/credits/endpoints',
    );
    expect(status).toBe(200);
    expect(body.count).toBe(body.endpoints.length);
    const byKey = new Map(
      body.endpoints.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]),
    );
    for (const [route, price] of Object.entries(PRICE_TABLE)) {
      const [method, path] = route.split(' ');
      const published = byKey.get(`${method} ${(path ?? '').replace(/:(\w+)/g, '{$1}')}`);
      expect(published, route).toMatchObject({
        tier: price.tier,
        base_credits: price.base,
        per_row_credits: price.perRow,
      });
    }
    expect(byKey.get('GET /trades')).toMatchObject({
      required_plan: 'none',
      base_credits: 15,
      per_row_credits: 1,
      per_executive_row_credits: 5,
    });
    expect(byKey.get('GET /politicians/{id}')).toMatchObject({ base_credits: 15, per_row_credits: 0 });
    expect(byKey.get('GET /v1/tools')).toMatchObject({ tier: 'public', required_plan: null });
    // Every published endpoint is either priced or public: nothing unaccounted for.
    for (const endpoint of body.endpoints) {
      const key = `${endpoint.method} ${endpoint.path.replace(/\{(\w+)\}/g, ':$1')}`;
      expect(PRICE_TABLE[key] !== undefined || PUBLIC_ROUTES.includes(key), key).toBe(true);
    }
  });

  it('every priced route is a real route', async () => {
    const { body } = await getJson<{ endpoints: Endpoint[] }>({ app: ctx.app }, '/credits/endpoints');
    const published = new Set(body.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`));
    for (const route of Object.keys(PRICE_TABLE))
      expect(published.has(route.replace(/:(\w+)/g, '{$1}')), route).toBe(true);
  });

  it('reports the balance, plan, allowance, spend and limit of the calling key', async () => {
    const { status, body, headers } = await getJson<Record<string, unknown>>(ctx, '/credits/balance');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      plan: 'max',
      monthly_allowance: 500_000,
      daily_cap: 1_000_000_000,
      rate_limit: { limit: 600 },
    });
    expect(body.balance).toBe(Number(body.allowance_remaining) + Number(body.credits));
    expect(headers['x-credits-charged']).toBe('0');
    expect(headers['x-credits-remaining']).toBe(String(body.balance));
  });

  it('describes the tools with input schemas taken from the real routes', async () => {
    const { status, body } = await getJson<{
      base_url: string;
      auth: { header: string };
      routing: Record<string, { method: string; path: string; path_params?: string[] }>;
      anthropic: {
        name: string;
        input_schema: { properties: Record<string, unknown>; required: string[] };
      }[];
      openai: {
        type: string;
        function: { name: string; parameters: { properties: Record<string, unknown> } };
      }[];
    }>({ app: ctx.app }, '/v1/tools');
    expect(status).toBe(200);
    expect(body.base_url).toBe('http://localhost');
    expect(body.auth.header).toBe('DC-API-Key');
    expect(body.routing.lookup).toEqual({ method: 'GET', path: '/search' });
    expect(body.routing.query_trades).toEqual({ method: 'GET', path: '/trades' });
    expect(body.routing).toEqual({
      lookup: { method: 'GET', path: '/search' },
      query_trades: { method: 'GET', path: '/trades' },
      semantic_search: { method: 'GET', path: '/v1/semantic-search' },
      get_portfolio: { method: 'GET', path: '/portfolio/{politician_id}', path_params: ['politician_id'] },
      get_conflicts: { method: 'GET', path: '/conflict/{politician_id}', path_params: ['politician_id'] },
      // The record tools follow the interface's five.
      insider_trades: { method: 'GET', path: '/insiders/trades' },
      whale_filings: { method: 'GET', path: '/whales' },
      lobbying_filings: { method: 'GET', path: '/lobbying' },
      contract_awards: { method: 'GET', path: '/contracts' },
      search_bills: { method: 'GET', path: '/bills' },
      get_bill: { method: 'GET', path: '/bills/{id}', path_params: ['id'] },
      member_votes: { method: 'GET', path: '/politicians/{id}/votes', path_params: ['id'] },
      campaign_finance: { method: 'GET', path: '/politicians/{id}/campaign-finance', path_params: ['id'] },
      find_overlap: { method: 'GET', path: '/overlap' },
      company_dossier: { method: 'GET', path: '/companies/{ticker}', path_params: ['ticker'] },
      find_trading_clusters: { method: 'GET', path: '/clusters/recent' },
      find_legislation_timing: { method: 'GET', path: '/legislation/suspicious-timing' },
    });
    expect(body.anthropic.slice(0, 5).map((tool) => tool.name)).toEqual([
      'lookup',
      'query_trades',
      'semantic_search',
      'get_portfolio',
      'get_conflicts',
    ]);
    const portfolio = body.anthropic.find((tool) => tool.name === 'get_portfolio');
    expect(portfolio?.input_schema.required).toEqual(['politician_id']);
    const queryTrades = body.anthropic.find((tool) => tool.name === 'query_trades');
    expect(Object.keys(queryTrades?.input_schema.properties ?? {}).sort()).toEqual([
      'asset_type',
      'chamber',
      'date_from',
      'date_to',
      'days',
      'include_flagged',
      'include_superseded',
      'limit',
      'offset',
      'party',
      'politician_id',
      'sector',
      'sort_by',
      'sort_dir',
      'state',
      'ticker',
      'trade_type',
      'transaction_date_from',
      'transaction_date_to',
      'updated_since',
    ]);
    const lookup = body.anthropic.find((tool) => tool.name === 'lookup');
    expect(lookup?.input_schema.required).toEqual(['q']);
    expect(body.openai.map((tool) => tool.function.name)).toEqual(body.anthropic.map((tool) => tool.name));
    expect(body.openai.every((tool) => tool.type === 'function')).toBe(true);
  });
});
