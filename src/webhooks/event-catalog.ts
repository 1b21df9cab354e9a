// Every webhook event, each defined once: when it fires, what `data` holds (a src/resources/ shape,
// published as JSON Schema with an example), what a subscription's filter_value matches, and the
// subject that makes a re-run emit nothing. The event names, the outbox constructor
// (events.ts eventFor), the public catalog (GET /webhooks/events, OpenAPI webhooks, the /ui page)
// and the test endpoint's sample all read this table; adding an event is one entry here (see
// docs/adding-an-event.md).
import { type Static, type TSchema, Type } from 'typebox';
import { CONTRACT_EXAMPLE, type ContractResource, ContractSchema } from '../resources/contract.js';
import { FILING_EXAMPLE, FilingSchema } from '../resources/filing.js';
import { INSIDER_TRADE_EXAMPLE, InsiderTradeSchema } from '../resources/insider.js';
import { LOBBYING_EXAMPLE, type LobbyingResource, LobbyingSchema } from '../resources/lobbying.js';
import { Nullable } from '../resources/schema.js';
import { TRADE_EXAMPLE, type Trade, TradeSchema } from '../resources/trade.js';
import { WHALE_EXAMPLE, WhaleSchema } from '../resources/whale.js';
import { disclosureDetectedData } from './payloads.js';

const maybeText = (description: string) => Nullable(Type.String({ description }));
const maybeNumber = (description: string) => Nullable(Type.Number({ description }));

/**
 * disclosure.detected is the Filing resource of GET /filings/{id} plus what is known when the
 * filing first appears in an index (payloads.ts builds it). These are the added fields; the
 * catalog publishes them merged into the Filing schema.
 */
export const DisclosureContextSchema = Type.Object({
  member: maybeText('Member name as the politician resource has it (null when the filer is unmatched)'),
  party: maybeText('D, R or I'),
  chamber: maybeText('House, Senate or Executive'),
  tickers: Type.Array(Type.String(), {
    description:
      'Tickers the document names, from a quick read of its text layer before the full parse (empty for scans and paper filings)',
  }),
  est_amount_high: maybeNumber(
    'Largest bracket upper bound the document prints (an open bracket counts as its lower bound), from the same quick read; null when none was read',
  ),
  is_high_signal: Type.Boolean({
    description:
      'est_amount_high is at least $1M, or the filer moved at least $1M (sum of bracket tops) in trades disclosed over the previous year',
  }),
});

/** The context part of the catalog's disclosure.detected example. */
export const DISCLOSURE_CONTEXT_EXAMPLE = {
  member: 'Nancy Pelosi',
  party: 'D',
  chamber: 'House',
  tickers: ['NVDA'],
  estAmountHigh: 5_000_000,
  isHighSignal: true,
};

// insider.filed and whale.filed carry the resources GET /insiders/trades and GET /whales serve.
export const InsiderFiledSchema = InsiderTradeSchema;
export type InsiderFiledData = Static<typeof InsiderFiledSchema>;

/** lobbying.filed: exactly the Lobbying resource of GET /lobbying/{id}. */
export const LobbyingFiledSchema = LobbyingSchema;
export type LobbyingFiledData = LobbyingResource;

/** contract.awarded: exactly the Contract resource of GET /contracts/{id}. */
export const ContractAwardedSchema = ContractSchema;
export type ContractAwardedData = ContractResource;

export const WhaleFiledSchema = WhaleSchema;
export type WhaleFiledData = Static<typeof WhaleFiledSchema>;

export const INSIDER_FILED_EXAMPLE: InsiderFiledData = INSIDER_TRADE_EXAMPLE;

export const LOBBYING_FILED_EXAMPLE: LobbyingFiledData = LOBBYING_EXAMPLE;

export const CONTRACT_AWARDED_EXAMPLE: ContractAwardedData = CONTRACT_EXAMPLE;

export const WHALE_FILED_EXAMPLE: WhaleFiledData = WHALE_EXAMPLE;

/** The Filing resource of GET /filings/{id} with the context fields payloads.ts adds (they win). */
const DisclosureDetectedSchema = Type.Object(
  { ...FilingSchema.properties, ...DisclosureContextSchema.properties },
  { description: 'A filing as it first appears in an index, before its document is parsed' },
);

export interface EventFilter {
  name: 'ticker' | 'member';
  matches: string;
}

/** What an event says of its data besides the data itself (events.ts normalises the ticker). */
export interface EventSubject {
  /** One event per type and subject: a re-run that stores the same thing emits nothing. */
  subjectKey: string;
  /** What a ticker filter matches ("N/A" and blanks match nothing). */
  ticker: string | null | undefined;
  /** What a member filter matches. */
  politicianSlug: string | null;
}

