// Scores the assistant on the labelled question set (questions.json), with or without a model: each
// question's expected answer is resolved through the REST API with the query the question file
// writes down (never from the router's own calls), then the chat's answer is checked against it:
// the right rows (every cited trade among the expected ones, as many as the answer shows), the
// right direction and period (implied by the expected query), and every trade line cited by id.

/** GET a route with the scorer's key; the status and the parsed JSON. */
export type Fetch = (url: string) => Promise<{ status: number; body: unknown }>;

export type Expect =
  /** Who bought/sold a ticker or a kind of company: every member of the expected trades named. */
  | { shape: 'who'; trades: Record<string, string>; industries?: string[] }
  /** What a member traded: the newest trades of the expected ones. */
  | { shape: 'member'; trades: Record<string, string> }
  /** The biggest trades of a period: the largest brackets of the expected ones. */
  | { shape: 'biggest'; trades: Record<string, string> }
  /** Trades before votes or bills on a topic: /legislation/suspicious-timing hits. */
  | { shape: 'timing'; timing: Record<string, string>; industries?: string[]; topic?: string }
  | { shape: 'conflicts'; member: string }
  | { shape: 'dossier'; ticker: string }
  /** Not a question it answers: it says what it can do instead. */
  | { shape: 'cannot' };

export interface LabelledQuestion {
  question: string;
  split: 'dev' | 'test';
  /** When it was written: 1 (no field) before the router was tuned on the first run, 2 after. */
  batch?: number;
  /** "timing": asked of the fixture with the CONSTRUCTED timing scenario (src/test-support/timing-scenario.ts). */
  scenario?: 'timing';
  expect: Expect;
}

export interface ChatAnswer {
  answer: string;
  mode: 'router' | 'anthropic' | 'openai';
  tool_calls: { name: string; arguments: Record<string, unknown>; status: number }[];
  citations: { tool: string; row: Record<string, unknown> }[];
  removed_numbers: string[];
  /** Why the provider could not answer, when the router answered instead. */
  provider_error?: string;
}

interface TradeRow {
  id: number;
  politician_name: string;
  transaction_date: string;
  amount_low: number | null;
  industry: string | null;
}

/** What the API says the answer is: trade ids in the order that matters, members, and facts. */
export interface Expected {
  ids: number[];
  members: string[];
  /** Texts the answer must hold (a count the route computed, a company's name). */
  facts: string[];
  /** For biggest trades: the amount brackets' lower bounds, largest first. */
  amounts?: number[];
  /** For a member's trades: the transaction dates, newest first, as `ids`. */
  dates?: string[];
}

const SHOWN = 10;

async function allTrades(fetch: Fetch, query: Record<string, string>): Promise<TradeRow[]> {
  const rows: TradeRow[] = [];
  for (let offset = 0; ; offset += 1000) {
    const params = new URLSearchParams({ ...query, limit: '1000', offset: String(offset) });
    const { status, body } = await fetch(`/trades?${params}`);
    if (status !== 200) throw new Error(`/trades?${params} answered ${status}: ${JSON.stringify(body)}`);
    const page = body as TradeRow[];
    rows.push(...page);
    if (page.length < 1000) return rows;
  }
}

const lower = (values: readonly string[] | undefined) => new Set((values ?? []).map((v) => v.toLowerCase()));

