// The six event types as the catalog publishes them: when each fires, what filter_value matches,
// and the JSON Schema and an example of its data. The test endpoint sends these examples.
import { type TSchema, Type } from 'typebox';
import { FILING_EXAMPLE, FilingSchema } from '../../../resources/filing.js';
import { TRADE_EXAMPLE, TradeSchema } from '../../../resources/trade.js';
import {
  CONTRACT_AWARDED_EXAMPLE,
  ContractAwardedSchema,
  DISCLOSURE_CONTEXT_EXAMPLE,
  DisclosureContextSchema,
  INSIDER_FILED_EXAMPLE,
  InsiderFiledSchema,
  LOBBYING_FILED_EXAMPLE,
  LobbyingFiledSchema,
  WHALE_FILED_EXAMPLE,
  WhaleFiledSchema,
} from '../../../webhooks/event-schemas.js';
import { EVENT_TYPES, type EventType } from '../../../webhooks/event-types.js';
import { disclosureDetectedData } from '../../../webhooks/payloads.js';

/** The Filing resource of GET /filings/{id} with the context fields payloads.ts adds (they win). */
const DisclosureDetectedSchema = Type.Object(
  { ...FilingSchema.properties, ...DisclosureContextSchema.properties },
  { description: 'A filing as it first appears in an index, before its document is parsed' },
);

export interface EventFilter {
  name: 'ticker' | 'member';
  matches: string;
}

export interface CatalogEvent {
  event: EventType;
  fires_when: string;
  resource: string;
  filters: EventFilter[];
  payload_schema: TSchema;
  example: unknown;
}

const TICKER: EventFilter = {
  name: 'ticker',
  matches: 'filter_value equals data.ticker, case-insensitive',
};
const MEMBER: EventFilter = {
  name: 'member',
  matches: 'filter_value equals data.politician_slug (e.g. nancy-pelosi), case-insensitive',
};

export const EVENT_CATALOG: Record<EventType, CatalogEvent> = {
  'disclosure.detected': {
    event: 'disclosure.detected',
    fires_when:
      'A new congressional or executive-branch filing appears in the public index, before its document is parsed',
    resource:
      'Filing (GET /filings/{id}) plus member, party, chamber, tickers, est_amount_high, is_high_signal',
    filters: [
      { name: 'ticker', matches: 'filter_value equals one of data.tickers, case-insensitive' },
      MEMBER,
    ],
    payload_schema: DisclosureDetectedSchema,
    example: disclosureDetectedData(
      { ...FILING_EXAMPLE, parse_status: 'pending', trade_count: 0 },
      DISCLOSURE_CONTEXT_EXAMPLE,
    ),
  },
  'trade.created': {
    event: 'trade.created',
    fires_when: 'A congressional or executive-branch trade is stored after its filing is parsed',
    resource: 'Trade (exactly as GET /trades returns it)',
    filters: [TICKER, MEMBER],
    payload_schema: TradeSchema,
    example: TRADE_EXAMPLE,
  },
  'insider.filed': {
    event: 'insider.filed',
    fires_when: 'A new Form 4 insider transaction is ingested',
    resource: 'Insider transaction',
    filters: [TICKER],
    payload_schema: InsiderFiledSchema,
    example: INSIDER_FILED_EXAMPLE,
  },
  'lobbying.filed': {
    event: 'lobbying.filed',
    fires_when: 'A new federal lobbying (LDA) filing is ingested',
    resource: 'Lobbying filing',
    filters: [TICKER],
    payload_schema: LobbyingFiledSchema,
    example: LOBBYING_FILED_EXAMPLE,
  },
  'contract.awarded': {
    event: 'contract.awarded',
    fires_when: 'A new federal contract award is ingested',
    resource: 'Contract award',
    filters: [TICKER],
    payload_schema: ContractAwardedSchema,
    example: CONTRACT_AWARDED_EXAMPLE,
  },
  'whale.filed': {
    event: 'whale.filed',
    fires_when: 'A new Schedule 13D or 13G filing is ingested',
    resource: 'Beneficial-ownership filing',
    filters: [TICKER],
    payload_schema: WhaleFiledSchema,
    example: WHALE_FILED_EXAMPLE,
  },
};

export function catalogEvents(): CatalogEvent[] {
  return EVENT_TYPES.map((type) => EVENT_CATALOG[type]);
}

/** The sample `data` the test endpoint sends for an event type. */
export function sampleData(type: string): unknown {
  const entry = (EVENT_CATALOG as Record<string, CatalogEvent | undefined>)[type];
  if (!entry) throw new Error(`no catalog entry for event type ${type}`);
  return entry.example;
}
