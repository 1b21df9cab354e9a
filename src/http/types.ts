// The Fastify instance type every route module receives, and what routes may depend on.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { RateLimitStore } from '../accounts/rate-limit.js';
import type { SelfServiceDeps } from '../accounts/self-service.js';
import type { SemanticSearch } from '../search/semantic.js';
import type { AnalyticsRunner } from '../services/analytics-tasks.js';
import type { ChatProvider } from '../services/assistant/providers.js';
import type { ReadinessCheck } from '../services/readiness.js';
import type { DialectName } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface AppDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The service's notion of now; tests pass a fixed clock. */
  clock: () => Date;
  /** Public base URL for /v1/tools and the OpenAPI servers list, when known. */
  publicUrl?: string;
  /** Where per-account request counts live; in-process unless a shared store is given. */
  rateLimits?: RateLimitStore;
  /**
   * SSRF policy, secret box and sender for the webhook routes. Without it the app makes one with
   * the defaults: no exempt ranges, system DNS, secrets in clear, 15 s timeout.
   */
  webhooks?: WebhookRuntime;
  /** The model that plans /chad/chat's tool calls; without one the intent router answers. */
  assistantProvider?: ChatProvider;
  /** Mail, payments and throttling of the account area; defaults: the mail_outbox table, manual top-ups. */
  selfService?: SelfServiceDeps;
  /** Browser origins allowed to call the API (DCLEDGER_CORS_ORIGINS); empty or absent: CORS off. */
  corsOrigins?: readonly string[];
  /** Peers trusted to name the client in X-Forwarded-For (DCLEDGER_TRUST_PROXY); default none. */
  trustProxy?: false | number | readonly string[];
  /** What GET /readyz checks; default: the database answers and its migrations are current. */
  readiness?: readonly ReadinessCheck[];
  /** DCLEDGER_METRICS_TOKEN: GET /metrics needs it as a bearer token; absent, /metrics is public. */
  metricsToken?: string;
  /** /v1/semantic-search's engine (with the configured embeddings provider); default: LSA, built here. */
  semanticSearch?: SemanticSearch;
  /** Where the heavy analytics run (a worker-thread pool in `serve`); default: the request's thread. */
  analytics?: AnalyticsRunner;
  /** The ingest's archive of original documents (DCLEDGER_ARCHIVE_DIR): the review page's row pictures. */
  documentArchiveDir?: string;
}

export type { SelfServiceDeps } from '../accounts/self-service.js';
