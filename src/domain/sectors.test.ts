// The sector vocabulary: every GICS name and alias, case-insensitively; nothing else.
import { describe, expect, it } from 'vitest';
import { GICS_SECTORS, normalizeSector } from './sectors.js';

describe('normalizeSector', () => {
  it('takes every GICS sector in any case and spacing', () => {
    for (const sector of GICS_SECTORS) {
      expect(normalizeSector(sector)).toBe(sector);
      expect(normalizeSector(` ${sector.toUpperCase().replace(' ', '  ')} `)).toBe(sector);
    }
  });

  it.each([
    ['Technology', 'Information Technology'],
    ['information technology', 'Information Technology'],
    ['Finance', 'Financials'],
    ['Basic Materials', 'Materials'],
    ['Telecommunication Services', 'Communication Services'],
    ['Telecommunications', 'Communication Services'],
    ['healthcare', 'Health Care'],
    ['Tech', 'Information Technology'],
    ['IT', 'Information Technology'],
    ['Financial', 'Financials'],
    ['Industrial', 'Industrials'],
    [' Basic\n Materials ', 'Materials'],
  ])('reads %s as %s', (raw, sector) => {
    expect(normalizeSector(raw)).toBe(sector);
  });

  it.each([
    '',
    '  ',
    null,
    undefined,
    'Miscellaneous',
    'toString',
    'technologies',
    'constructor',
    '__proto__',
    'Tech stocks',
  ])('knows no sector %j', (raw) => {
    expect(normalizeSector(raw)).toBeNull();
  });
});
