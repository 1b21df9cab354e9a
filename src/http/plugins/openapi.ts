// OpenAPI 3.1 generated from the route schemas, served at /openapi.json; the reference page at /docs
// and the guides at /docs/guides are rendered from it and from docs/ (http/routes/docs/).
import swagger from '@fastify/swagger';
import type { App, AppDeps } from '../types.js';
import { publishedSchema } from './openapi-defaults.js';
import { finishDocument } from './openapi-document.js';

export const API_TITLE = 'dcledger API';
export const API_VERSION = '1.0.0';

export async function registerOpenApi(app: App, deps: AppDeps): Promise<void> {
  await app.register(swagger, {
    transform: publishedSchema,
    transformObject: (documentObject) =>
      finishDocument(
        ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as Record<string, unknown>,
        {
          publicUrl: deps.publicUrl,
          tags: TAGS,
        },
      ) as never,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: API_TITLE,
        version: API_VERSION,
        description:
          'US congressional and executive-branch stock-trade disclosures: trades, members, filings and analytics. ' +
          'Errors are always JSON `{ "detail": string, "request_id": string, "code": string }` (codes in docs/security.md). Send your key in the `DC-API-Key` header. ' +
          'Each operation lists its plan tier (`x-tier`, `x-required-plan`) and credit cost (`x-credits`). ' +
          'Guides (plans and limits, webhooks, ingestion, market data, operations) are at /docs/guides.',
      },
      components: {
        securitySchemes: {
          DCApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'DC-API-Key',
            description: 'Your key, starting with dc_',
          },
        },
      },
      tags: [...TAGS],
    },
  });
}

/** The tags routes use, described; a tag missing here is still published (openapi-document.ts). */
const TAGS: readonly { name: string; description: string }[] = [
  { name: 'trades', description: 'Disclosed transactions' },
  { name: 'politicians', description: 'Members of Congress and executive-branch filers' },
  { name: 'tickers', description: 'Trades by stock' },
  { name: 'portfolio', description: 'Holdings reconstructed from a member’s trades' },
  { name: 'feed', description: 'Latest trades' },
  { name: 'filings', description: 'Disclosure documents and their parse status' },
  { name: 'stats', description: 'Platform summary' },
  { name: 'search', description: 'Global search' },
  { name: 'credits', description: 'Balance and prices' },
  { name: 'alerts', description: 'Webhook subscriptions, deliveries and the event catalog' },
  { name: 'meta', description: 'Machine-readable descriptions of this API' },
  {
    name: 'account',
    description:
      'The account area: sign-up, sign-in (session cookie), keys, plan, top-ups, ledger and usage. Not metered; every POST needs the CSRF token (X-CSRF-Token).',
  },
  { name: 'legislation', description: 'Bills, roll-call votes and committees' },
  { name: 'campaign-finance', description: 'Campaign finance of a member (FEC)' },
  { name: 'lobbying', description: 'Federal lobbying (LDA) filings linked to tickers' },
  { name: 'contracts', description: 'Federal contract awards linked to tickers' },
  { name: 'insiders', description: 'SEC Form 4 insider transactions beside members’ trades' },
  { name: 'whales', description: 'SEC Schedule 13D/13G beneficial-ownership filings' },
  { name: 'assistant', description: 'The assistant (/chad/chat), the MCP server and the LLM tools' },
];
