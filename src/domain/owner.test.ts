import { describe, expect, it } from 'vitest';
import { normalizeOwner, type Owner } from './owner.js';

describe('normalizeOwner', () => {
  it.each<[string, Owner]>([
    ['Self', 'Self'],
    ['SPOUSE', 'Spouse'],
    ['sp', 'Spouse'],
    ['joint', 'Joint'],
    ['JT', 'Joint'],
    ['child', 'Dependent Child'],
    ['Dependent Child', 'Dependent Child'],
    ['dependent', 'Dependent Child'],
    ['dc', 'Dependent Child'],
    ['  Spouse\t', 'Spouse'],
  ])('reads %j as %s', (text, owner) => {
    expect(normalizeOwner(text)).toBe(owner);
    expect(normalizeOwner(text, true)).toBe(owner);
  });

  it('says nothing where the source says nothing, except a blank House owner column, which is the filer', () => {
    for (const blank of [null, undefined, '', '   ']) {
      expect(normalizeOwner(blank)).toBeNull();
      expect(normalizeOwner(blank, true)).toBe('Self');
    }
    // Only the table's own spellings: "__proto__" and "constructor" in an owner cell once read as
    // Object's own members (an object or a function where an owner was promised).
    for (const unknown of [
      '--',
      'N/A',
      'dependent  child',
      'toString',
      '__proto__',
      'constructor',
      'hasOwnProperty',
    ]) {
      expect(normalizeOwner(unknown), unknown).toBeNull();
      expect(normalizeOwner(unknown, true), unknown).toBeNull();
    }
  });
});
