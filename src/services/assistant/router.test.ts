// The router's replies quote the caller's words as error details do (quoted() in errors.ts): at
// most a short prefix, never the whole question back. The tools answer empty (constructed
// responses through a stub transport), so each question ends in its "found nothing" line.
import { describe, expect, it } from 'vitest';
import { QUOTED_PREFIX } from '../../errors.js';
import type { ToolDefinition, ToolTransport } from '../tools.js';
import { answerWithRouter } from './router.js';
import { ChatRun } from './run.js';

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
