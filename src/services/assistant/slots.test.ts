// Reading a question by its slots: one form for synonyms, framing words dropped, the cues of a
// shape and the name or subject found wherever they stand (no database).
import { describe, expect, it } from 'vitest';
import { stateOf } from './answer-parts.js';
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
    ['is it legal for congress members to trade stocks?', { kind: 'beyond', about: 'rules' }],
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

// Each class of wording read the same way, tried on wordings of its own (none of them a bench
// question): a verb and its inflections, a frame around the question, a period, the people, a
// member's name, a company, the cue of a shape.
describe('generalizing by class', () => {
  it.each([
    // Verbs of buying and selling, any inflection, with what follows them.
    ['which lawmakers got into Apple in 2021?', { kind: 'ticker_trades', ticker: 'Apple', direction: 'buy' }],
    ['Who bailed on Boeing in 2021?', { kind: 'ticker_trades', ticker: 'Boeing', direction: 'sell' }],
    [
      'Which members went long on Nvidia in 2023?',
      { kind: 'ticker_trades', ticker: 'Nvidia', direction: 'buy' },
    ],
    ['list congresspeople who took profits on Apple', { kind: 'ticker_trades', direction: 'sell' }],
    [
      'Which lawmakers ditched their Boeing shares?',
      { kind: 'ticker_trades', ticker: 'Boeing shares', direction: 'sell' },
    ],
    [
      'Who cut their exposure to Apple in 2022?',
      { kind: 'ticker_trades', ticker: 'Apple', direction: 'sell' },
    ],
    ['Which politicians poured money into Microsoft?', { kind: 'ticker_trades', direction: 'buy' }],
    [
      'whose portfolios added Broadcom in 2024?',
      { kind: 'ticker_trades', ticker: 'Broadcom', direction: 'buy' },
    ],
    ['did Kelly Loeffler cut her exposure to anything?', { kind: 'member_trades', direction: 'sell' }],
    ['What positions did Greg Gianforte open in 2020?', { kind: 'member_trades', direction: 'buy' }],
    [
      'Did any Democrats dispose of Exxon shares?',
      { kind: 'ticker_trades', ticker: 'Exxon shares', direction: 'sell' },
    ],
    // The people: singular, a state, a delegation, a chamber before the trades.
    [
      'Has any House Republican piled into Tesla?',
      { kind: 'ticker_trades', ticker: 'Tesla', direction: 'buy' },
    ],
    ['Did any congressperson sell Tesla stock in 2022?', { kind: 'ticker_trades', ticker: 'Tesla' }],
    ['Texas Republicans who bought Exxon in 2022', { kind: 'ticker_trades', ticker: 'Exxon' }],
    ['senate sells of $XOM, 2021', { kind: 'ticker_trades', ticker: 'XOM', direction: 'sell' }],
    [
      'Microsoft purchases by senators in Q3 2023 — who made them?',
      { kind: 'ticker_trades', ticker: 'Microsoft' },
    ],
    // The subject without a period after it.
    ['who has been snapping up bank stocks YTD?', { kind: 'ticker_trades', ticker: 'bank stocks' }],
    [
      'Which reps bought pharmaceutical stocks over the past 18 months?',
      { kind: 'ticker_trades', ticker: 'pharmaceutical stocks' },
    ],
    ['senators that were buying Exxon Mobil last spring', { kind: 'ticker_trades', ticker: 'Exxon Mobil' }],
    // A member's name: after a title, a request or a contraction, before a month.
    [
      'What has Sen. Tuberville been up to in the market in 2021?',
      { kind: 'member_trades', member: 'Tuberville' },
    ],
    ['Trades by Representative Ro Khanna in 2021', { kind: 'member_trades', member: 'Ro Khanna' }],
    [
      'Check Rep. Dan Crenshaw’s trades for conflicts of interest',
      { kind: 'conflicts', member: 'Dan Crenshaw' },
    ],
    ["What's Mark Green been buying since last year?", { kind: 'member_trades', member: 'Mark Green' }],
    ['Can you pull Dan Crenshaw trades for Q1 2021?', { kind: 'member_trades', member: 'Dan Crenshaw' }],
    ['Kelly Loeffler Feb 2020 sales', { kind: 'member_trades', member: 'Kelly Loeffler', direction: 'sell' }],
    ['Trades disclosed by Tom Carper for 2020', { kind: 'member_trades', member: 'Tom Carper' }],
    ['walk me through Josh Gottheimer’s buys in 2022', { kind: 'member_trades', member: 'Josh Gottheimer' }],
    ['Summarize Ro Khanna’s 2021 trading', { kind: 'member_trades', member: 'Ro Khanna' }],
    // Conflicts in other words.
    ['Any ethics red flags for Nancy Pelosi?', { kind: 'conflicts', member: 'Nancy Pelosi' }],
    ["Tuberville's potential conflicts", { kind: 'conflicts', member: 'Tuberville' }],
    ['does Virginia Foxx trade in sectors she regulates?', { kind: 'conflicts', member: 'Virginia Foxx' }],
    ['has dan crenshaw got conflicts?', { kind: 'conflicts', member: 'dan crenshaw' }],
    ['khanna conflicts of interest', { kind: 'conflicts', member: 'khanna' }],
    // The largest trades in other words.
    ['Show the heaviest senate buys of 2020', { kind: 'biggest_trades', direction: 'buy' }],
    ['What were the most sizable purchases by senators in 2020?', { kind: 'biggest_trades' }],
    // A dossier in other words.
    ['Brief me on Chevron', { kind: 'dossier', company: 'Chevron' }],
    ['Key facts on Microsoft', { kind: 'dossier', company: 'Microsoft' }],
    ['everything you have about Boeing', { kind: 'dossier', company: 'Boeing' }],
    ['how exposed is Congress to Caterpillar?', { kind: 'dossier', company: 'Caterpillar' }],
    ['Give me a snapshot of Disney', { kind: 'dossier', company: 'Disney' }],
    ['Nvidia: the congressional angle', { kind: 'dossier', company: 'Nvidia' }],
    ["What's the deal with Palantir and Congress?", { kind: 'dossier', company: 'Palantir' }],
    ['Boeing - what do you have?', { kind: 'dossier', company: 'Boeing' }],
    ['Research Lockheed Martin for me', { kind: 'dossier', company: 'Lockheed Martin' }],
    // The rules members trade under: no record answers them.
    ['Explain insider trading rules for Congress', { kind: 'beyond', about: 'rules' }],
    ['Is it illegal for a senator to own bank stocks?', { kind: 'beyond', about: 'rules' }],
    // A frame before the question, a request before the name.
    ['Quick q — who sold Zoom in Q4 2020?', { kind: 'ticker_trades', ticker: 'Zoom', direction: 'sell' }],
    ['Looking for members who bought Apple in March 2020', { kind: 'ticker_trades', ticker: 'Apple' }],
    ['Catalog Nancy Pelosi’s 2021 purchases', { kind: 'member_trades', member: 'Nancy Pelosi' }],
    [
      'Which representatives moved out of Pfizer in 2021?',
      { kind: 'ticker_trades', ticker: 'Pfizer', direction: 'sell' },
    ],
    // A portfolio asked as what a member owns now.
    ["Show Dan Crenshaw's current positions", { kind: 'portfolio', member: 'Dan Crenshaw' }],
    ['What stocks does Nancy Pelosi own?', { kind: 'portfolio', member: 'Nancy Pelosi' }],
    // Trades before a committee voted, not only before "a vote".
    [
      'which House members sold bank shares days before the banking committee voted in 2023?',
      { kind: 'timing', topic: 'banking' },
    ],
  ])('%s', (question, expected) => {
    expect(routeQuestion(question, today)).toMatchObject(expected);
  });

  it.each([
    ['last spring', '2026-03-01', '2026-05-31'],
    ['the summer of 2020', '2020-06-01', '2020-08-31'],
    ['last winter', '2025-12-01', '2026-02-28'],
    ['Q3 2023', '2023-07-01', '2023-09-30'],
    ['2023 Q3', '2023-07-01', '2023-09-30'],
    ['2H 2022', '2022-07-01', '2022-12-31'],
    ["during 2021's first quarter", '2021-01-01', '2021-03-31'],
    ['fourth-quarter 2021', '2021-10-01', '2021-12-31'],
    ['the end of 2021', '2021-10-01', '2021-12-31'],
    ['March of 2020', '2020-03-01', '2020-03-31'],
    ['in Mar. 2020', '2020-03-01', '2020-03-31'],
    ['Jan–Mar 2021', '2021-01-01', '2021-03-31'],
    ["in '21", '2021-01-01', '2021-12-31'],
    ['late 2021', '2021-09-01', '2021-12-31'],
    ['mid-2020', '2020-05-01', '2020-08-31'],
    ['between 2019 and 2021', '2019-01-01', '2021-12-31'],
    ['2020-21', '2020-01-01', '2021-12-31'],
    ['since the midterms', '2022-11-08', '2026-06-01'],
    ['since the 2020 election', '2020-11-03', '2026-06-01'],
    ['in the run-up to the 2020 election', '2020-08-03', '2020-11-02'],
    ['since last year', '2025-01-01', '2026-06-01'],
    ['over the past 18 months', '2024-12-01', '2026-06-01'],
    ['the last year and a half', '2024-12-01', '2026-06-01'],
    ['the last quarter', '2026-01-01', '2026-03-31'],
    ['YTD', '2026-01-01', '2026-06-01'],
    ['year-to-date', '2026-01-01', '2026-06-01'],
    ['in 2021 so far', '2021-01-01', '2021-12-31'],
  ])('reads "%s" as a period', (words, dateFrom, dateTo) => {
    expect(windowOf(`who bought Apple ${words}?`, today)).toMatchObject({ dateFrom, dateTo });
  });

  it('brings each verb to "buy" or "sell" in the inflection it was written in', () => {
    expect(canonicalQuestion('did X cut their stake in Intel')).toBe('did X sell Intel');
    expect(canonicalQuestion('who cut their stake in Intel')).toBe('who sold Intel');
    expect(canonicalQuestion('who is bailing out of Intel')).toBe('who is selling Intel');
    expect(canonicalQuestion('who gets into Intel')).toBe('who buys Intel');
  });
});