/** One event's whole definition. */
export interface EventDefinition<D> {
  fires_when: string;
  resource: string;
  filters: EventFilter[];
  payload_schema: TSchema;
  /** The catalog's example, which the test endpoint also sends. */
  example: D;
  subject: (data: D) => EventSubject;
}

const defineEvent = <D>(definition: EventDefinition<D>): EventDefinition<D> => definition;

/** The Filing resource plus its index-time context, as payloads.ts builds it. */
export type DisclosureDetectedData = ReturnType<typeof disclosureDetectedData>;

const TICKER: EventFilter = {
  name: 'ticker',
  matches: 'filter_value equals data.ticker, case-insensitive',
};
const MEMBER: EventFilter = {
  name: 'member',
  matches: 'filter_value equals data.politician_slug (e.g. nancy-pelosi), case-insensitive',
};

export const EVENT_CATALOG = {
  'disclosure.detected': defineEvent<DisclosureDetectedData>({
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
    subject: (data) => ({
      subjectKey: `${data.source}:${data.source_doc_id}`,
      // A filing can name several tickers; the filter also looks at data.tickers.
      ticker: data.tickers.length === 1 ? data.tickers[0] : null,
      politicianSlug: data.politician_slug,
    }),
  }),
  'trade.created': defineEvent<Trade>({
    fires_when: 'A congressional or executive-branch trade is stored after its filing is parsed',
    resource: 'Trade (exactly as GET /trades returns it)',
    filters: [TICKER, MEMBER],
    payload_schema: TradeSchema,
    example: TRADE_EXAMPLE,
    subject: (trade) => ({
      subjectKey: `trade:${trade.id}`,
      ticker: trade.ticker,
      politicianSlug: trade.politician_slug,
    }),
  }),
  'insider.filed': defineEvent<InsiderFiledData>({
    fires_when: 'A new Form 4 insider transaction is ingested',
    resource: 'Insider transaction',
    filters: [TICKER],
    payload_schema: InsiderFiledSchema,
    example: INSIDER_FILED_EXAMPLE,
    subject: (data) => ({
      subjectKey: `insider:${data.accession_number}:${data.id}`,
      ticker: data.ticker,
      politicianSlug: null,
    }),
  }),
  'lobbying.filed': defineEvent<LobbyingFiledData>({
    fires_when: 'A new federal lobbying (LDA) filing is ingested',
    resource: 'Lobbying filing',
    filters: [TICKER],
    payload_schema: LobbyingFiledSchema,
    example: LOBBYING_FILED_EXAMPLE,
    subject: (data) => ({ subjectKey: `lda:${data.filing_uuid}`, ticker: data.ticker, politicianSlug: null }),
  }),
  'contract.awarded': defineEvent<ContractAwardedData>({
    fires_when: 'A new federal contract award is ingested',
    resource: 'Contract award',
    filters: [TICKER],
    payload_schema: ContractAwardedSchema,
    example: CONTRACT_AWARDED_EXAMPLE,
    // The PIID alone is not unique (delivery orders reuse short PIIDs like "0007"); the award key is.
    subject: (data) => ({
      subjectKey: `contract:${data.award_key}`,
      ticker: data.ticker,
      politicianSlug: null,
    }),
  }),
  'whale.filed': defineEvent<WhaleFiledData>({
    fires_when: 'A new Schedule 13D or 13G filing is ingested',
    resource: 'Beneficial-ownership filing',
    filters: [TICKER],
    payload_schema: WhaleFiledSchema,
    example: WHALE_FILED_EXAMPLE,
    subject: (data) => ({
      subjectKey: `sec:${data.accession_number}`,
      ticker: data.ticker,
      politicianSlug: null,
    }),
  }),
};

export type EventType = keyof typeof EVENT_CATALOG;

/** What `data` holds, by event type. */
export type EventData = {
  [T in EventType]: (typeof EVENT_CATALOG)[T] extends EventDefinition<infer D> ? D : never;
};

/** The event types clients can subscribe to, in the catalog's order. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOG, value);
}

/** An event as the public catalog lists it (GET /webhooks/events, OpenAPI, the /ui page). */
export interface CatalogEvent {
  event: EventType;
  fires_when: string;
  resource: string;
  filters: EventFilter[];
  payload_schema: TSchema;
  example: unknown;
}

export function catalogEvents(): CatalogEvent[] {
  return EVENT_TYPES.map((event) => {
    const { fires_when, resource, filters, payload_schema, example } = EVENT_CATALOG[event];
    return { event, fires_when, resource, filters, payload_schema, example };
  });
}

/** The sample `data` the test endpoint sends for an event type. */
export function sampleData(type: string): unknown {
  if (!isEventType(type)) throw new Error(`no catalog entry for event type ${type}`);
  return EVENT_CATALOG[type].example;
}
