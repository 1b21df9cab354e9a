// The intent router and the number rule on their own (no database).
import { describe, expect, it } from 'vitest';
import { Evidence, redactUnsupported, unsupportedNumbers } from './grounding.js';
import { routeQuestion, windowOf } from './intents.js';

const today = new Date('2026-06-01T12:00:00Z');

describe('routeQuestion', () => {
  it.each([
    ['what did Nancy Pelosi trade last year?', { kind: 'member_trades', member: 'Nancy Pelosi' }],
    [
      'What has Senator Tommy Tuberville bought recently?',
      { kind: 'member_trades', member: 'Tommy Tuberville' },
    ],
    ['trades by Dan Crenshaw in 2021', { kind: 'member_trades', member: 'Dan Crenshaw' }],
    ["Nancy Pelosi's trades", { kind: 'member_trades', member: 'Nancy Pelosi' }],
    ['who traded NVDA?', { kind: 'ticker_trades', ticker: 'NVDA' }],
    ['Who bought $aapl this year', { kind: 'ticker_trades', ticker: 'AAPL' }],
    ['which senators sold Microsoft last year?', { kind: 'ticker_trades', ticker: 'Microsoft' }],
    ["What is Nancy Pelosi's portfolio?", { kind: 'portfolio', member: 'Nancy Pelosi' }],
    ['what does Josh Gottheimer hold', { kind: 'portfolio', member: 'Josh Gottheimer' }],
    ['holdings of Ro Khanna', { kind: 'portfolio', member: 'Ro Khanna' }],
    ['conflicts of interest for Nancy Pelosi', { kind: 'conflicts', member: 'Nancy Pelosi' }],
    ["Pelosi's conflicts", { kind: 'conflicts', member: 'Pelosi' }],
    ['top tickers this year', { kind: 'top_tickers' }],
    ['What are the most traded stocks?', { kind: 'top_tickers' }],
    ['senators selling airline stocks before March 2020', { kind: 'search' }],
    [
      'which senators sold stock before the COVID crash in February 2020?',
      {
        kind: 'ticker_trades',
        ticker: 'stock',
        direction: 'sell',
        window: { dateFrom: '2020-02-01', dateTo: '2020-02-29' },
      },
    ],
    ['Which senators dumped shares in February 2020?', { kind: 'ticker_trades', direction: 'sell' }],
    ['who purchased Amazon shares in March 2020?', { kind: 'ticker_trades', ticker: 'Amazon shares' }],
    [
      'who bought NVDA in 2024?',
      { kind: 'ticker_trades', ticker: 'NVDA', direction: 'buy', window: { dateFrom: '2024-01-01' } },
    ],
    ['which senators bought oil stocks in 2020?', { kind: 'ticker_trades', ticker: 'oil stocks' }],
    ['what were the biggest trades of 2020?', { kind: 'biggest_trades', window: { dateFrom: '2020-01-01' } }],
    ['largest purchases in 2021', { kind: 'biggest_trades', direction: 'buy' }],
    [
      'which senators bought oil stocks before energy votes?',
      { kind: 'timing', subject: 'oil', topic: 'energy' },
    ],
    [
      'which members sold drug makers ahead of health care bills in 2025?',
      { kind: 'timing', subject: 'drug makers', topic: 'health care' },
    ],
    ['tell me about Lockheed Martin', { kind: 'dossier', company: 'Lockheed Martin' }],
    ['dossier on NVDA', { kind: 'dossier', company: 'on NVDA' }],
    [
      'what did David Perdue sell in 2019?',
      { kind: 'member_trades', member: 'David Perdue', direction: 'sell' },
    ],
    [
      "show Marjorie Taylor Greene's purchases in 2025",
      { kind: 'member_trades', member: 'Marjorie Taylor Greene', direction: 'buy' },
    ],
    ["Ro Khanna's stock sales", { kind: 'member_trades', member: 'Ro Khanna', direction: 'sell' }],
    [
      'which shares did Susan Collins buy in 2014?',
      { kind: 'member_trades', member: 'Susan Collins', direction: 'buy' },
    ],
    ['does Kevin Hern have conflicts of interest?', { kind: 'conflicts', member: 'Kevin Hern' }],
    ['Has Ro Khanna any conflicts?', { kind: 'conflicts', member: 'Ro Khanna' }],
    ['Nancy Pelosi conflicts', { kind: 'conflicts', member: 'Nancy Pelosi' }],
    ['which members have conflicts of interest?', { kind: 'search' }],
    ['what do you have on Netflix?', { kind: 'dossier', company: 'Netflix' }],
    ['information about Pfizer', { kind: 'dossier', company: 'Pfizer' }],
    ['largest house purchases of 2022', { kind: 'biggest_trades', direction: 'buy' }],
    ['should I buy Tesla now?', { kind: 'beyond' }],
    ['what will NVDA trade at next year?', { kind: 'beyond' }],
    ['forecast the S&P 500', { kind: 'beyond' }],
    [
      'house members who sold Apple in 2020',
      { kind: 'ticker_trades', ticker: 'Apple', direction: 'sell', window: { dateFrom: '2020-01-01' } },
    ],
    ['lawmakers that bought $NVDA', { kind: 'ticker_trades', ticker: 'NVDA', direction: 'buy' }],
    [
      'Josh Gottheimer purchases 2021',
      {
        kind: 'member_trades',
        member: 'Josh Gottheimer',
        direction: 'buy',
        window: { dateFrom: '2021-01-01' },
      },
    ],
    [
      'what stocks did Earl Blumenauer sell in 2022?',
      { kind: 'member_trades', member: 'Earl Blumenauer', direction: 'sell' },
    ],
    ['check Dan Crenshaw for conflicts', { kind: 'conflicts', member: 'Dan Crenshaw' }],
    [
      'screen Senator Rick Scott for possible conflicts of interest',
      { kind: 'conflicts', member: 'Rick Scott' },
    ],
    ['give me a rundown on Boeing', { kind: 'dossier', company: 'Boeing' }],
    ['an overview of Lockheed Martin', { kind: 'dossier', company: 'Lockheed Martin' }],
    ['Tesla overview', { kind: 'dossier', company: 'Tesla' }],
    ['stock market overview', { kind: 'search' }],
    [
      'any congressmen selling Facebook in 2020?',
      { kind: 'ticker_trades', ticker: 'Facebook', direction: 'sell', window: { dateFrom: '2020-01-01' } },
    ],
    [
      'semiconductor stocks bought by members in 2021',
      { kind: 'ticker_trades', ticker: 'semiconductor stocks', direction: 'buy' },
    ],
    [
      'show all trades by Dan Crenshaw between 2020-01-01 and 2020-06-30',
      {
        kind: 'member_trades',
        member: 'Dan Crenshaw',
        window: { dateFrom: '2020-01-01', dateTo: '2020-06-30' },
      },
    ],
    [
      'list every stock Susan Collins bought in 2019',
      { kind: 'member_trades', member: 'Susan Collins', direction: 'buy' },
    ],
    ['top 5 senate sales in 2020', { kind: 'biggest_trades', direction: 'sell' }],
    ['which house sales in 2021 were the biggest?', { kind: 'biggest_trades', direction: 'sell' }],
    ["which of Nancy Pelosi's trades were the largest?", { kind: 'member_trades', member: 'Nancy Pelosi' }],
    ['top ten trades of 2019', { kind: 'biggest_trades', window: { dateFrom: '2019-01-01' } }],
    ['who sold FB or META in 2022?', { kind: 'ticker_trades', ticker: 'FB,META', direction: 'sell' }],
    ['who bought AAPL, MSFT and NVDA in 2024?', { kind: 'ticker_trades', ticker: 'AAPL,MSFT,NVDA' }],
    ['did any senators buy AAPL or I wonder', { kind: 'ticker_trades', ticker: 'AAPL' }],
    [
      'congressional buyers of Salesforce in 2021',
      { kind: 'ticker_trades', ticker: 'Salesforce', direction: 'buy', window: { dateFrom: '2021-01-01' } },
    ],
    ['senate sellers of Boeing stock', { kind: 'ticker_trades', ticker: 'Boeing', direction: 'sell' }],
    // The kind of company keeps its "stocks": the concept vocabulary names "bank stocks".
    ['buyers of bank stocks in 2021', { kind: 'ticker_trades', ticker: 'bank stocks', direction: 'buy' }],
    ['potential conflicts of interest: Michael McCaul', { kind: 'conflicts', member: 'Michael McCaul' }],
    ['everything on Lockheed Martin', { kind: 'dossier', company: 'Lockheed Martin' }],
    ["what's the story with Pfizer and Congress?", { kind: 'dossier', company: 'Pfizer' }],
    [
      'Sheldon Whitehouse trades from 2019',
      { kind: 'member_trades', member: 'Sheldon Whitehouse', window: { dateFrom: '2019-01-01' } },
    ],
    ['trades from Nancy Pelosi', { kind: 'member_trades', member: 'Nancy Pelosi' }],
    [
      'show me what Ro Khanna sold in the first quarter of 2021',
      { kind: 'member_trades', member: 'Ro Khanna', direction: 'sell', window: { dateTo: '2021-03-31' } },
    ],
    ['list Shelley Moore Capito trades in 2020', { kind: 'member_trades', member: 'Shelley Moore Capito' }],
    ['conflict check on Kathy Manning', { kind: 'conflicts', member: 'Kathy Manning' }],
    ['company profile: Disney', { kind: 'dossier', company: 'Disney' }],
    ['what do we know about Johnson & Johnson?', { kind: 'dossier', company: 'Johnson & Johnson' }],
    [
      'Has anyone in Congress sold Chevron since 2022?',
      {
        kind: 'ticker_trades',
        ticker: 'Chevron',
        direction: 'sell',
        window: { dateFrom: '2022-01-01', dateTo: '2026-06-01' },
      },
    ],
    [
      'lawmakers selling Bank of America shares in 2020',
      { kind: 'ticker_trades', ticker: 'Bank of America shares', direction: 'sell' },
    ],
    ['Zoe Lofgren stock transactions 2021', { kind: 'member_trades', member: 'Zoe Lofgren' }],
    ['trades made by Jared Moskowitz in 2024', { kind: 'member_trades', member: 'Jared Moskowitz' }],
    [
      'Did Peter Meijer buy any stocks in 2021?',
      { kind: 'member_trades', member: 'Peter Meijer', direction: 'buy' },
    ],
    ['what conflicts does Virginia Foxx have?', { kind: 'conflicts', member: 'Virginia Foxx' }],
    ['company overview for Verizon', { kind: 'dossier', company: 'Verizon' }],
    ['Costco profile', { kind: 'dossier', company: 'Costco' }],
    ['Boeing company profile', { kind: 'dossier', company: 'Boeing' }],
    ['Bank of America profile', { kind: 'dossier', company: 'Bank of America' }],
    ['summarize Bank of America', { kind: 'dossier', company: 'Bank of America' }],
    [
      'Visa stock trades by members of Congress in 2020',
      { kind: 'ticker_trades', ticker: 'Visa', window: { dateFrom: '2020-01-01' } },
    ],
    ['Merck dossier please', { kind: 'dossier', company: 'Merck' }],
    // People, not a subject, before "trades by": every stock they traded.
    ['show me trades by senators in 2020', { kind: 'ticker_trades', ticker: 'stocks' }],
    ['trades made by house members in 2021', { kind: 'ticker_trades', ticker: 'stocks' }],
    ["please show Nancy Pelosi's trades", { kind: 'member_trades', member: 'Nancy Pelosi' }],
    ['what does Congress hold in Netflix?', { kind: 'dossier', company: 'Netflix' }],
    // A request before the people asked for.
    [
      'list the members that sold Wells Fargo in 2020',
      { kind: 'ticker_trades', ticker: 'Wells Fargo', direction: 'sell', window: { dateFrom: '2020-01-01' } },
    ],
    [
      'names of senators who bought Coca-Cola',
      { kind: 'ticker_trades', ticker: 'Coca-Cola', direction: 'buy' },
    ],
    ['show me all the lawmakers who traded AMD', { kind: 'ticker_trades', ticker: 'AMD' }],
    ['list Josh Gottheimer trades in 2021', { kind: 'member_trades', member: 'Josh Gottheimer' }],
    // Phrases for buying and selling.
    ['who cashed out of Qualcomm in 2021?', { kind: 'ticker_trades', ticker: 'Qualcomm', direction: 'sell' }],
    ['which senators got out of Boeing?', { kind: 'ticker_trades', ticker: 'Boeing', direction: 'sell' }],
    ['members who exited Intel in 2022', { kind: 'ticker_trades', ticker: 'Intel', direction: 'sell' }],
    ['who offloaded Tesla shares', { kind: 'ticker_trades', ticker: 'Tesla shares', direction: 'sell' }],
    [
      'which lawmakers picked up pharmaceutical stocks?',
      { kind: 'ticker_trades', ticker: 'pharmaceutical stocks', direction: 'buy' },
    ],
    ['who loaded up on Nvidia last year', { kind: 'ticker_trades', ticker: 'Nvidia', direction: 'buy' }],
    ['which reps snapped up bank stocks', { kind: 'ticker_trades', ticker: 'bank stocks', direction: 'buy' }],
    [
      'were senators loading up on chip stocks before semiconductor legislation?',
      { kind: 'timing', subject: 'chip', topic: 'semiconductor' },
    ],
    // The subject before "buyers" / "sellers".
    [
      'UnitedHealth buyers in the House, 2021',
      { kind: 'ticker_trades', ticker: 'UnitedHealth', direction: 'buy', window: { dateFrom: '2021-01-01' } },
    ],
    ['Tesla sellers in Congress', { kind: 'ticker_trades', ticker: 'Tesla', direction: 'sell' }],
    ['AMD stock buyers among senators in 2023', { kind: 'ticker_trades', ticker: 'AMD', direction: 'buy' }],
    ['the biggest sellers in Congress', { kind: 'search' }],
    // Requests before a member's possessive, and a period between the name and the trades.
    ["pull up Kurt Schrader's transactions for 2021", { kind: 'member_trades', member: 'Kurt Schrader' }],
    ["bring up Val Hoyle's latest trades", { kind: 'member_trades', member: 'Val Hoyle' }],
    [
      "Patty Murray's 2017 stock trades",
      { kind: 'member_trades', member: 'Patty Murray', window: { dateFrom: '2017-01-01' } },
    ],
    ["Ro Khanna's recent purchases", { kind: 'member_trades', member: 'Ro Khanna', direction: 'buy' }],
    [
      'what has Byron Donalds been selling since 2025?',
      { kind: 'member_trades', member: 'Byron Donalds', direction: 'sell' },
    ],
    ['what have senators been buying?', { kind: 'ticker_trades', ticker: 'stocks', direction: 'buy' }],
    ['what did house members sell in 2020?', { kind: 'ticker_trades', ticker: 'stocks', direction: 'sell' }],
    // More words for the largest trades.
    ['what were the most valuable trades made in 2021?', { kind: 'biggest_trades' }],
    ['highest-value purchases by senators in 2020', { kind: 'biggest_trades', direction: 'buy' }],
    ['priciest stock sales of 2019', { kind: 'biggest_trades', direction: 'sell' }],
    // Conflicts: a last name alone, trades set against the member's committees.
    ['Westerman conflict of interest?', { kind: 'conflicts', member: 'Westerman' }],
    ['Pelosi conflicts', { kind: 'conflicts', member: 'Pelosi' }],
    ['Any conflicts of interest?', { kind: 'search' }],
    [
      'Does Jerry Moran trade in industries his committees oversee?',
      { kind: 'conflicts', member: 'Jerry Moran' },
    ],
    [
      'has Senator Susan Collins bought stocks her committee regulates?',
      { kind: 'conflicts', member: 'Susan Collins' },
    ],
    [
      'did Dan Crenshaw invest in companies the committees he sits on oversee',
      { kind: 'conflicts', member: 'Dan Crenshaw' },
    ],
    ['what does the Armed Services committee oversee?', { kind: 'search' }],
    // More words for a company's dossier.
    ['fact sheet on Chevron', { kind: 'dossier', company: 'Chevron' }],
    ['a one-pager about Pfizer', { kind: 'dossier', company: 'Pfizer' }],
    ['Chevron factsheet', { kind: 'dossier', company: 'Chevron' }],
    ['break down congressional trading in Starbucks', { kind: 'dossier', company: 'Starbucks' }],
    ["analyze members' exposure to Boeing", { kind: 'dossier', company: 'Boeing' }],
    ['walk me through Nvidia', { kind: 'dossier', company: 'Nvidia' }],
    // Judgements of a stock's worth are advice.
    ['is Nvidia overvalued right now?', { kind: 'beyond' }],
    ['is Apple stock worth buying?', { kind: 'beyond' }],
    ['is Disney undervalued', { kind: 'beyond' }],
    // A member's wealth is in no transaction report.
    ["what's Nancy Pelosi's net worth?", { kind: 'beyond', about: 'wealth' }],
    ['how rich is Josh Gottheimer', { kind: 'beyond', about: 'wealth' }],
    // Words that lead into the question.
    [
      "I'm looking for lawmakers who bought Cisco in 2020",
      { kind: 'ticker_trades', ticker: 'Cisco', direction: 'buy' },
    ],
    [
      'can you tell me which senators sold Apple?',
      { kind: 'ticker_trades', ticker: 'Apple', direction: 'sell' },
    ],
    [
      "I'd like to know whether any senators bought NVDA",
      { kind: 'ticker_trades', ticker: 'NVDA', direction: 'buy' },
    ],
    [
      'tell me which reps sold Comcast in 2020',
      { kind: 'ticker_trades', ticker: 'Comcast', direction: 'sell' },
    ],
    ['do you know who traded Intel in 2021?', { kind: 'ticker_trades', ticker: 'Intel' }],
    ['can you tell me about Pfizer?', { kind: 'dossier', company: 'Pfizer' }],
    [
      'Tell me what Senator Warner bought in 2019',
      { kind: 'member_trades', member: 'Warner', direction: 'buy' },
    ],
    ['could you show me what Ro Khanna sold in 2021', { kind: 'member_trades', member: 'Ro Khanna' }],
    // "has any senator", party words as the people, positions and stakes as the company.
    [
      'Has any senator bought shares of Walmart in 2020?',
      { kind: 'ticker_trades', ticker: 'Walmart', direction: 'buy' },
    ],
    ['Any Republicans buying Exxon in 2022?', { kind: 'ticker_trades', ticker: 'Exxon', direction: 'buy' }],
    ['which Democratic senators sold Tesla?', { kind: 'ticker_trades', ticker: 'Tesla', direction: 'sell' }],
    [
      'who trimmed their PepsiCo position in 2021?',
      { kind: 'ticker_trades', ticker: 'PepsiCo', direction: 'sell' },
    ],
    [
      'which members reduced their stake in Boeing',
      { kind: 'ticker_trades', ticker: 'Boeing', direction: 'sell' },
    ],
    ['who added to their Apple holdings', { kind: 'ticker_trades', ticker: 'Apple', direction: 'buy' }],
    [
      'which congresspeople bought into Intel in 2021?',
      { kind: 'ticker_trades', ticker: 'Intel', direction: 'buy' },
    ],
    // A member's trades: a period after a colon, sales "by" a member, more possessive nouns.
    ['Kenny Marchant: 2020 sales', { kind: 'member_trades', member: 'Kenny Marchant', direction: 'sell' }],
    [
      'any stock sales by Francis Rooney in 2020?',
      { kind: 'member_trades', member: 'Francis Rooney', direction: 'sell' },
    ],
    ['purchases made by Greg Stanton', { kind: 'member_trades', member: 'Greg Stanton', direction: 'buy' }],
    // People after "by": every stock they traded ("stock" names no company).
    ['stock sales by senators in 2020', { kind: 'ticker_trades', ticker: 'stock', direction: 'sell' }],
    ["Greg Stanton's buying in 2023", { kind: 'member_trades', member: 'Greg Stanton', direction: 'buy' }],
    [
      "Julia Letlow's moves in the back half of 2025",
      {
        kind: 'member_trades',
        member: 'Julia Letlow',
        window: { dateFrom: '2025-07-01', dateTo: '2025-12-31' },
      },
    ],
    ["Dan Crenshaw's trading activity", { kind: 'member_trades', member: 'Dan Crenshaw' }],
    // The largest trade, singular, and "bets".
    ["what's the largest purchase any senator made in 2020?", { kind: 'biggest_trades', direction: 'buy' }],
    ['biggest bets by members of Congress in 2021', { kind: 'biggest_trades' }],
    ['the single biggest sale of 2019', { kind: 'biggest_trades', direction: 'sell' }],
    // "right before" the votes.
    [
      'any evidence of senators selling bank shares right before financial regulation votes?',
      { kind: 'timing', subject: 'bank' },
    ],
    ['members buying oil stocks days before energy bills', { kind: 'timing', subject: 'oil' }],
    // Conflicts asked about a member's trades, or after the name and a dash.
    ["Are any of Rick Allen's trades conflicts of interest?", { kind: 'conflicts', member: 'Rick Allen' }],
    ["were Nancy Pelosi's purchases conflicted?", { kind: 'conflicts', member: 'Nancy Pelosi' }],
    ['Julie Johnson — any conflicts?', { kind: 'conflicts', member: 'Julie Johnson' }],
    ['Rick Scott: conflicts of interest', { kind: 'conflicts', member: 'Rick Scott' }],
    // A company at a glance, the full picture.
    ['give me the full picture on Comcast', { kind: 'dossier', company: 'Comcast' }],
    ['the big picture for Lockheed Martin', { kind: 'dossier', company: 'Lockheed Martin' }],
    ['Qualcomm at a glance', { kind: 'dossier', company: 'Qualcomm' }],
    ['Intel in a nutshell', { kind: 'dossier', company: 'Intel' }],
  ])('%s', (question, expected) => {
    expect(routeQuestion(question, today)).toMatchObject(expected);
  });
});

