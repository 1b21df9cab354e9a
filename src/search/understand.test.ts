// How a question is understood and how records are worded (pure parts): concepts of the
// vocabulary, taxonomy membership, members' roles and committee seats, name forms, and whether a
// question asks for people. The engine's use of them is in semantic.test.ts and the search bench.

import { describe, expect, it } from 'vitest';
import { conceptsIn, tickerOfAlias, typoBudget } from './entities.js';
import { kindsNamedIn } from './record-kinds.js';
import { tradeFilterOf } from './trade-filter.js';
import { asksForPeople } from './understand.js';
import { CONCEPTS } from './vocabulary/concepts.js';
import { inConcept, mergedRoles, nameForms, roleWords, seatWords, shortCommitteeName } from './wording.js';

const codes = (over: Partial<Parameters<typeof inConcept>[1]>) => ({
  gics_sector: null,
  gics_sub_industry: null,
  nasdaq_sector: null,
  nasdaq_industry: null,
  sector: null,
  industry: null,
  ...over,
});
const concept = (id: string) => {
  const found = CONCEPTS.find((entry) => entry.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe('companies by their common names', () => {
  it('finds the one ticker a short form, a product or a symbol with a name points to', () => {
    expect(tickerOfAlias('J&J')).toBe('JNJ');
    expect(tickerOfAlias('P&G')).toBe('PG');
    expect(tickerOfAlias('BofA')).toBe('BAC');
    expect(tickerOfAlias('JPM Chase')).toBe('JPM');
    expect(tickerOfAlias('the iPhone maker')).toBe('AAPL');
    expect(tickerOfAlias('Chevy')).toBe('GM');
    // Short forms of more of the most-traded companies, as people write them.
    expect(tickerOfAlias('Amex')).toBe('AXP');
    expect(tickerOfAlias('TSMC')).toBe('TSM');
    expect(tickerOfAlias('Schwab')).toBe('SCHW');
    expect(tickerOfAlias('T.J. Maxx')).toBe('TJX');
    expect(tickerOfAlias('Ticketmaster')).toBe('LYV');
  });

  it('leaves to the directory lookup a name of several tickers or of none', () => {
    // Two share classes, two lines with the word, a word of no line.
    expect(tickerOfAlias('Google')).toBeUndefined();
    expect(tickerOfAlias('Pfizer')).toBeUndefined();
    expect(tickerOfAlias('Palantir Technologies Inc')).toBeUndefined();
    expect(tickerOfAlias('Chip Roy')).toBeUndefined();
  });
});

describe('concepts', () => {
  it('finds the field phrases of a question, singular or plural', () => {
    expect(conceptsIn('chip makers').map((c) => c.id)).toEqual(['semiconductors']);
    expect(conceptsIn('Which senators bought oil and gas stocks?').map((c) => c.id)).toContain('oil-gas');
    expect(conceptsIn('cruise lines').map((c) => c.id)).toEqual(['cruise-lines']);
    expect(conceptsIn('wireless carriers').map((c) => c.id)).toEqual(['wireless']);
    // A member named Chip is not a chip maker; a word alone that is no phrase finds nothing.
    expect(conceptsIn('Chip Roy')).toEqual([]);
    expect(conceptsIn('Nancy Pelosi')).toEqual([]);
    // Two-letter phrase words count: "EV makers" are carmakers of electric vehicles, "iPhone maker" is not.
    expect(conceptsIn('EV makers').map((c) => c.id)).toEqual(['ev']);
    // The sectors by the market's plural names.
    expect(conceptsIn('GOP reps buying financials').map((c) => c.id)).toEqual(['financials']);
    expect(conceptsIn('senators selling industrials').map((c) => c.id)).toEqual(['industrials']);
    expect(conceptsIn('consumer staples in 2022').map((c) => c.id)).toEqual(['consumer-staples']);
    expect(conceptsIn('a financial disclosure')).toEqual([]);
    expect(conceptsIn('iPhone maker').map((c) => c.id)).not.toContain('ev');
  });

  it('puts a company in a concept through its taxonomy codes, never by ticker', () => {
    expect(inConcept(concept('semiconductors'), codes({ gics_sub_industry: 'Semiconductors' }))).toBe(true);
    expect(inConcept(concept('semiconductors'), codes({ nasdaq_industry: 'Semiconductors' }))).toBe(true);
    expect(inConcept(concept('semiconductors'), codes({ gics_sub_industry: 'Systems Software' }))).toBe(
      false,
    );
    // Nasdaq files airlines and couriers under one SIC description; GICS tells them apart.
    const airline = codes({
      gics_sub_industry: 'Passenger Airlines',
      nasdaq_industry: 'Air Freight/Delivery Services',
    });
    const courier = codes({
      gics_sub_industry: 'Air Freight & Logistics',
      nasdaq_industry: 'Air Freight/Delivery Services',
    });
    expect(inConcept(concept('airlines'), airline)).toBe(true);
    expect(inConcept(concept('airlines'), courier)).toBe(false);
    expect(inConcept(concept('energy'), codes({ gics_sector: 'Energy' }))).toBe(true);
  });
});

describe('members in words', () => {
  it('says roles with their dates, current ones twice, and who leads which party', () => {
    const whip = {
      politician_id: 1,
      title: 'Senate Majority Whip',
      start_date: '2025-01-03',
      end_date: null,
    };
    expect(roleWords(whip, 'R', '2026-06-01')).toBe(
      'Senate Majority Whip, current Senate Majority Whip since 2025 Republican whip of the Senate',
    );
    const speaker = {
      politician_id: 2,
      title: 'Speaker of the House',
      start_date: '2019-01-03',
      end_date: '2023-01-03',
    };
    expect(roleWords(speaker, 'D', '2026-06-01')).toBe(
      'former Speaker of the House 2019-2023 Speaker emerita emeritus',
    );
  });

  it('joins terms of one role held back to back', () => {
    const terms = [
      { politician_id: 2, title: 'Speaker of the House', start_date: '2021-01-03', end_date: '2023-01-03' },
      { politician_id: 2, title: 'Speaker of the House', start_date: '2019-01-03', end_date: '2021-01-03' },
      { politician_id: 2, title: 'House Minority Leader', start_date: '2023-01-03', end_date: null },
    ];
    expect(mergedRoles(terms).map((role) => [role.title, role.start_date, role.end_date])).toEqual([
      ['Speaker of the House', '2019-01-03', '2023-01-03'],
      ['House Minority Leader', '2023-01-03', null],
    ]);
  });

  it('joins terms the roster lists twice into the latest end, in either order', () => {
    // As the roster lists Gary Palmer's House Republican Policy Committee Chair terms.
    const title = 'House Republican Policy Committee Chair';
    const terms = [
      { politician_id: 3, title, start_date: '2019-01-03', end_date: '2021-01-03' },
      { politician_id: 3, title, start_date: '2021-01-03', end_date: '2023-01-03' },
      { politician_id: 3, title, start_date: '2021-01-03', end_date: '2025-01-03' },
    ];
    for (const order of [terms, [terms[0], terms[2], terms[1]], [...terms].reverse()]) {
      expect(mergedRoles(order as typeof terms).map((role) => [role.start_date, role.end_date])).toEqual([
        ['2019-01-03', '2025-01-03'],
      ]);
    }
    const held = [
      { politician_id: 3, title, start_date: '2019-01-03', end_date: null },
      { politician_id: 3, title, start_date: '2021-01-03', end_date: '2023-01-03' },
    ];
    expect(mergedRoles(held).map((role) => [role.start_date, role.end_date])).toEqual([['2019-01-03', null]]);
  });

  it('says chairs and ranking members as people ask for them', () => {
    expect(shortCommitteeName('Senate Committee on Armed Services')).toBe('Senate Armed Services Committee');
    expect(shortCommitteeName('Senate Select Committee on Intelligence')).toBe(
      'Senate Intelligence Committee',
    );
    const seat = {
      politician_id: 1,
      committee_id: 'SSAS',
      name: 'Senate Committee on Armed Services',
      parent_name: null,
      chamber: 'senate',
      side: 'minority',
    };
    expect(seatWords({ ...seat, title: 'Ranking Member' }, 'D')).toBe(
      'Ranking Member of the Senate Committee on Armed Services; Senate Armed Services Committee ranking member; top Democrat on Senate Committee on Armed Services',
    );
    expect(seatWords({ ...seat, title: null }, 'D')).toBe('member of Senate Committee on Armed Services');
  });

  it('carries the name forms people type', () => {
    expect(
      nameForms({ name: 'Bernard Sanders', first_name: 'Bernard', last_name: 'Sanders', nickname: 'Bernie' }),
    ).toEqual(['Bernie Sanders']);
    expect(
      nameForms({ name: 'Chuck Grassley', first_name: 'Charles', last_name: 'Grassley', nickname: 'Chuck' }),
    ).toEqual(['Charles Grassley', 'Charlie Grassley', 'Chip Grassley']);
  });
});

describe('questions', () => {
  it('asks for people when it names them', () => {
    expect(asksForPeople('senators who sold airline stocks')).toBe(true);
    expect(asksForPeople('who traded NVDA')).toBe(true);
    expect(asksForPeople('airline stocks')).toBe(false);
  });

  it('allows more letters wrong in longer words', () => {
    expect([typoBudget(4), typoBudget(6), typoBudget(10)]).toEqual([1, 2, 3]);
  });
});

describe('kindsNamedIn: a kind of record the question names', () => {
  const all = ['politicians', 'tickers', 'trades', 'bills', 'lobbying', 'contracts'] as const;
  it('narrows to the kinds named, within those asked for', () => {
    expect(kindsNamedIn('bills about taxes', all, false)).toEqual(['bills']);
    expect(kindsNamedIn('pharmaceutical lobbying', all, false)).toEqual(['lobbying']);
    expect(kindsNamedIn('NASA contracts', all, false)).toEqual(['contracts']);
    expect(kindsNamedIn('lobbying on defense legislation', all, false)).toEqual(['bills', 'lobbying']);
    expect(kindsNamedIn('NASA contracts', ['tickers', 'contracts'], false)).toEqual(['contracts']);
  });
  it('leaves the kinds as asked when it names none of those asked for', () => {
    expect(kindsNamedIn('defense contractors', all, false)).toEqual(all);
    expect(kindsNamedIn('Bill Cassidy', ['politicians'], false)).toEqual(['politicians']);
    expect(kindsNamedIn('who sponsored the infrastructure bill', ['bills', 'lobbying'], true)).toEqual([
      'bills',
      'lobbying',
    ]);
  });
  it('answers a question about people with members and the trades that group into them', () => {
    expect(kindsNamedIn('who sponsored the infrastructure bill', all, true)).toEqual([
      'politicians',
      'trades',
    ]);
    expect(kindsNamedIn('members trading nvidia', ['politicians', 'tickers'], true)).toEqual(['politicians']);
  });
});

describe('tradeFilterOf: what a question about people says of their trades', () => {
  it.each([
    [
      'senators who sold stock before the covid crash in February 2020',
      { from: '2020-02-01', to: '2020-02-29', chamber: 'Senate', direction: 'sell' },
    ],
    [
      'senators who sold airline stocks before March 2020',
      { to: '2020-02-29', chamber: 'Senate', direction: 'sell' },
    ],
    [
      'airline shares dumped by members of congress in early 2020',
      { from: '2020-01-01', to: '2020-04-30', direction: 'sell' },
    ],
    ['carrier stocks bought by representatives', { chamber: 'House', direction: 'buy' }],
    ['who traded NVDA in 2021', { from: '2021-01-01', to: '2021-12-31' }],
    ['members trading nvidia', {}],
  ])('%s', (question, expected) => {
    expect(tradeFilterOf(question)).toEqual(expected);
  });
});
