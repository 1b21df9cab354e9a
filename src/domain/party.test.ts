// Party letters and names: every roster party is served as D, R or I, the name kept beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { partyCode, partyName } from './party.js';

const dataDir = inject('dataDir');

describe('partyCode and partyName', () => {
  it.each([
    ['Democrat', 'D', 'Democrat'],
    ['Republican', 'R', 'Republican'],
    ['Independent', 'I', 'Independent'],
    ['Libertarian', 'I', 'Libertarian'],
    ['Independent Democrat', 'I', 'Independent Democrat'],
    ['  Whig ', 'I', 'Whig'],
    ['D', 'D', 'Democrat'],
    ['r', 'R', 'Republican'],
    ['__proto__', 'I', '__proto__'],
    ['Democratic', 'D', 'Democratic'],
    ['republican', 'R', 'republican'],
    ['I', 'I', 'Independent'],
    ['d', 'D', 'Democrat'],
    ['R', 'R', 'Republican'],
    ['X', 'I', 'X'],
    ['Independent \n  Democrat', 'I', 'Independent Democrat'],
    [' democrat ', 'D', 'democrat'],
    // Only the roster's exact names map: spaces inside a word are not dropped.
    ['Re publican', 'I', 'Re publican'],
  ])('%s is %s (%s)', (raw, code, name) => {
    expect(partyCode(raw)).toBe(code);
    expect(partyName(raw)).toBe(name);
  });

  it('gives no party for no text', () => {
    expect(partyCode(null)).toBeNull();
    expect(partyCode('  ')).toBeNull();
    expect(partyCode(undefined)).toBeNull();
    expect(partyCode('')).toBeNull();
    expect(partyName(undefined)).toBeNull();
    expect(partyName(null)).toBeNull();
    expect(partyName(' \t ')).toBeNull();
  });
});

describe.skipIf(!dataDir)('the real roster', () => {
  it('maps every party of the historical and current legislators to D, R or I', () => {
    const parties = new Set<string>();
    for (const file of ['legislators-current.csv', 'legislators-historical.csv']) {
      const text = readFileSync(join(dataDir ?? '', 'congress', 'legislators', file), 'utf8');
      const header = text.slice(0, text.indexOf('\n')).split(',');
      const column = header.indexOf('party');
      for (const line of text.split('\n').slice(1)) {
        // Names may be quoted with commas; the party column sits before any such field only in
        // the simple rows, which are enough to collect the vocabulary.
        if (line.includes('"')) continue;
        const value = line.split(',')[column];
        if (value) parties.add(value);
      }
    }
    expect(parties.has('Libertarian')).toBe(true);
    expect(parties.size).toBeGreaterThan(20);
    for (const party of parties) expect(['D', 'R', 'I']).toContain(partyCode(party));
    expect([...parties].filter((party) => partyCode(party) === 'D')).toEqual(['Democrat']);
  });
});
