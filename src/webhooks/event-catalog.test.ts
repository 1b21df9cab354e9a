// Each event is defined once: its outbox event (subject, filter columns) comes from its definition,
// its example is valid data of its schema, and every source names only defined events.
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { SOURCE_MANIFESTS } from '../ingest/sources/registry.js';
import { TRADE_EXAMPLE } from '../resources/trade.js';
import { EVENT_CATALOG, EVENT_TYPES, type EventType, isEventType, sampleData } from './event-catalog.js';
import { eventFor } from './events.js';

describe('the event catalog', () => {
  it('defines each event once, in the published order', () => {
    expect(EVENT_TYPES).toEqual([
      'disclosure.detected',
      'trade.created',
      'insider.filed',
      'lobbying.filed',
      'contract.awarded',
      'whale.filed',
    ]);
    expect(isEventType('trade.created')).toBe(true);
    expect(isEventType('toString')).toBe(false);
    expect(() => sampleData('trade.deleted')).toThrow(/no catalog entry/);
  });

  it('builds each outbox event from its definition: a subject of its own, the ticker and member it filters on', () => {
    const subjects = new Set<string>();
    for (const type of EVENT_TYPES) {
      const definition = EVENT_CATALOG[type];
      expect([...Value.Errors(definition.payload_schema, definition.example)], type).toEqual([]);
      const event = eventFor(type, definition.example as never);
      expect(event.type).toBe(type);
      expect(event.data).toBe(definition.example);
      expect(event.subjectKey.length, type).toBeGreaterThan(3);
      subjects.add(event.subjectKey);
      // Every example names one ticker; a member filter exists only where the data has a member.
      expect(event.ticker, type).toMatch(/^[A-Z][A-Z.]*$/);
      const filters = definition.filters.map((filter) => filter.name);
      expect(event.politicianSlug !== null, type).toBe(filters.includes('member'));
    }
    expect(subjects.size).toBe(EVENT_TYPES.length);
  });

  it('normalises the ticker a filter matches: upper case, and no "N/A"', () => {
    expect(eventFor('trade.created', { ...TRADE_EXAMPLE, ticker: ' nvda ' }).ticker).toBe('NVDA');
    expect(eventFor('trade.created', { ...TRADE_EXAMPLE, ticker: 'N/A' }).ticker).toBeNull();
    expect(eventFor('trade.created', { ...TRADE_EXAMPLE, id: 7 }).subjectKey).toBe('trade:7');
  });

  it('is what every source names as the events its runs emit', () => {
    const named = SOURCE_MANIFESTS.flatMap((manifest) => manifest.events);
    expect(named.filter((event) => !isEventType(event))).toEqual([]);
    // Every event has a source that emits it.
    expect(EVENT_TYPES.filter((type: EventType) => !named.includes(type))).toEqual([]);
  });
});