describe('generalizing by class: companies, sectors, names and dossiers in other words', () => {
  it.each([
    // A company by its short form: the subject is kept as written (tickerOfAlias resolves it).
    ['Which lawmakers sold P&G in 2019?', { kind: 'ticker_trades', ticker: 'P&G', direction: 'sell' }],
    ['who sold Alphabet/Google in 2021', { kind: 'ticker_trades', ticker: 'Alphabet/Google' }],
    // A sector as a plural noun or adjective, or a kind with "names" / "plays", the people first.
    [
      'Who in the House was buying consumer staples in 2022?',
      { kind: 'ticker_trades', ticker: 'consumer staples', direction: 'buy' },
    ],
    [
      'Which Dems were selling utilities names in 2022?',
      { kind: 'ticker_trades', ticker: 'utilities stocks', direction: 'sell' },
    ],
    ['healthcare plays bought by senators in 2020', { kind: 'ticker_trades', ticker: 'healthcare stocks' }],
    ['Senate Democrats dumping industrials in 2020?', { kind: 'ticker_trades', direction: 'sell' }],
    // The people before the verb or the subject, whatever stands between.
    [
      'House GOP buying energy in 2022 - who were they?',
      { kind: 'ticker_trades', ticker: 'energy', direction: 'buy' },
    ],
    ['Republican senators, tech purchases, 2021', { kind: 'ticker_trades', ticker: 'tech' }],
    ['Senate Republicans - who sold Boeing in 2020?', { kind: 'ticker_trades', ticker: 'Boeing' }],
    ['Democratic House members and their Nvidia buys in 2023', { kind: 'ticker_trades', ticker: 'Nvidia' }],
    ["Republican Senate members' Tesla sales in 2022", { kind: 'ticker_trades', ticker: 'Tesla' }],
    // A member's party and state, or "of <State>", after the name.
    [
      'Sen. Sheldon Whitehouse (D-R.I.) purchases in 2021',
      { kind: 'member_trades', member: 'Sheldon Whitehouse', direction: 'buy' },
    ],
    ['Ro Khanna, D-Calif., sold what in 2022?', { kind: 'member_trades', member: 'Ro Khanna' }],
    ['trades by Josh Gottheimer (D-NJ-5) in 2022', { kind: 'member_trades', member: 'Josh Gottheimer' }],
    ['Rep. Michael McCaul of Texas — trades in 2021', { kind: 'member_trades', member: 'Michael McCaul' }],
    ['Sen. Tuberville of Alabama: purchases in 2021', { kind: 'member_trades', member: 'Tuberville' }],
    // Members known by their initials, unless the letters stand where a ticker does.
    ['What did AOC sell in 2021?', { kind: 'member_trades', member: 'Alexandria Ocasio-Cortez' }],
    ["MTG's 2022 purchases", { kind: 'member_trades', member: 'Marjorie Taylor Greene' }],
    ['who bought MTG in 2021', { kind: 'ticker_trades', ticker: 'MTG' }],
    // A dossier by other names.
    ['Put together a tear sheet on Caterpillar', { kind: 'dossier', company: 'Caterpillar' }],
    ['Disney company report', { kind: 'dossier', company: 'Disney' }],
    ['write-up on Pfizer', { kind: 'dossier', company: 'Pfizer' }],
    ['Background report for Intel', { kind: 'dossier', company: 'Intel' }],
    ['Give me a cheat sheet on Ford', { kind: 'dossier', company: 'Ford' }],
    ['Compile a report on Boeing', { kind: 'dossier', company: 'Boeing' }],
    // ... which a conflicts report is not.
    ['conflict report on Kathy Manning', { kind: 'conflicts', member: 'Kathy Manning' }],
    ['Nancy Pelosi conflict report', { kind: 'conflicts', member: 'Nancy Pelosi' }],
    // "w/" written out, and the people "with" the trades asked for.
    ['senators w/ Exxon trades in 2022', { kind: 'ticker_trades', ticker: 'Exxon' }],
    ["What's up w/ Boeing?", { kind: 'dossier', company: 'Boeing' }],
    // The topic of the votes after them: "before votes on <topic> bills".
    [
      'which reps bought oil stocks ahead of votes on energy legislation in 2022?',
      { kind: 'timing', topic: 'energy' },
    ],
    [
      'senators selling drug stocks prior to hearings about health care',
      { kind: 'timing', topic: 'health care' },
    ],
    // How Congress as a whole dealt in one company: its dossier, the company first or last.
    ['how have legislators been trading Costco?', { kind: 'dossier', company: 'Costco' }],
    ['Nike — how did Congress trade it?', { kind: 'dossier', company: 'Nike' }],
    ['how are members of congress positioned in Chevron', { kind: 'dossier', company: 'Chevron' }],
    ['Schwab: how have politicians played it', { kind: 'dossier', company: 'Schwab' }],
  ])('%s', (question, expected) => {
    expect(routeQuestion(question, today)).toMatchObject(expected);
  });

  it('reads the state of the people after "of", but not a company named after one', () => {
    expect(stateOf('Which senators of Texas sold Exxon?').filter).toEqual({ state: 'TX' });
    expect(stateOf('who bought Bank of Hawaii in 2021').filter).toEqual({});
    expect(canonicalQuestion('who bought Bank of Hawaii in 2021')).toBe('who bought Bank of Hawaii in 2021');
  });
});