describe('record questions', () => {
  it.each([
    ['insider trades at Lockheed Martin', { kind: 'insider_trades', company: 'Lockheed Martin' }],
    ['recent Form 4 filings for $DKNG', { kind: 'insider_trades', company: 'DKNG' }],
    ['who filed a 13G on DKNG?', { kind: 'whale_filings', company: 'DKNG' }],
    ['large shareholders of Apple', { kind: 'whale_filings', company: 'Apple' }],
    ['who lobbied for JPM?', { kind: 'lobbying_filings', company: 'JPM' }],
    ['lobbying by General Electric', { kind: 'lobbying_filings', company: 'General Electric' }],
    ['federal contracts awarded to Boeing', { kind: 'contract_awards', company: 'Boeing' }],
    ['latest government contracts', { kind: 'contract_awards', company: undefined }],
    ['what is bill H.R. 21 of the 117th Congress?', { kind: 'get_bill', id: 'hr21-117' }],
    ['bills about semiconductors', { kind: 'search_bills', text: 'semiconductors' }],
    ['How did Nancy Pelosi vote?', { kind: 'member_votes', member: 'Nancy Pelosi' }],
    ["Senator Tuberville's roll call votes", { kind: 'member_votes', member: 'Tuberville' }],
    ["who funds Nancy Pelosi's campaigns?", { kind: 'campaign_finance', member: 'Nancy Pelosi' }],
    ['campaign finance of Ro Khanna', { kind: 'campaign_finance', member: 'Ro Khanna' }],
  ])('%s', (question, expected) => {
    expect(routeQuestion(question, today)).toEqual({ kind: 'record', intent: expected });
  });

  it('leaves trade questions to the trade intents', () => {
    for (const question of [
      'what did Nancy Pelosi trade last year?',
      'who traded NVDA?',
      'top tickers this year',
    ])
      expect(routeQuestion(question, today).kind).not.toBe('record');
  });
});