/** The expected answer of a question, from the API. */
export async function resolveExpected(fetch: Fetch, expect: Expect): Promise<Expected> {
  switch (expect.shape) {
    case 'who':
    case 'member':
    case 'biggest': {
      const industries = lower('industries' in expect ? expect.industries : undefined);
      const rows = (await allTrades(fetch, expect.trades)).filter(
        (row) => industries.size === 0 || industries.has((row.industry ?? '').toLowerCase()),
      );
      if (expect.shape === 'biggest') rows.sort((a, b) => (b.amount_low ?? 0) - (a.amount_low ?? 0));
      else rows.sort((a, b) => b.transaction_date.localeCompare(a.transaction_date));
      return {
        ids: rows.map((row) => row.id),
        members: [...new Set(rows.map((row) => row.politician_name))].sort(),
        facts: [],
        ...(expect.shape === 'biggest'
          ? { amounts: rows.map((row) => row.amount_low ?? 0) }
          : { dates: rows.map((row) => row.transaction_date) }),
      };
    }
    case 'timing': {
      const params = new URLSearchParams({ ...expect.timing, limit: '1000' });
      const { status, body } = await fetch(`/legislation/suspicious-timing?${params}`);
      if (status !== 200) throw new Error(`suspicious-timing answered ${status}: ${JSON.stringify(body)}`);
      const industries = lower(expect.industries);
      const topic = expect.topic?.toLowerCase();
      const hits = (
        body as {
          hits: { trade: TradeRow; bill_match: { text: string; basis: string }[] }[];
        }
      ).hits.filter(
        (hit) =>
          (industries.size === 0 || industries.has((hit.trade.industry ?? '').toLowerCase())) &&
          (!topic ||
            hit.bill_match.some(
              (match) =>
                match.basis.toLowerCase().includes(topic) || match.text.toLowerCase().includes(topic),
            )),
      );
      const ids = [...new Set(hits.map((hit) => hit.trade.id))];
      return {
        ids,
        members: [...new Set(hits.map((hit) => hit.trade.politician_name))].sort(),
        facts: [],
      };
    }
    case 'conflicts': {
      const { status, body } = await fetch(`/conflict/${encodeURIComponent(expect.member)}?limit=${SHOWN}`);
      if (status !== 200) throw new Error(`/conflict/${expect.member} answered ${status}`);
      const answer = body as { conflicting_trade_count: number; total_trades: number; trades: TradeRow[] };
      return {
        ids: answer.trades.map((trade) => trade.id),
        members: [],
        facts: [String(answer.conflicting_trade_count), String(answer.total_trades)],
      };
    }
    case 'dossier': {
      const { status, body } = await fetch(`/companies/${encodeURIComponent(expect.ticker)}`);
      if (status !== 200) throw new Error(`/companies/${expect.ticker} answered ${status}`);
      const answer = body as {
        company: { name: string | null };
        member_trades: { trade_count: number; member_count: number; recent: TradeRow[] };
      };
      return {
        ids: answer.member_trades.recent.map((trade) => trade.id),
        members: [],
        facts: [
          expect.ticker,
          ...(answer.company.name ? [answer.company.name] : []),
          String(answer.member_trades.trade_count),
          String(answer.member_trades.member_count),
        ],
      };
    }
    case 'cannot':
      return { ids: [], members: [], facts: [] };
  }
}

const TRADE_REF = /\[trade (\d+)\]/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/;

/**
 * Why an answer is wrong (empty: right). `mode` is who must have planned it: the router, or the
 * configured provider (an answer the router gave after the provider failed is then wrong).
 */
