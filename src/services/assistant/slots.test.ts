// Reading a question by its slots: one form for synonyms, framing words dropped, the cues of a
// shape and the name or subject found wherever they stand (no database).
import { describe, expect, it } from 'vitest';
import { routeQuestion, windowOf } from './intents.js';
import { asksLargest, canonicalQuestion, namesIn } from './slots.js';

const today = new Date('2026-06-01T12:00:00Z');

describe('canonicalQuestion', () => {
  it.each([
    // Synonyms and inflections of buying and selling.
    ["who's been accumulating Eli Lilly in 2023?", "who's been buying Eli Lilly in 2023?"],
    ["Blake Moore's 2021 acquisitions", "Blake Moore's 2021 purchases"],
    ['Did Joe Courtney make any stock purchases in 2019?', 'Did Joe Courtney buy any stock in 2019?'],
    ['What did Rep. Dan Crenshaw purchase in 2021?', 'What did Rep. Dan Crenshaw buy in 2021?'],
    ['which politicians increased their stake in Microsoft?', 'which politicians bought Microsoft?'],
    ['who added Abbvie to their portfolio?', 'who bought Abbvie?'],
    ['who sold off their Boeing shares', 'who sold their Boeing shares'],
    // Framing words.
    ['I need Blake Moore’s 2021 trades for a story', 'Blake Moore’s 2021 trades'],
    ['For a story on Goldman Sachs: which members bought GS stock?', 'which members bought GS stock?'],
    // The largest by a measure, a vote "around" or weeks before.
    ['rank 2021 House sales by size', 'largest 2021 House sales'],
    [
      'did senators trade defense stocks around defense votes?',
      'did senators trade defense stocks ahead of defense votes?',
    ],
    ['selling banks in the weeks before banking votes', 'selling banks before banking votes'],
    // A subject put first and referred to by a pronoun.
    [
      'health care stocks: which representatives were selling them in 2022?',
      'which representatives were selling health care stocks in 2022?',
    ],
  ])('%s', (question, expected) => {
    expect(canonicalQuestion(question)).toBe(expected);
  });
});

describe('slots wherever they stand', () => {
  it('reads the largest trades by a measure or after the noun, not one member’s', () => {
    expect(asksLargest('Which trades in the second half of 2022 had the largest dollar amounts?')).toBe(true);
    expect(asksLargest('Which trades in March 2020 were worth the most?')).toBe(true);
    expect(asksLargest("Nancy Pelosi's biggest trades")).toBe(false);
    expect(asksLargest('who made the biggest Apple purchase?')).toBe(false);
    expect(asksLargest('top stocks this year')).toBe(false);
  });

  it('finds names after question words and courtesies', () => {
    expect(namesIn('When did Ro Khanna buy Apple?')).toEqual(['Ro Khanna']);
    expect(namesIn('Would Amgen be a good hold?')).toEqual([]);
  });

  it('reads "since" a month as from that month to today', () => {
    expect(windowOf('what has Tim Moore been trading since January 2025', today)).toMatchObject({
      dateFrom: '2025-01-01',
      dateTo: '2026-06-01',
    });
    expect(windowOf('since the start of 2024', today)).toMatchObject({ dateFrom: '2024-01-01' });
  });

  it.each([
    // Who bought or sold: the people anywhere, the subject without what stands around it.
    ['buyers of AMD among members, 2021', { kind: 'ticker_trades', ticker: 'AMD', direction: 'buy' }],
    ['Any House Democrats buying Pfizer in 2021?', { kind: 'ticker_trades', ticker: 'Pfizer' }],
    [
      'Anyone in the House dump Netflix in 2022?',
      { kind: 'ticker_trades', ticker: 'Netflix', direction: 'sell' },
    ],
    ['Who bought shares in Amazon during 2020?', { kind: 'ticker_trades', ticker: 'Amazon' }],
    ['Sales of Apple by senators in 2020', { kind: 'ticker_trades', ticker: 'Apple', direction: 'sell' }],
    ['Apple in Congress: who trades it?', { kind: 'ticker_trades', ticker: 'Apple' }],
    // A member: the name wherever it stands, whatever the verb.
    ['When did Ro Khanna buy Apple?', { kind: 'member_trades', member: 'Ro Khanna', direction: 'buy' }],
    ['How much Apple did Nancy Pelosi buy in 2021?', { kind: 'member_trades', member: 'Nancy Pelosi' }],
    [
      'I need Blake Moore’s 2021 acquisitions for a story',
      { kind: 'member_trades', member: 'Blake Moore', direction: 'buy', window: { dateFrom: '2021-01-01' } },
    ],
    // The largest trades.
    ['Which trades in March 2020 were worth the most?', { kind: 'biggest_trades' }],
    ['rank 2021 House sales by size', { kind: 'biggest_trades', direction: 'sell' }],
    // Conflicts: the cue anywhere, the name the one the question holds.
    ['Scott Franklin: conflict flags?', { kind: 'conflicts', member: 'Scott Franklin' }],
    ["Any conflicts of interest with Dan Crenshaw's trades?", { kind: 'conflicts', member: 'Dan Crenshaw' }],
    [
      "do Greg Landsman's trades overlap with his committee work?",
      { kind: 'conflicts', member: 'Greg Landsman' },
    ],
    // A company's dossier: the people's dealings in it.
    ["What's Congress's exposure to Nvidia?", { kind: 'dossier', company: 'Nvidia' }],
    ['Congressional activity in Boeing', { kind: 'dossier', company: 'Boeing' }],
    ['What has Congress been doing with Caterpillar stock?', { kind: 'dossier', company: 'Caterpillar' }],
    ['Could you summarize congressional trading in Microsoft?', { kind: 'dossier', company: 'Microsoft' }],
    // Advice, and questions with no subject to list.
    ['Would Amgen be a good long-term hold?', { kind: 'beyond' }],
    ['Is Apple a buy?', { kind: 'beyond' }],
    ['is it legal for congress members to trade stocks?', { kind: 'search' }],
    ['Should Congress ban stock trading?', { kind: 'search' }],
    // A pronoun or a request read as the name: the name the question holds.
    ['Lloyd Doggett: what did he buy in 2021?', { kind: 'member_trades', member: 'Lloyd Doggett' }],
    ["run me through Pat Fallon's sales in 2021", { kind: 'member_trades', member: 'Pat Fallon' }],
    ['What did Jefferson Shreve get rid of in 2025?', { kind: 'member_trades', direction: 'sell' }],
    // "by whom", a kind of company after a verb, a chamber's possessive, "which representative purchases".
    ['congressional purchases of Adobe in 2025, by whom?', { kind: 'ticker_trades', ticker: 'Adobe' }],
    [
      'were there representatives dumping insurance companies?',
      { kind: 'ticker_trades', ticker: 'insurance companies' },
    ],
    ["Senate's top-dollar sales in 2019", { kind: 'biggest_trades', direction: 'sell' }],
    ['Which representative purchases in 2022 were the largest by amount?', { kind: 'biggest_trades' }],
    // A name and a member's words without a form: left to the lookup, unless a title says whose.
    ['Dwight Evans portfolio activity 2020', { kind: 'search' }],
    ['Rep. Dwight Evans portfolio activity 2020', { kind: 'member_trades', member: 'Dwight Evans' }],
  ])('%s', (question, expected) => {
    expect(routeQuestion(question, today)).toMatchObject(expected);
  });
});
