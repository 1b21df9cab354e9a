// /chad/chat over the real-data fixture: the intent router without a model, the Anthropic and
// OpenAI loops against a local replay of constructed provider responses, SSE, metering, and the
// rule that an answer states no number the tool results do not contain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../../accounts/rate-limit.js';
import { buildApp } from '../../../app.js';
import type { AssistantConfig } from '../../../config.js';
import { anthropicProvider, openaiProvider } from '../../../services/assistant/providers.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
  requestJson,
} from '../../../test-support/app.js';
import { loadRecording, startReplayProvider } from '../../../test-support/llm-replay.js';
import type { App } from '../../types.js';

interface ToolCallOut {
  name: string;
  arguments: Record<string, unknown>;
  status: number;
  credits: number;
  detail?: string;
}

interface ChatOut {
  answer: string;
  mode: string;
  tool_calls: ToolCallOut[];
  citations: { tool: string; row: Record<string, unknown> }[];
  tool_credits: number;
  removed_numbers: string[];
  provider_error?: string;
}

const TOOL_ROUTES: Record<string, string> = {
  lookup: '/search',
  query_trades: '/trades',
  semantic_search: '/v1/semantic-search',
  get_portfolio: '/portfolio/{politician_id}',
  get_conflicts: '/conflict/{politician_id}',
  top_tickers: '/tickers/top',
  campaign_finance: '/politicians/{id}/campaign-finance',
  lobbying_filings: '/lobbying',
  contract_awards: '/contracts',
  insider_trades: '/insiders/trades',
  whale_filings: '/whales',
  search_bills: '/bills',
  member_votes: '/politicians/{id}/votes',
  find_members: '/politicians',
  list_committees: '/committees',
  get_committee: '/committees/{id}',
};

/** The call again, straight to its REST route: what the tool returned. */
async function replayCall(app: App, key: string, call: ToolCallOut): Promise<unknown> {
  let path = TOOL_ROUTES[call.name] ?? '/unknown';
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.arguments)) {
    if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, String(value));
    else query.set(name, String(value));
  }
  const response = await app.inject({
    method: 'GET',
    url: `${path}?${query}`,
    headers: { 'dc-api-key': key },
  });
  return response.json();
}

const NUMBER = /\d+(?:,\d{3})*(?:\.\d+)?/g;

function numbers(text: string): number[] {
  return [...text.matchAll(NUMBER)].map((match) => Number(match[0].replace(/,/g, '')));
}

/** Every number of the answer is a number of a tool result (a value, or inside a returned text). */
async function expectGrounded(ctx: FixtureApp, key: string, out: ChatOut): Promise<void> {
  const returned = new Set<number>();
  for (const call of out.tool_calls) {
    returned.add(call.status);
    const result = await replayCall(ctx.app, key, call);
    const text = JSON.stringify(result);
    for (const value of numbers(text)) returned.add(value);
  }
  const stray = numbers(out.answer).filter((value) => !returned.has(value));
  expect(stray, `numbers in "${out.answer}" that no tool returned`).toEqual([]);
}

async function balance(ctx: FixtureApp, key: string): Promise<number> {
  return (await getJson<{ balance: number }>({ app: ctx.app, key }, '/credits/balance')).body.balance;
}