describe('windowOf', () => {
  it('reads calendar years, spans and recency against today', () => {
    expect(windowOf('last year', today)).toMatchObject({ dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect(windowOf('this year', today)).toMatchObject({ dateFrom: '2026-01-01', dateTo: '2026-06-01' });
    expect(windowOf('in 2021', today)).toMatchObject({ dateFrom: '2021-01-01', dateTo: '2021-12-31' });
    expect(windowOf('purchases 2021', today)).toMatchObject({ dateFrom: '2021-01-01', dateTo: '2021-12-31' });
    // Months and years are calendar ones, ten years at most.
    expect(windowOf('in the last 6 months', today)).toMatchObject({
      dateFrom: '2025-12-01',
      dateTo: '2026-06-01',
    });
    expect(windowOf('over the past 12 months', today)).toMatchObject({ dateFrom: '2025-06-01' });
    expect(windowOf('past three months', today)).toMatchObject({ dateFrom: '2026-03-01' });
    expect(windowOf('the past two years', today)).toMatchObject({ dateFrom: '2024-06-01' });
    expect(windowOf('past 20 years', today)).toMatchObject({ dateFrom: '2016-06-01', dateTo: '2026-06-01' });
    expect(windowOf('last 1 month', new Date('2026-03-31T12:00:00Z'))).toMatchObject({
      dateFrom: '2026-02-28',
    });
    expect(windowOf('last 90 days', today)).toMatchObject({ days: 90 });
    expect(windowOf('past 2 weeks', today)).toMatchObject({ days: 14 });
    expect(windowOf('recently', today)).toMatchObject({ days: 90 });
    expect(windowOf('anything', today)).toMatchObject({ days: 365 });
  });
  it('reads ranges of ISO dates, quarters and halves of a year', () => {
    const range = (question: string) => {
      const { dateFrom, dateTo } = windowOf(question, today);
      return [dateFrom, dateTo];
    };
    expect(range('between 2020-01-01 and 2020-06-30')).toEqual(['2020-01-01', '2020-06-30']);
    expect(range('from 2021-07-31 to 2021-03-01')).toEqual(['2021-03-01', '2021-07-31']);
    expect(range('biggest senate purchases in Q1 2020')).toEqual(['2020-01-01', '2020-03-31']);
    expect(range('q4 of 2019')).toEqual(['2019-10-01', '2019-12-31']);
    expect(range('the third quarter of 2021')).toEqual(['2021-07-01', '2021-09-30']);
    expect(range('in the first half of 2020')).toEqual(['2020-01-01', '2020-06-30']);
    expect(range('H2 2024')).toEqual(['2024-07-01', '2024-12-31']);
    expect(range('the last quarter of 2021')).toEqual(['2021-10-01', '2021-12-31']);
    expect(range('the final quarter of 2019')).toEqual(['2019-10-01', '2019-12-31']);
    expect(range('the last half of 2020')).toEqual(['2020-07-01', '2020-12-31']);
    expect(range('in the last three months of 2021')).toEqual(['2021-10-01', '2021-12-31']);
    expect(range('the first 4 months of 2020')).toEqual(['2020-01-01', '2020-04-30']);
    expect(range('the final two months of 2024')).toEqual(['2024-11-01', '2024-12-31']);
    expect(range('the back half of 2025')).toEqual(['2025-07-01', '2025-12-31']);
    expect(range('the front half of 2021')).toEqual(['2021-01-01', '2021-06-30']);
  });
  it('reads months and ranges of months', () => {
    const range = (question: string) => {
      const { dateFrom, dateTo } = windowOf(question, today);
      return [dateFrom, dateTo];
    };
    expect(range('in March 2020')).toEqual(['2020-03-01', '2020-03-31']);
    expect(range('who traded Intel between March and June 2020')).toEqual(['2020-03-01', '2020-06-30']);
    expect(range('from November 2019 to February 2020')).toEqual(['2019-11-01', '2020-02-29']);
    expect(range('sales from November to February 2021')).toEqual(['2020-11-01', '2021-02-28']);
    expect(range('april–june 2022')).toEqual(['2022-04-01', '2022-06-30']);
  });
  it('describes the window in words, never with numbers of its own', () => {
    for (const question of ['last year', 'this year', 'in 2021', 'last 6 months', 'recently', 'x']) {
      expect(windowOf(question, today).words).not.toMatch(/\d/);
    }
  });
});

describe('grounding', () => {
  const evidence = new Evidence();
  evidence.add([
    { id: 1042, amount_range: '$1,000,001 - $5,000,000', disclosure_date: '2025-01-14', gain_30d: 27.53176 },
    { nested: { trade_count: 31 } },
  ]);

  it('accepts numbers the results hold, inside texts too, and roundings of them', () => {
    expect(
      unsupportedNumbers(
        '[trade 1042] $1,000,001 - $5,000,000 on 2025-01-14, up 27.5% (31 trades)',
        evidence,
      ),
    ).toEqual([]);
  });

  it('finds and removes a number no result holds', () => {
    expect(unsupportedNumbers('she made 4817 trades, up 27.6%', evidence)).toEqual(['4817', '27.6']);
    expect(redactUnsupported('she made 4817 trades in 2025', evidence)).toEqual({
      text: 'she made [unverified] trades in 2025',
      removed: ['4817'],
    });
  });

  it('reads the names of SEC forms and of the index as names, not figures', () => {
    const text =
      'Insider transactions (Form 4, 10-K): 0; 13D/G stakes: 0; alpha against the S&P 500; 13 trades';
    expect(unsupportedNumbers(text, evidence)).toEqual(['0', '0', '13']);
    expect(redactUnsupported('13G filings: 4817', evidence)).toEqual({
      text: '13G filings: [unverified]',
      removed: ['4817'],
    });
  });
});
