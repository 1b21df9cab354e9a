// The database as Kysely sees it: every table by name. Each area's file in schema/ (members,
// disclosures, ingest, market, records, legislation, analytics, accounts, webhooks, search,
// operations) holds its tables' shapes and names them, so a new table is written in one file. Dates are ISO strings (YYYY-MM-DD) and timestamps ISO 8601
// strings on both SQLite and PostgreSQL, so that the same code reads and compares them.
import type { AccountsTables } from './schema/accounts.js';
import type { AnalyticsTables } from './schema/analytics.js';
import type { DisclosuresTables } from './schema/disclosures.js';
import type { IngestTables } from './schema/ingest.js';
import type { LegislationTables } from './schema/legislation.js';
import type { MarketTables } from './schema/market.js';
import type { MembersTables } from './schema/members.js';
import type { OperationsTables } from './schema/operations.js';
import type { RecordsTables } from './schema/records.js';
import type { SearchTables } from './schema/search.js';
import type { WebhooksTables } from './schema/webhooks.js';

export interface Database
  extends AccountsTables,
    AnalyticsTables,
    DisclosuresTables,
    IngestTables,
    LegislationTables,
    MarketTables,
    MembersTables,
    OperationsTables,
    RecordsTables,
    SearchTables,
    WebhooksTables {}
