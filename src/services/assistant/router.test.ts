// The router's replies quote the caller's words as error details do (quoted() in errors.ts): at
// most a short prefix, never the whole question back. The tools answer empty (constructed
// responses through a stub transport), so each question ends in its "found nothing" line.
import { describe, expect, it } from 'vitest';
import { QUOTED_PREFIX } from '../../errors.js';
import type { ToolDefinition, ToolTransport } from '../tools.js';
import { answerWithRouter } from './router.js';
import { ChatRun } from './run.js';
import { namesIn } from './slots.js';

function tool(name: string, path: string, properties: string[]): ToolDefinition {
  return {
    name,
    description: name,
    method: 'GET',
    path,
    pathParams: [],
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(properties.map((property) => [property, { type: 'string' }])),
      required: [],
      additionalProperties: false,
    },
  };
}

const TOOLS = [
  tool('lookup', '/search', ['q', 'types', 'limit']),
  tool('search_bills', '/bills', ['q', 'limit']),
];

/** Every tool answers 200 with nothing found. */
const emptyTransport: ToolTransport = async ({ url }) => ({
  status: 200,
  body: url.startsWith('/bills') ? [] : { politicians: [], tickers: [], bills: [] },
  creditsCharged: 0,
});

async function answer(question: string): Promise<string> {
  const run = new ChatRun({
    tools: TOOLS,
    transport: emptyTransport,
    today: new Date('2026-06-01T12:00:00Z'),
  });
  await answerWithRouter(run, question);
  return run.text();
}

// A name far longer than any quote may be: 300 characters a reply must not echo back.
const LONG = `Nobody ${'Longname'.repeat(37)}`;

describe('assistant replies quote the caller at most a short prefix', () => {
  it('an unknown member: the name is cut to its first characters and marked as cut', async () => {
    const text = await answer(`What did ${LONG} trade last year?`);
    const head = LONG.slice(0, QUOTED_PREFIX);
    expect(text).toBe(`I found no member of Congress or official matching "${head}…".`);
    expect(text).not.toContain(LONG.slice(0, QUOTED_PREFIX + 1));
  });

  it('a short name is quoted whole, escaped as JSON', async () => {
    expect(await answer('What did Jane "JD" Doe trade last year?')).toBe(
      'I found no member of Congress or official matching "Jane \\"JD\\" Doe".',
    );
  });

  it('an unknown company and a bill search: the subject is cut the same way', async () => {
    const company = await answer(`Who bought ${LONG}?`);
    expect(company).toContain(`matching "${LONG.slice(0, QUOTED_PREFIX)}…"`);
    expect(company.length).toBeLessThan(120);
    const bills = await answer(`Which bills are about ${LONG}?`);
    expect(bills).toBe(`No bill matches "${LONG.slice(0, QUOTED_PREFIX)}…".`);
  });
});

/** The tools the router's trade answers call; each answers what `respond` gives for its path. */
const ROUTER_TOOLS = [
  tool('lookup', '/search', ['q', 'types', 'limit']),
  tool('query_trades', '/trades', [
    'ticker',
    'chamber',
    'party',
    'state',
    'sector',
    'politician_id',
    'trade_type',
    'transaction_date_from',
    'transaction_date_to',
    'sort_by',
    'sort_dir',
    'limit',
  ]),
  tool('company_dossier', '/companies/{ticker}', ['ticker']),
  tool('semantic_search', '/v1/semantic-search', ['q', 'limit']),
];

/** Asks the router `question`; the URLs it called, their paths, and its answer. */
async function routed(question: string, respond: (path: string) => unknown) {
  const urls: string[] = [];
  const run = new ChatRun({
    tools: ROUTER_TOOLS,
    transport: async ({ url }) => {
      urls.push(url);
      return { status: 200, body: respond(url.split('?')[0] ?? ''), creditsCharged: 0 };
    },
    today: new Date('2026-06-01T12:00:00Z'),
  });
  await answerWithRouter(run, question);
  return { urls, paths: urls.map((url) => url.split('?')[0]), text: run.text() };
}

describe('the chamber a question names', () => {
  /** The /trades query the router asks for a question (the tool answers no rows). */
  async function tradesQuery(question: string): Promise<URLSearchParams> {
    const { urls } = await routed(question, () => []);
    expect(urls).toHaveLength(1);
    return new URL(urls[0] ?? '', 'http://localhost').searchParams;
  }

  it('reads senators and representatives as their chamber, congressmen as all of Congress', async () => {
    expect((await tradesQuery('biggest trades by senators in 2020')).get('chamber')).toBe('senate');
    expect((await tradesQuery('largest trades by representatives in 2020')).get('chamber')).toBe('house');
    expect((await tradesQuery('top trades by a congressman in 2020')).get('chamber')).toBe('house');
    expect((await tradesQuery('biggest trades by congressmen in 2020')).get('chamber')).toBeNull();
  });

  it('reads "the House" and "house" before the trades as the House, not the White House', async () => {
    expect((await tradesQuery('largest trades by members of the House in 2020')).get('chamber')).toBe(
      'house',
    );
    expect((await tradesQuery('biggest trades in the House in 2021')).get('chamber')).toBe('house');
    expect((await tradesQuery('which house sales in 2021 were the biggest?')).get('chamber')).toBe('house');
    expect((await tradesQuery('biggest purchases by reps in 2022')).get('chamber')).toBe('house');
    expect(
      (await tradesQuery('biggest trades after the White House briefing in 2020')).get('chamber'),
    ).toBeNull();
    expect((await tradesQuery('biggest trades in the House of Lords in 2020')).get('chamber')).toBeNull();
  });
});

