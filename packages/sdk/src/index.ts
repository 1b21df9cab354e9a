// @dcledger/sdk: a typed client for the dcledger API. Types are generated from the API's OpenAPI
// document (src/openapi.ts); requests go through openapi-fetch with the key header, retries that
// honour Retry-After, a paging iterator that dedupes by id, and webhook signature verification.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './openapi.js';
import { type RetryOptions, retryingFetch } from './retry.js';

export { BulkDownloadError, type BulkTradesOptions, bulkTrades } from './bulk.js';
export type { components, operations, paths } from './openapi.js';
export { nextPageOf, type Page, type PageRequest, type PaginateOptions, paginate } from './paging.js';
export { type RetryOptions, retryingFetch } from './retry.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from './webhooks.js';

type JsonOf<Path extends keyof paths, Method extends 'get'> = paths[Path][Method] extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** The named shapes of the OpenAPI document (components/schemas): `Schemas['InsiderTrade']`, ... */
export type Schemas = components['schemas'];
/** One disclosed trade, as GET /trades returns it. */
export type Trade = Schemas['Trade'];
/** The body of every error answer. */
export type ErrorBody = Schemas['Error'];
/** A disclosure document and its parse status (GET /filings). */
export type Filing = Schemas['Filing'];
/** An SEC Form 3/4/5 transaction line (GET /insiders/trades). */
export type InsiderTrade = Schemas['InsiderTrade'];
/** A Schedule 13D/13G filing (GET /whales). */
export type Whale = Schemas['Whale'];
/** The query of GET /trades. */
export type TradeQuery = NonNullable<paths['/trades']['get']['parameters']['query']>;
/** One member or official, as GET /politicians/{id} returns them. */
export type Politician = JsonOf<'/politicians/{id}', 'get'>;
/** The assistant's answer (GET/POST /chad/chat). */
export type ChatAnswer = JsonOf<'/chad/chat', 'get'>;

/**
 * Typed for the JSON answers: list routes also declare a text/csv body (format=csv), which the
 * client does not parse (fetch it with `parseAs: 'text'`).
 */
export type DcLedgerClient = Client<paths, 'application/json'>;

export interface ClientOptions {
  /** The API's address, e.g. https://api.example.org or http://127.0.0.1:8080. */
  baseUrl: string;
  /** Your key (dc_...), sent as DC-API-Key. Keep it server-side. */
  apiKey?: string;
  retry?: RetryOptions;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: (input: Request) => Promise<Response>;
}

/** A client whose every operation is typed from the OpenAPI document: `client.GET('/trades', ...)`. */
export function createDcLedgerClient(options: ClientOptions): DcLedgerClient {
  const baseFetch = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(baseFetch, options.retry),
  });
  const apiKey = options.apiKey;
  if (apiKey) {
    client.use({
      onRequest({ request }) {
        request.headers.set('DC-API-Key', apiKey);
        return request;
      },
    });
  }
  return client;
}

/** An API refusal: its HTTP status and `{detail}`. */
export class DcLedgerError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly requestId: string | undefined,
    readonly body: unknown,
  ) {
    super(`dcledger API ${status}: ${detail}`);
  }
}

/** The data of an openapi-fetch result, or a DcLedgerError with the API's detail. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = (result.error ?? {}) as { detail?: unknown; request_id?: unknown };
  throw new DcLedgerError(
    result.response.status,
    typeof body.detail === 'string' ? body.detail : result.response.statusText,
    typeof body.request_id === 'string' ? body.request_id : undefined,
    result.error,
  );
}
