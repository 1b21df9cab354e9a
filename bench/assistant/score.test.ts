// The assistant without a model, one question of each shape of the labelled set (its dev split),
// on the real-data fixture: the expected answer is resolved through the REST API from the query
// the question file writes down and the chat's answer must match it (score.ts). Trades before
// votes have no hit in the fixture, so that shape is also asked of the CONSTRUCTED analytics
// scenario, where the hits are known by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAnalyticsScenario, type Scenario } from '../../src/test-support/analytics-scenario.js';
import {
  type FixtureApp,
  getJson,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../src/test-support/app.js';
import { readQuestions } from '../assistant.js';
import { type ChatAnswer, type Fetch, judgeAnswer, resolveExpected } from './score.js';

function fetcher(ctx: FixtureApp): Fetch {
  return async (url) => {
    const { status, body } = await getJson(ctx, url);
    return { status, body };
  };
}

async function ask(ctx: FixtureApp, question: string): Promise<ChatAnswer> {
  const { status, body } = await getJson<ChatAnswer>(ctx, `/chad/chat?q=${encodeURIComponent(question)}`);
  expect(status).toBe(200);
  return body;
}

const questions = readQuestions();
const firstOfEachShape = [...new Set(questions.map((item) => item.expect.shape))].flatMap((shape) =>
  questions.filter((item) => item.split === 'dev' && item.expect.shape === shape).slice(0, 1),
);

describe.skipIf(!realDataAvailable())('the assistant answers each question shape right (real data)', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // "cannot" answers with the closest records: the first search loads the fixture's index.
    expect((await getJson(ctx, '/v1/semantic-search?q=warm%20up')).status).toBe(200);
  });
  afterAll(async () => ctx?.close());

  it.each(firstOfEachShape.map((item) => [item.expect.shape, item.question, item] as const))(
    '%s: "%s"',
    async (shape, question, item) => {
      const expected = await resolveExpected(fetcher(ctx), item.expect);
      // The shapes with rows have some in the fixture (else the check would prove little).
      if (['who', 'member', 'biggest', 'dossier'].includes(shape))
        expect(expected.ids.length).toBeGreaterThan(0);
      const answer = await ask(ctx, question);
      expect(judgeAnswer(item.expect, expected, answer)).toEqual([]);
    },
  );

  it('"who bought NVDA in 2024?" keeps buys made in 2024, by transaction date', async () => {
    const answer = await ask(ctx, 'who bought NVDA in 2024?');
    expect(answer.tool_calls.at(-1)?.arguments).toMatchObject({
      ticker: 'NVDA',
      trade_type: 'buy',
      transaction_date_from: '2024-01-01',
      transaction_date_to: '2024-12-31',
    });
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const { row } of answer.citations) {
      expect(row.trade_type).toBe('Buy');
      expect(String(row.transaction_date).startsWith('2024')).toBe(true);
    }
  });

  it('a kind of company goes to the sectors of its concept and keeps its industries', async () => {
    const answer = await ask(ctx, 'which senators bought oil stocks in 2020?');
    expect(answer.tool_calls.map((call) => call.name)).toEqual(['query_trades']);
    expect(answer.tool_calls[0]?.arguments).toMatchObject({ chamber: 'senate', trade_type: 'buy' });
    expect(String(answer.tool_calls[0]?.arguments.sector)).toContain('Energy');
    for (const { row } of answer.citations) expect(String(row.industry)).toMatch(/oil/i);
  });

  it('a scorer that is not vacuous: a sell answer to a buy question is wrong', async () => {
    const item = questions.find((entry) => entry.question === 'who bought NVDA in 2024?');
    if (!item) throw new Error('question missing');
    const expected = await resolveExpected(fetcher(ctx), item.expect);
    const sells = await ask(ctx, 'who sold NVDA in 2024?');
    expect(judgeAnswer(item.expect, expected, sells)).not.toEqual([]);
  });
});

describe('trades before votes on a topic (constructed scenario)', () => {
  let ctx: FixtureApp;
  let scenario: Scenario;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    scenario = await loadAnalyticsScenario(ctx.store.db);
  });
  afterAll(async () => ctx?.close());

  it('"which members bought oil stocks before energy votes in 2024?" cites the hits of the timing endpoint', async () => {
    const expect_ = {
      shape: 'timing' as const,
      timing: { date_from: '2024-01-01', date_to: '2024-12-31', trade_type: 'buy' },
      industries: ['Integrated Oil & Gas'],
      topic: 'energy',
    };
    const expected = await resolveExpected(fetcher(ctx), expect_);
    // By hand: the four XOM buys and Alice's CVX buy before the energy bill's committee action or
    // roll call (Carol's LMT buy is before a bill naming Lockheed Martin, Alice's JPM buy is a bank).
    const ids = scenario.tradeIds;
    const byNumber = (a: number, b: number) => a - b;
    expect(expected.ids.sort(byNumber)).toEqual(
      [ids.aliceXom, ids.bobXom, ids.danXom, ids.eveXom, ids.aliceCvx].sort(byNumber),
    );
    const answer = await ask(ctx, 'which members bought oil stocks before energy votes in 2024?');
    expect(answer.tool_calls.map((call) => call.name)).toEqual(['find_legislation_timing']);
    expect(judgeAnswer(expect_, expected, answer)).toEqual([]);
    expect(answer.answer).toContain('Dan Test');
    // Lockheed Martin's trade before a vote on a bill naming it is not an energy vote.
    expect(answer.answer).not.toContain('LMT');
  });
});