describe('a name read with a word after it', () => {
  it('looks the name up without its last word when the whole is not found', async () => {
    const { urls, text } = await routed('Pelosi Nvidia trades', (path) => {
      void path;
      return {};
    });
    expect(text).toContain('I found no member');
    expect(urls.filter((url) => url.startsWith('/search'))).toHaveLength(2);
    const found = await routed('Pelosi Nvidia trades', (path) =>
      path === '/search'
        ? {
            politicians: [
              {
                politician_id: 387,
                name: 'Nancy Pelosi',
                party: 'D',
                state: 'CA',
                chamber: 'House',
                score: 90,
              },
            ],
          }
        : [],
    );
    expect(found.text).toContain('Nancy Pelosi (D-CA, House)');
  });
});

describe('a reason asked for', () => {
  it('says a report states no reason, then answers what it states', async () => {
    const { paths, text } = await routed('Why did Nancy Pelosi sell Visa in 2021?', (path) =>
      path === '/search' ? { politicians: [] } : [],
    );
    expect(text).toMatch(/^Disclosures state what was traded and when, not why\. I can answer /);
    expect(paths[0]).toBe('/search');
  });
});

describe('the state a question names', () => {
  const query = async (question: string) => {
    const { urls, text } = await routed(question, (path) =>
      path === '/search' ? { tickers: [{ ticker: 'XOM' }] } : [],
    );
    return { params: new URL(urls[urls.length - 1] ?? '', 'http://localhost').searchParams, text };
  };

  it('reads the state of the people asked about as the state filter, and says it', async () => {
    const texans = await query('Texas Republicans who bought XOM in 2022');
    expect(texans.params.get('state')).toBe('TX');
    expect(texans.params.get('party')).toBe('R');
    expect(texans.text).toContain('member from Texas');
    expect((await query('which senators from New York sold XOM in 2020?')).params.get('state')).toBe('NY');
    expect((await query('did the Ohio delegation buy XOM in 2021?')).params.get('state')).toBe('OH');
    expect(
      (await query('biggest trades by lawmakers representing Florida in 2021')).params.get('state'),
    ).toBe('FL');
  });

  it('leaves a state in a company or a member name alone', async () => {
    const { urls } = await routed('who sold Texas Instruments in 2020?', (path) =>
      path === '/search' ? { tickers: [{ ticker: 'TXN' }] } : [],
    );
    const params = new URL(urls[urls.length - 1] ?? '', 'http://localhost').searchParams;
    expect(params.get('ticker')).toBe('TXN');
    expect(params.get('state')).toBeNull();
    expect((await query('what did Virginia Foxx buy in 2022?')).params.get('state')).toBeNull();
  });
});

describe('the party a question names', () => {
  it('reads Republicans and Democrats as the party filter, both or neither as none', async () => {
    const query = async (question: string) => {
      const { urls } = await routed(question, (path) =>
        path === '/search' ? { tickers: [{ ticker: 'XOM' }] } : [],
      );
      return new URL(urls[urls.length - 1] ?? '', 'http://localhost').searchParams;
    };
    expect((await query('Any Republicans buying Exxon in 2022?')).get('party')).toBe('R');
    expect((await query('which Democratic senators sold XOM in 2020?')).get('party')).toBe('D');
    expect((await query('which Democratic senators sold XOM in 2020?')).get('chamber')).toBe('senate');
    expect((await query('biggest trades by GOP members in 2021')).get('party')).toBe('R');
    expect((await query('did Republicans or Democrats sell XOM in 2020?')).get('party')).toBeNull();
    expect((await query('who sold XOM in 2020?')).get('party')).toBeNull();
  });

  it('says which party the answer is of', async () => {
    const row = {
      id: 5,
      politician_name: 'Kevin Hern',
      party: 'R',
      state: 'OK',
      ticker: 'XOM',
      trade_type: 'Buy',
      asset_description: null,
      amount_range: null,
      transaction_date: '2022-03-10',
      disclosure_date: null,
      owner: null,
    };
    const answer = async (question: string) =>
      (await routed(question, (path) => (path === '/search' ? { tickers: [{ ticker: 'XOM' }] } : [row])))
        .text;
    expect(await answer('Any Republicans buying Exxon in 2022?')).toMatch(
      /^Republican members who bought XOM/,
    );
    expect(await answer('biggest purchases by Democrats in 2022')).toMatch(
      /^The largest trades by Democratic members made/,
    );
    expect(await answer('who bought Exxon in 2022?')).toMatch(/^Members who bought XOM/);
  });
});