export function judgeAnswer(
  expect: Expect,
  expected: Expected,
  chat: ChatAnswer,
  mode: ChatAnswer['mode'] = 'router',
): string[] {
  const wrong: string[] = [];
  if (chat.mode !== mode)
    wrong.push(`mode ${chat.mode}${chat.provider_error ? ` (${chat.provider_error.slice(0, 200)})` : ''}`);
  if (chat.removed_numbers.length > 0) wrong.push(`unsupported numbers ${chat.removed_numbers.join(', ')}`);
  for (const call of chat.tool_calls)
    if (call.status !== 200) wrong.push(`${call.name} answered ${call.status}`);
  const cited = chat.citations.flatMap((citation) => {
    const row = citation.row;
    const id =
      typeof row.trade === 'object' && row.trade !== null ? (row.trade as { id?: unknown }).id : row.id;
    return typeof id === 'number' && citation.tool !== 'semantic_search' ? [id] : [];
  });
  const referenced = [...chat.answer.matchAll(TRADE_REF)].map((match) => Number(match[1]));
  // Every figure traceable: each trade line names its trade, and each trade named is a cited row.
  for (const line of chat.answer.split('\n'))
    if (line.startsWith('- ') && DATE.test(line) && !/\[trade \d+\]/.test(line))
      wrong.push(`uncited line "${line.slice(0, 60)}"`);
  for (const id of referenced) if (!cited.includes(id)) wrong.push(`trade ${id} named, not cited`);
  const expectedIds = new Set(expected.ids);
  const outside = cited.filter((id) => !expectedIds.has(id));
  if (expect.shape !== 'cannot' && outside.length > 0)
    wrong.push(
      `${outside.length} cited trades not in the expected answer (${outside.slice(0, 5).join(', ')})`,
    );
  const wantShown = Math.min(SHOWN, expected.ids.length);
  switch (expect.shape) {
    case 'who':
      if (new Set(cited).size < wantShown) wrong.push(`cited ${cited.length}, expected ${wantShown}`);
      for (const member of expected.members)
        if (!chat.answer.includes(member)) wrong.push(`member ${member} missing`);
      if (expected.ids.length === 0 && !/\bNo member\b/.test(chat.answer)) wrong.push('should say none');
      break;
    case 'member':
    case 'timing': {
      if (new Set(cited).size !== wantShown)
        wrong.push(`cited ${new Set(cited).size}, expected ${wantShown}`);
      if (expect.shape === 'member' && wantShown > 0) {
        // The newest trades: none older than the k-th newest expected one.
        const cutoff = expected.dates?.[wantShown - 1] ?? '';
        const dates = new Map(expected.ids.map((id, index) => [id, expected.dates?.[index] ?? '']));
        const older = cited.filter((id) => (dates.get(id) ?? '') < cutoff);
        if (older.length > 0)
          wrong.push(`older trades shown before newer ones (${older.slice(0, 3).join(', ')})`);
      }
      if (expected.ids.length === 0 && !/\bnothing\b|\bNo trade\b/.test(chat.answer))
        wrong.push('should say none');
      break;
    }
    case 'biggest': {
      if (new Set(cited).size !== wantShown)
        wrong.push(`cited ${new Set(cited).size}, expected ${wantShown}`);
      const rows = new Map(
        chat.citations.map((citation) => [citation.row.id, Number(citation.row.amount_low ?? 0)] as const),
      );
      const got = cited.map((id) => rows.get(id) ?? 0).sort((a, b) => b - a);
      const want = (expected.amounts ?? []).slice(0, wantShown);
      if (JSON.stringify(got) !== JSON.stringify(want))
        wrong.push(`brackets ${got.slice(0, 3).join(',')}… not the largest ${want.slice(0, 3).join(',')}…`);
      break;
    }
    case 'conflicts':
      for (const fact of expected.facts) if (!chat.answer.includes(fact)) wrong.push(`fact ${fact} missing`);
      if (new Set(cited).size !== wantShown)
        wrong.push(`cited ${new Set(cited).size}, expected ${wantShown}`);
      break;
    case 'dossier':
      if (
        !chat.tool_calls.some(
          (call) => call.name === 'company_dossier' && call.arguments.ticker === expect.ticker,
        )
      )
        wrong.push(`no company_dossier call for ${expect.ticker}`);
      for (const fact of expected.facts) if (!chat.answer.includes(fact)) wrong.push(`fact ${fact} missing`);
      if (new Set(cited).size !== wantShown)
        wrong.push(`cited ${new Set(cited).size}, expected ${wantShown}`);
      break;
    case 'cannot':
      if (!/\bI can answer\b/.test(chat.answer)) wrong.push('does not say what it can answer');
      break;
  }
  return wrong;
}
