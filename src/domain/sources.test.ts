import { describe, expect, it } from 'vitest';
import {
  CHAMBER_OF_SOURCE,
  chamberOfSource,
  isTradeSource,
  SOURCE_NAMES,
  SOURCE_OF_CHAMBER_FILTER,
  SOURCE_OF_NAME,
  TRADE_SOURCES,
} from './sources.js';

describe('the disclosure sources table', () => {
  it('names the three sources the CLI and configuration take, and the source column each writes', () => {
    expect(SOURCE_NAMES).toEqual(['house', 'senate', 'oge']);
    expect(SOURCE_OF_NAME).toEqual({ house: 'house_clerk', senate: 'senate_efd', oge: 'oge' });
    expect(TRADE_SOURCES).toEqual(['house_clerk', 'senate_efd', 'oge']);
  });

  it('maps each stored source to its chamber, and each chamber filter value to its source', () => {
    expect(CHAMBER_OF_SOURCE).toEqual({ house_clerk: 'House', senate_efd: 'Senate', oge: 'Executive' });
    expect(SOURCE_OF_CHAMBER_FILTER).toEqual({
      house: 'house_clerk',
      senate: 'senate_efd',
      executive: 'oge',
    });
    // The two tables agree: a chamber filter finds the source whose chamber it names.
    for (const [filter, source] of Object.entries(SOURCE_OF_CHAMBER_FILTER)) {
      expect(CHAMBER_OF_SOURCE[source].toLowerCase()).toBe(filter);
    }
  });

  it.each([
    ['house_clerk', 'House'],
    ['senate_efd', 'Senate'],
    ['oge', 'Executive'],
  ] as const)('reads stored source %s as the %s', (source, chamber) => {
    expect(isTradeSource(source)).toBe(true);
    expect(chamberOfSource(source)).toBe(chamber);
  });

  it.each(['house', 'senate', 'House', 'OGE', '', 'constructor', '__proto__', 'toString'])(
    'knows no chamber for the value %j (short names and Object members are no stored source)',
    (value) => {
      expect(isTradeSource(value)).toBe(false);
      expect(chamberOfSource(value)).toBeNull();
    },
  );
});
