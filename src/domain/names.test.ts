// Member names as filers and data sets write them: the tokens the member matcher compares, the
// "Last, First" form, slugs, and the given names that stand for each other.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containsPhrase,
  foldAccents,
  givenNameForms,
  NAME_GROUPS,
  nameTokens,
  slugify,
  uncommaName,
} from './names.js';

describe('foldAccents', () => {
  it.each([
    ['Nydia Velázquez', 'Nydia Velazquez'],
    ['Tomás Ñíguez', 'Tomas Niguez'],
    ['Ron Wyden', 'Ron Wyden'],
  ])('folds %j to %j', (raw, folded) => {
    expect(foldAccents(raw)).toBe(folded);
  });
});

describe('nameTokens', () => {
  it.each([
    ['Hon. Mark Dr Green', ['mark', 'dr', 'green']],
    ['Ron L Wyden', ['ron', 'l', 'wyden']],
    ['Collins, Susan M. (Senator)', ['collins', 'susan', 'm']],
    ['Charles J. "Chuck" Grassley', ['charles', 'j', 'chuck', 'grassley']],
    ['The Honorable Nancy Pelosi', ['nancy', 'pelosi']],
    ['Mr. Dr. Rep. Sen. Representative Senator Mrs Ms Jane Doe', ['jane', 'doe']],
    ['A. Mitchell McConnell, Jr.', ['a', 'mitchell', 'mcconnell']],
    ['John Smith Sr', ['john', 'smith']],
    ['John Smith III, II', ['john', 'smith']],
    ['Henry IV V', ['henry']],
    // A parenthesis ends a word like a space.
    ['Ron(Senator)Wyden', ['ron', 'wyden']],
    ["Beto O'Rourke", ['beto', 'orourke']],
    ['Beto O’Rourke', ['beto', 'orourke']],
    ['Nydia M. Velázquez', ['nydia', 'm', 'velazquez']],
    ['Debbie Wasserman-Schultz', ['debbie', 'wasserman', 'schultz']],
    ['  ', []],
  ])('reads %j as %j', (raw, tokens) => {
    expect(nameTokens(raw)).toEqual(tokens);
  });

  it('keeps a last word even when it is an honorific or a suffix (a name is never emptied)', () => {
    expect(nameTokens('Hon.')).toEqual(['hon']);
    expect(nameTokens('Jr')).toEqual(['jr']);
    expect(nameTokens('Hon Rep')).toEqual(['rep']);
    expect(nameTokens('Jr Sr')).toEqual(['jr']);
  });

  it('strips honorifics only at the front and suffixes only at the end', () => {
    expect(nameTokens('Jr Smith')).toEqual(['jr', 'smith']);
    expect(nameTokens('Smith Hon')).toEqual(['smith', 'hon']);
  });

  it('gives lower-case letter words only', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (raw) => {
        for (const token of nameTokens(raw)) expect(token).toMatch(/^[a-z]+$/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('uncommaName', () => {
  it.each([
    ['Collins, Susan M. (Senator)', 'Susan M. Collins'],
    ['Wyden,Ron', 'Ron Wyden'],
    ['  Pelosi , Nancy  ', 'Nancy Pelosi'],
    ['A. Mitchell McConnell, Jr.', 'A. Mitchell McConnell'],
    ['John Smith, III', 'John Smith'],
    ['John Smith, sr', 'John Smith'],
    ['Ron Wyden', 'Ron Wyden'],
    ['Ron Wyden (Senator)', 'Ron Wyden'],
    ['(Senator) Ron Wyden', 'Ron Wyden'],
    ['Warren, Elizabeth, (D)', 'Elizabeth, Warren'],
    ['John Smith , Jr.', 'John Smith'],
    ['Smith,', 'Smith'],
  ])('writes %j as %j', (raw, name) => {
    expect(uncommaName(raw)).toBe(name);
  });
});

describe('slugify', () => {
  it.each([
    ['Nydia M. Velázquez', 'nydia-m-velazquez'],
    ["Beto O'Rourke", 'beto-orourke'],
    ['Beto O’Rourke', 'beto-orourke'],
    ['Charles J. "Chuck" Grassley', 'charles-j-chuck-grassley'],
    ['  --Mark   Green 2nd--  ', 'mark-green-2nd'],
    ['***', ''],
  ])('slugs %j as %j', (raw, slug) => {
    expect(slugify(raw)).toBe(slug);
  });

  it('gives lower-case words and digits joined by single dashes, no dash at either end', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (raw) => {
        const slug = slugify(raw);
        if (slug !== '') expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(slugify(slug)).toBe(slug);
      }),
      { numRuns: 200 },
    );
  });
});

describe('containsPhrase', () => {
  const tokens = ['charles', 'e', 'schumer', 'jr'];

  it.each([
    [['charles'], true],
    [['schumer', 'jr'], true],
    [['charles', 'e', 'schumer', 'jr'], true],
    [['e', 'schumer'], true],
    [['charles', 'schumer'], false],
    [['jr', 'charles'], false],
    [['charles', 'e', 'schumer', 'jr', 'x'], false],
    [['schumer', 'jr', 'x'], false],
    [[], false],
  ])('finds %j: %s', (phrase, found) => {
    expect(containsPhrase(tokens, phrase)).toBe(found);
  });

  it('finds every contiguous run of a token list, and nothing in an empty list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        (list, from, length) => {
          const start = from % list.length;
          const phrase = list.slice(start, start + 1 + (length % (list.length - start)));
          expect(containsPhrase(list, phrase)).toBe(true);
          expect(containsPhrase([], phrase)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('givenNameForms', () => {
  it.each([
    ['thomas', ['thomas', 'tom', 'tommy']],
    ['tom', ['thomas', 'tom', 'tommy']],
    ['chuck', ['charles', 'chuck', 'charlie', 'chip']],
    ['mitch', ['mitchell', 'mitch']],
    ['liz', ['elizabeth', 'liz', 'beth', 'betsy']],
  ])('lets %s stand for %j', (name, forms) => {
    expect([...givenNameForms(name)].sort()).toEqual([...forms].sort());
  });

  it('joins the groups of a name in two groups: Pat is Patrick or Patricia, Ted is Edward, Theodore or Rafael', () => {
    expect([...givenNameForms('pat')].sort()).toEqual(['pat', 'patricia', 'patrick', 'patty'].sort());
    expect([...givenNameForms('ted')].sort()).toEqual(
      ['ed', 'eddie', 'edward', 'rafael', 'ted', 'theodore'].sort(),
    );
    expect([...givenNameForms('jerry')].sort()).toEqual(['gerald', 'jerome', 'jerry']);
    // But Patrick is not Patricia.
    expect(givenNameForms('patrick').has('patricia')).toBe(false);
  });

  it('knows a name without other forms as itself only', () => {
    expect([...givenNameForms('nancy')]).toEqual(['nancy']);
    expect([...givenNameForms('')]).toEqual(['']);
  });

  it('is symmetric within the groups: a name stands for each of its forms and they for it', () => {
    for (const name of ['thomas', 'william', 'robert', 'katherine', 'earl', 'gustavus', 'andrew']) {
      for (const form of givenNameForms(name))
        expect(givenNameForms(form).has(name), `${form}→${name}`).toBe(true);
    }
  });

  it('is made of groups of two or more lower-case given names, each of which stands for its whole group', () => {
    expect(NAME_GROUPS.length).toBeGreaterThan(40);
    for (const group of NAME_GROUPS) {
      expect(group.length, group.join()).toBeGreaterThanOrEqual(2);
      expect(new Set(group).size, group.join()).toBe(group.length);
      for (const name of group) {
        expect(name).toMatch(/^[a-z]{2,}$/);
        const forms = givenNameForms(name);
        for (const other of group) expect(forms.has(other), `${name}→${other}`).toBe(true);
      }
    }
  });
});