describe('a kind of company named by whole sectors', () => {
  const trade = (id: number, sector: string, industry: string) => ({
    id,
    politician_name: `Member ${id}`,
    party: null,
    state: null,
    ticker: `T${id}`,
    trade_type: 'Sell',
    asset_description: null,
    amount_range: null,
    transaction_date: '2020-04-15',
    disclosure_date: null,
    owner: null,
    sector,
    industry,
  });

  it('keeps a trade by its SIC industry only when it carries no other GICS sector', async () => {
    const { text } = await routed('which senators sold utility stocks in 2020?', (path) =>
      path === '/trades'
        ? [
            trade(1, 'Utilities', 'Electric Utilities'),
            trade(2, 'Energy', 'Natural Gas Distribution'),
            trade(3, '', 'Natural Gas Distribution'),
          ]
        : [],
    );
    expect(text).toContain('Member 1');
    expect(text).not.toContain('Member 2');
    expect(text).toContain('Member 3');
  });
});

describe('several tickers in one question', () => {
  it('asks /trades for all of them at once, without a lookup', async () => {
    const { urls, paths, text } = await routed('who sold FB or META in 2022?', () => []);
    expect(paths).toEqual(['/trades']);
    const query = new URL(urls[0] ?? '', 'http://localhost').searchParams;
    expect(query.get('ticker')).toBe('FB,META');
    expect(query.get('trade_type')).toBe('sell');
    expect(text).toContain('FB and META');
  });
});

describe('dossier words asked of a member', () => {
  /** The calls the router makes, in order; lookup finds what `found` holds, /trades nothing. */
  const calls = (question: string, found: { politicians: unknown[]; tickers: unknown[] }) =>
    routed(question, (path) => (path === '/search' ? found : []));
  const pelosi = { politician_id: 7, name: 'Nancy Pelosi', party: 'D', state: 'CA', chamber: 'House' };

  it('answers "Nancy Pelosi summary" with her trades, not "no company"', async () => {
    const { paths, text } = await calls('Nancy Pelosi summary', { politicians: [pelosi], tickers: [] });
    expect(paths).toEqual(['/search', '/search', '/trades']);
    expect(text).toContain('Nancy Pelosi (D-CA, House)');
    expect(text).not.toContain('no ticker or company');
  });

  it('keeps the company when a name matches a company and a member', async () => {
    const { paths } = await calls('Rivian overview', {
      politicians: [pelosi],
      tickers: [{ ticker: 'RIVN' }],
    });
    expect(paths[0]).toBe('/search');
    expect(paths).not.toContain('/trades');
  });

  it('needs no lookup for a company the alias table names ("J&J", "Tesla")', async () => {
    for (const question of ['J&J overview', 'Tesla tear sheet']) {
      const { paths } = await calls(question, { politicians: [pelosi], tickers: [] });
      expect(paths).toEqual(['/companies/{ticker}']);
    }
  });

  it('says no company matches when nothing does', async () => {
    const { text } = await calls('Nobody Known summary', { politicians: [], tickers: [] });
    expect(text).toBe('I found no ticker or company matching "Nobody Known".');
  });
});

describe('a question no form matches that names a member', () => {
  it('finds the runs of capitalised words that may be names', () => {
    expect(namesIn('Did Peter Meijer buy any stocks in 2021?')).toEqual(['Peter Meijer']);
    expect(namesIn("Senator Tom Carper's stock moves")).toEqual(['Tom Carper']);
    expect(namesIn('Gilbert Ray Cisneros sales lately')).toEqual(['Gilbert Ray Cisneros']);
    expect(namesIn('anything about airline stocks?')).toEqual([]);
  });

  /** The paths called when lookup finds the member with `score`. */
  async function toolsCalled(question: string, score: number): Promise<string[]> {
    const member = {
      politician_id: 9,
      name: 'Zoe Lofgren',
      party: 'D',
      state: 'CA',
      chamber: 'House',
      score,
    };
    const { paths } = await routed(question, (path) =>
      path === '/search' ? { politicians: [member], tickers: [] } : path === '/trades' ? [] : { results: [] },
    );
    return paths.map((path) => path ?? '');
  }

  it("answers with the member's trades when the lookup finds the name, else with the closest records", async () => {
    expect(await toolsCalled("Zoe Lofgren's stock picks in 2021", 100)).toEqual(['/search', '/trades']);
    // A name the lookup finds only as a substring is not taken for the member.
    expect(await toolsCalled("Zoe Lofgren's stock picks in 2021", 40)).toEqual([
      '/search',
      '/v1/semantic-search',
    ]);
    // Not about trading: no member is looked for.
    expect(await toolsCalled('Zoe Lofgren committee hearings', 100)).toEqual(['/v1/semantic-search']);
  });
});