describe.skipIf(!realDataAvailable())('/chad/chat', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The first search loads the fixture's stored index (model, vectors, inverted lists) into
    // memory, longer than one test should wait; the router's semantic_search then answers at once.
    expect((await getJson(ctx, '/v1/semantic-search?q=warm%20up')).status).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('"what did Nancy Pelosi trade last year?" answers from lookup + query_trades, charged per call', async () => {
    const before = await balance(ctx, ctx.key);
    const q = encodeURIComponent('What did Nancy Pelosi trade last year?');
    const { status, body, headers } = await getJson<ChatOut>(ctx, `/chad/chat?q=${q}`);
    expect(status).toBe(200);
    expect(body.mode).toBe('router');
    expect(body.tool_calls.map((call) => call.name)).toEqual(['lookup', 'query_trades']);
    const trades = body.tool_calls[1];
    // Fixture clock 2026-06-01: last year is 2025, by transaction date (as /trades filters it).
    expect(trades?.arguments).toMatchObject({
      transaction_date_from: '2025-01-01',
      transaction_date_to: '2025-12-31',
      sort_by: 'transaction_date',
    });
    expect(trades?.status).toBe(200);
    expect(body.citations.length).toBeGreaterThan(0);
    for (const citation of body.citations) {
      expect(citation.row.politician_name).toBe('Nancy Pelosi');
      expect(String(citation.row.transaction_date).startsWith('2025')).toBe(true);
      expect(body.answer).toContain(`[trade ${String(citation.row.id)}]`);
    }
    expect(body.answer).toMatch(/Nancy Pelosi \(D-CA, House\)/);
    // lookup: 15; query_trades: 15 + 1 per House row; the chat's own base: 5.
    expect(body.tool_calls[0]?.credits).toBe(15);
    // Every row read is charged, also those outside the period.
    expect(trades?.credits).toBeGreaterThanOrEqual(15 + body.citations.length);
    expect(body.tool_credits).toBe(15 + (trades?.credits ?? 0));
    expect(headers['x-credits-charged']).toBe('5');
    expect(await balance(ctx, ctx.key)).toBe(before - 5 - body.tool_credits);
    expect(body.removed_numbers).toEqual([]);
    await expectGrounded(ctx, ctx.key, body);
  });

  it.each([
    ['Who traded NVDA in 2020?', ['query_trades']],
    ['Who bought Microsoft last year?', ['lookup', 'query_trades']],
    ["What is Nancy Pelosi's portfolio?", ['lookup', 'get_portfolio']],
    ['conflicts of interest for Nancy Pelosi', ['lookup', 'get_conflicts']],
    ['What are the top tickers this year?', ['top_tickers']],
    ['senators selling airline stocks', ['query_trades']],
    // No form matches; a member is named: their trades of the period.
    ["Zoe Lofgren's stock moves in 2021", ['lookup', 'query_trades']],
    ['anything interesting about airline stocks?', ['semantic_search']],
  ])('router: "%s" calls %j and states only returned numbers', async (question, tools) => {
    const { status, body } = await getJson<ChatOut>(ctx, `/chad/chat?q=${encodeURIComponent(question)}`);
    expect(status).toBe(200);
    expect(body.tool_calls.map((call) => call.name)).toEqual(tools);
    for (const call of body.tool_calls) expect(call.status).toBe(200);
    expect(body.answer.length).toBeGreaterThan(20);
    expect(body.removed_numbers).toEqual([]);
    await expectGrounded(ctx, ctx.key, body);
  });

  it('"who sold Meta stock in 2022?" also finds the trades filed as FB, and says so', async () => {
    const q = encodeURIComponent('who sold Meta stock in 2022?');
    const { status, body } = await getJson<ChatOut>(ctx, `/chad/chat?q=${q}`);
    expect(status).toBe(200);
    const query = body.tool_calls.find((call) => call.name === 'query_trades');
    expect(String(query?.arguments.ticker).split(',').sort()).toEqual(['FB', 'META']);
    // Meta traded as FB until 2022-06-09: every sale of the year on file was filed as FB.
    expect(body.citations.length).toBeGreaterThan(0);
    for (const citation of body.citations) expect(citation.row.ticker).toBe('FB');
    expect(body.answer).toContain('Josh Gottheimer');
    expect(body.answer).toContain('Included: trades filed under FB');
    expect(body.removed_numbers).toEqual([]);
    await expectGrounded(ctx, ctx.key, body);
  });

  it('a company by its short form, a sector by its plural, a dossier by another name', async () => {
    const ask = async (question: string) =>
      (await getJson<ChatOut>(ctx, `/chad/chat?q=${encodeURIComponent(question)}`)).body;
    // "J&J" is Johnson & Johnson by the alias table, with no lookup (the directory finds JJSF).
    const jnj = await ask('Which senators dumped J&J stock in 2016?');
    expect(jnj.tool_calls.map((call) => call.name)).toEqual(['query_trades']);
    expect(jnj.tool_calls[0]?.arguments.ticker).toBe('JNJ');
    expect(jnj.citations.length).toBeGreaterThan(0);
    for (const citation of jnj.citations) expect(citation.row.ticker).toBe('JNJ');
    // "financials": the GICS sector, every trade cited of it.
    const financials = await ask('House Republicans selling financials in 2022 — who?');
    const query = financials.tool_calls.find((call) => call.name === 'query_trades');
    expect(query?.arguments).toMatchObject({ sector: 'Financials', party: 'R', chamber: 'house' });
    expect(financials.citations.length).toBeGreaterThan(0);
    for (const citation of financials.citations) expect(citation.row.sector).toBe('Financials');
    // A tear sheet is the company's dossier.
    const pg = await ask('Pull a tear sheet on P&G');
    expect(pg.tool_calls.map((call) => [call.name, call.arguments.ticker])).toEqual([
      ['company_dossier', 'PG'],
    ]);
    expect(pg.answer).toContain('Procter & Gamble (PG');
  });

  it('a member named by an office is the one the legislators data says held it then', async () => {
    const ask = async (question: string) =>
      (await getJson<ChatOut>(ctx, `/chad/chat?q=${encodeURIComponent(question)}`)).body;
    // Dated by the question's period: the Speaker through 2020 was Nancy Pelosi, not today's.
    const speaker = await ask('What did the House Speaker buy in 2020?');
    expect(speaker.tool_calls[0]).toMatchObject({
      name: 'find_members',
      arguments: { role: 'Speaker of the House', role_date: '2020-12-31' },
    });
    expect(speaker.answer).toContain(
      'Speaker of the House at the end of the period asked about: Nancy Pelosi.',
    );
    expect(speaker.citations.length).toBeGreaterThan(0);
    for (const citation of speaker.citations) expect(citation.row.politician_name).toBe('Nancy Pelosi');
    await expectGrounded(ctx, ctx.key, speaker);
    // A party's whip is whichever side's whip that party held; undated, at the clock.
    const whip = await ask("the Senate GOP whip's stock trades");
    expect(whip.tool_calls[0]?.arguments).toMatchObject({
      role: 'Senate Majority Whip,Senate Minority Whip',
      party: 'R',
      role_date: '2026-06-01',
    });
    expect(whip.answer).toContain('now: John Barrasso.');
    // A committee by its initials, its office after it; the seats the committee lists now.
    const help = await ask('has the Senate HELP chairman sold any stock?');
    expect(help.tool_calls.map((call) => call.name).slice(0, 2)).toEqual([
      'list_committees',
      'get_committee',
    ]);
    expect(help.tool_calls[1]?.arguments).toEqual({ id: 'SSHR' });
    expect(help.answer).toMatch(
      /^Chair of the Senate Committee on Health, Education, Labor, and Pensions now: /,
    );
    // "Speaker Johnson" names the member already: no office is looked up.
    const named = await ask('what did Speaker Johnson trade in 2024?');
    expect(named.tool_calls.map((call) => call.name)).not.toContain('find_members');
  });

  it('"who sold TFC in 2025?" leaves out BBT of 2025: the symbol was Beacon Financial\'s by then', async () => {
    const { body } = await getJson<ChatOut>(
      ctx,
      `/chad/chat?q=${encodeURIComponent('who sold TFC in 2025?')}`,
    );
    const query = body.tool_calls.find((call) => call.name === 'query_trades');
    expect(String(query?.arguments.ticker).split(',').sort()).toEqual(['BBT', 'TFC']);
    expect(body.citations.length).toBeGreaterThan(0);
    for (const citation of body.citations) expect(citation.row.ticker).toBe('TFC');
    expect(body.answer).not.toContain('Included');
  });

  it('POST with a conversation answers its last user message; a conversation ending with the assistant is 422', async () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Ask me about disclosed trades.' },
      { role: 'user', content: 'Who traded NVDA in 2020?' },
    ];
    const ok = await requestJson<ChatOut>(ctx, { method: 'POST', url: '/chad/chat', body: { messages } });
    expect(ok.status).toBe(200);
    expect(ok.body.tool_calls[0]?.arguments).toMatchObject({ ticker: 'NVDA' });
    const bad = await requestJson<{ detail: string }>(ctx, {
      method: 'POST',
      url: '/chad/chat',
      body: { messages: messages.slice(0, 2) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/messages/);
    const empty = await requestJson<{ detail: string }>(ctx, { method: 'POST', url: '/chad/chat', body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/messages/);
  });

  it.each([
    ['who lobbied for JPM?', ['lobbying_filings'], 'lobbying_filings'],
    ['federal contracts awarded to LMT', ['contract_awards'], 'contract_awards'],
    ['latest insider transactions', ['insider_trades'], undefined],
    ['latest 13D filings', ['whale_filings'], undefined],
    ['who filed a 13G on DKNG?', ['whale_filings'], undefined],
    ['bills about semiconductors', ['search_bills'], undefined],
    ['How did Tommy Tuberville vote?', ['lookup', 'member_votes'], 'member_votes'],
    ['campaign finance of Nancy Pelosi', ['lookup', 'campaign_finance'], undefined],
  ])(
    'router, record tools without a model: "%s" calls %j, each charged as its endpoint',
    async (question, tools, cited) => {
      const { status, body } = await getJson<ChatOut>(ctx, `/chad/chat?q=${encodeURIComponent(question)}`);
      expect(status).toBe(200);
      expect(body.mode).toBe('router');
      expect(body.tool_calls.map((call) => call.name)).toEqual(tools);
      for (const call of body.tool_calls) {
        expect(call.status, call.name).toBe(200);
        const direct = await ctx.app.inject({
          method: 'GET',
          url: `${(TOOL_ROUTES[call.name] ?? '/unknown').replace(/\{(\w+)\}/, (_, name: string) => String(call.arguments[name]))}?${new URLSearchParams(
            Object.entries(call.arguments)
              .filter(([name]) => !(TOOL_ROUTES[call.name] ?? '').includes(`{${name}}`))
              .map(([name, value]): [string, string] => [name, String(value)]),
          )}`,
          headers: { 'dc-api-key': ctx.key },
        });
        expect(call.credits, call.name).toBe(Number(direct.headers['x-credits-charged']));
      }
      // Questions the fixture has records for cite them, and the answer names each cited row.
      if (cited) {
        const rows = body.citations.filter((citation) => citation.tool === cited);
        expect(rows.length, body.answer).toBeGreaterThan(0);
      }
      expect(body.answer.length).toBeGreaterThan(20);
      expect(body.removed_numbers).toEqual([]);
      await expectGrounded(ctx, ctx.key, body);
    },
  );

  it('streams Server-Sent Events on Accept: text/event-stream (base charged before the first event)', async () => {
    const before = await balance(ctx, ctx.key);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/chad/chat?q=${encodeURIComponent('What did Nancy Pelosi trade last year?')}`,
      headers: { 'dc-api-key': ctx.key, accept: 'text/event-stream' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/event-stream/);
    expect(response.headers['x-credits-charged']).toBe('5');
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => {
        const [eventLine, dataLine] = block.split('\n');
        return {
          event: eventLine?.replace('event: ', ''),
          data: JSON.parse(dataLine?.replace('data: ', '') ?? '{}'),
        };
      });
    expect(events.map((event) => event.event)).toEqual(['tool_call', 'tool_call', 'answer']);
    expect(events[0]?.data).toMatchObject({ name: 'lookup', status: 200, credits: 15 });
    const answer = events[2]?.data as ChatOut;
    expect(answer.tool_calls).toHaveLength(2);
    expect(await balance(ctx, ctx.key)).toBe(before - 5 - answer.tool_credits);
    // stream=true does the same without the header.
    const flagged = await ctx.app.inject({
      method: 'POST',
      url: '/chad/chat',
      headers: { 'dc-api-key': ctx.key },
      payload: { messages: [{ role: 'user', content: 'top tickers this year' }], stream: true },
    });
    expect(flagged.headers['content-type']).toMatch(/text\/event-stream/);
    expect(flagged.body).toContain('event: answer');
  });

  it('a tool the key cannot reach is reported with its status and detail; no key is 401', async () => {
    const free = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 500 });
    const { status, body } = await getJson<ChatOut>(
      { app: ctx.app, key: free.key.api_key },
      `/chad/chat?q=${encodeURIComponent('conflicts of interest for Nancy Pelosi')}`,
    );
    expect(status).toBe(200);
    const conflicts = body.tool_calls.find((call) => call.name === 'get_conflicts');
    expect(conflicts).toMatchObject({ status: 403, credits: 0 });
    expect(conflicts?.detail).toMatch(/pro plan/);
    expect(body.answer).toMatch(/refused \(HTTP 403\)/);
    await expectGrounded(ctx, free.key.api_key, body);
    const anonymous = await getJson<{ detail: string }>({ app: ctx.app }, '/chad/chat?q=hello');
    expect(anonymous.status).toBe(401);
  });
});

describe.skipIf(!realDataAvailable())(
  '/chad/chat with a model provider (constructed recordings, local replay)',
  () => {
    let ctx: FixtureApp;
    beforeAll(async () => {
      ctx = await openFixtureApp();
    });
    afterAll(async () => {
      await ctx.close();
    });

    async function appWith(provider: Parameters<typeof buildApp>[0]['assistantProvider']): Promise<App> {
      return buildApp({
        db: ctx.store.db,
        dialect: ctx.store.dialect,
        clock: () => ctx.clock.now,
        rateLimits: new MemoryRateLimitStore(),
        webhooks: ctx.webhooks,
        assistantProvider: provider,
      });
    }

    function settings(provider: 'anthropic' | 'openai', baseUrl: string): AssistantConfig {
      return {
        provider,
        apiKey: 'test-provider-key',
        model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1-mini',
        baseUrl: provider === 'anthropic' ? baseUrl : `${baseUrl}/v1`,
        maxSteps: 6,
        timeoutMs: 10_000,
      };
    }

    it('Anthropic (constructed Messages API responses): the model plans lookup then query_trades; its invented number is removed', async () => {
      const replay = await startReplayProvider(loadRecording('anthropic-pelosi.constructed.json'));
      const app = await appWith(anthropicProvider(settings('anthropic', replay.baseUrl)));
      try {
        const q = encodeURIComponent('What did Nancy Pelosi trade last year?');
        const { status, body } = await getJson<ChatOut>({ app, key: ctx.key }, `/chad/chat?q=${q}`);
        expect(status).toBe(200);
        expect(body.provider_error).toBeUndefined();
        expect(body.mode).toBe('anthropic');
        expect(body.tool_calls.map((call) => call.name)).toEqual(['lookup', 'query_trades']);
        expect(body.tool_calls.every((call) => call.status === 200 && call.credits > 0)).toBe(true);
        expect(body.removed_numbers).toEqual(['987654321']);
        expect(body.answer).not.toContain('987654321');
        expect(body.answer).toContain('[unverified]');
        expect(body.answer).toMatch(/\[trade \d+\]/);
        expect(body.citations.length).toBeGreaterThan(0);
        await expectGrounded(ctx, ctx.key, body);
        // The provider got the tools' definitions and, after each call, its result.
        expect(replay.remaining()).toBe(0);
        const first = replay.requests[0] as {
          headers: Record<string, string>;
          body: { tools: { name: string }[] };
        };
        // The SDK sends the provider key (as Authorization: Bearer in its current version, x-api-key before).
        expect(`${first.headers.authorization ?? ''} ${first.headers['x-api-key'] ?? ''}`).toContain(
          'test-provider-key',
        );
        expect(first.body.tools.map((tool) => tool.name)).toContain('query_trades');
      } finally {
        await app.close();
        await replay.close();
      }
    });

    it('Anthropic (constructed responses): the model reaches record tools (campaign finance, lobbying), each charged as its endpoint', async () => {
      const replay = await startReplayProvider(loadRecording('anthropic-records.constructed.json'));
      const app = await appWith(anthropicProvider(settings('anthropic', replay.baseUrl)));
      try {
        const q = encodeURIComponent("Who funds Nancy Pelosi's campaigns, and who lobbies Congress?");
        const { status, body } = await getJson<ChatOut>({ app, key: ctx.key }, `/chad/chat?q=${q}`);
        expect(status).toBe(200);
        expect(body.provider_error).toBeUndefined();
        expect(body.tool_calls.map((call) => call.name)).toEqual([
          'lookup',
          'campaign_finance',
          'lobbying_filings',
        ]);
        for (const call of body.tool_calls) {
          expect(call.status, call.name).toBe(200);
          // The same call straight to its REST route costs the same.
          let path = TOOL_ROUTES[call.name] ?? '/unknown';
          const query = new URLSearchParams();
          for (const [name, value] of Object.entries(call.arguments)) {
            if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, String(value));
            else query.set(name, String(value));
          }
          const rest = await app.inject({ url: `${path}?${query}`, headers: { 'dc-api-key': ctx.key } });
          expect(call.credits, call.name).toBe(Number(rest.headers['x-credits-charged']));
        }
        expect(body.tool_calls[1]?.credits).toBe(25);
        await expectGrounded(ctx, ctx.key, body);
        const first = replay.requests[0] as { body: { tools: { name: string }[] } };
        expect(first.body.tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining([
            'insider_trades',
            'whale_filings',
            'lobbying_filings',
            'contract_awards',
            'search_bills',
            'get_bill',
            'member_votes',
            'campaign_finance',
          ]),
        );
      } finally {
        await app.close();
        await replay.close();
      }
    });

    it('OpenAI (constructed Chat Completions responses): top_tickers planned by the model, grounded answer', async () => {
      const replay = await startReplayProvider(loadRecording('openai-ticker.constructed.json'));
      const app = await appWith(openaiProvider(settings('openai', replay.baseUrl)));
      try {
        const response = await requestJson<ChatOut>(
          { app, key: ctx.key },
          {
            method: 'POST',
            url: '/chad/chat',
            body: { messages: [{ role: 'user', content: 'Most traded stock ever?' }] },
          },
        );
        expect(response.status).toBe(200);
        const body = response.body;
        expect(body.mode).toBe('openai');
        expect(body.tool_calls).toEqual([
          { name: 'top_tickers', arguments: { days: 3650, limit: 3 }, status: 200, credits: 10 },
        ]);
        expect(body.removed_numbers).toEqual([]);
        expect(body.citations[0]?.tool).toBe('top_tickers');
        await expectGrounded(ctx, ctx.key, body);
        const second = replay.requests[1] as { body: { messages: { role: string }[] } };
        expect(second.body.messages.map((message) => message.role)).toEqual([
          'system',
          'user',
          'assistant',
          'tool',
        ]);
      } finally {
        await app.close();
        await replay.close();
      }
    });

    it('a provider that fails leaves the answer to the router and says why', async () => {
      const replay = await startReplayProvider([]);
      const app = await appWith(anthropicProvider(settings('anthropic', replay.baseUrl)));
      try {
        const { body } = await getJson<ChatOut>(
          { app, key: ctx.key },
          '/chad/chat?q=top%20tickers%20this%20year',
        );
        expect(body.mode).toBe('router');
        expect(body.provider_error).toMatch(/500|recorded/);
        expect(body.tool_calls.map((call) => call.name)).toEqual(['top_tickers']);
      } finally {
        await app.close();
        await replay.close();
      }
    });
  },
);
