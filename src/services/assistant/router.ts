// Answers without a model: the intent router picks the tool calls, and the answer is written only
// from the values those calls returned (names, dates, amounts, counts the routes computed).
import { type Intent, routeQuestion, type Window } from './intents.js';
import { answerRecord } from './record-intents.js';
import type { ChatRun } from './run.js';

const SHOWN = 10;

interface Politician {
  politician_id: number;
  name: string;
  party: string | null;
  state: string | null;
  chamber: string;
}

interface TradeRow {
  id: number;
  politician_name: string;
  party: string | null;
  state: string | null;
  ticker: string;
  trade_type: string;
  asset_description: string | null;
  amount_range: string | null;
  transaction_date: string;
  disclosure_date: string | null;
  owner: string | null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function windowArgs(window: Window): Record<string, unknown> {
  return window.dateFrom && window.dateTo
    ? { date_from: window.dateFrom, date_to: window.dateTo }
    : { days: window.days ?? 365 };
}

function describeMember(member: Politician): string {
  const seat = [member.party, member.state].filter(Boolean).join('-');
  return seat ? `${member.name} (${seat}, ${member.chamber})` : `${member.name} (${member.chamber})`;
}

function tradeLine(trade: TradeRow): string {
  const what = trade.asset_description ? `${trade.ticker} (${trade.asset_description})` : trade.ticker;
  const amount = trade.amount_range ? `, ${trade.amount_range}` : '';
  const owner = trade.owner && trade.owner !== 'Self' ? `, owner ${trade.owner}` : '';
  const disclosed = trade.disclosure_date ? `, disclosed ${trade.disclosure_date}` : '';
  return `- ${trade.transaction_date}: ${trade.trade_type} ${what}${amount}${owner}${disclosed} [trade ${trade.id}]`;
}

/** Finds a member by name with the lookup tool; undefined when the answer is already written. */
async function findMember(run: ChatRun, name: string): Promise<Politician | undefined> {
  const call = await run.call('lookup', { q: name, types: 'politicians', limit: 5 });
  if (call.status >= 400) {
    run.refused(call);
    return undefined;
  }
  const found = list<Politician>(record(call.result).politicians)[0];
  if (!found) {
    run.write(`I found no member of Congress or official matching "${name}".`);
    return undefined;
  }
  return found;
}

async function memberTrades(run: ChatRun, member: string, window: Window): Promise<void> {
  const politician = await findMember(run, member);
  if (!politician) return;
  const call = await run.call('query_trades', {
    politician_id: String(politician.politician_id),
    ...windowArgs(window),
    limit: SHOWN,
  });
  if (call.status >= 400) return run.refused(call);
  const trades = list<TradeRow>(call.result);
  if (trades.length === 0) {
    run.write(`${describeMember(politician)} disclosed no trades ${window.words} (by disclosure date).`);
    return;
  }
  const more =
    trades.length === SHOWN
      ? ' These are the most recently disclosed; ask for a narrower window for more.'
      : '';
  run.write(
    `Trades ${describeMember(politician)} disclosed ${window.words}, newest disclosure first:${more}`,
  );
  for (const trade of trades) {
    run.write(tradeLine(trade));
    run.cite('query_trades', trade);
  }
}

async function resolveTicker(run: ChatRun, text: string): Promise<string | undefined> {
  if (/^[A-Z]{1,5}(?:\.[A-Z])?$/.test(text)) return text;
  const call = await run.call('lookup', { q: text, types: 'tickers', limit: 5 });
  if (call.status >= 400) {
    run.refused(call);
    return undefined;
  }
  const ticker = list<{ ticker: string }>(record(call.result).tickers)[0]?.ticker;
  if (!ticker) run.write(`I found no ticker or company matching "${text}".`);
  return ticker;
}

async function tickerTrades(run: ChatRun, text: string, window: Window): Promise<void> {
  const ticker = await resolveTicker(run, text);
  if (!ticker) return;
  const call = await run.call('query_trades', { ticker, ...windowArgs(window), limit: SHOWN });
  if (call.status >= 400) return run.refused(call);
  const trades = list<TradeRow>(call.result);
  if (trades.length === 0) {
    run.write(`No member disclosed a trade in ${ticker} ${window.words} (by disclosure date).`);
    return;
  }
  const members = [...new Set(trades.map((trade) => trade.politician_name))];
  run.write(`Members who disclosed trades in ${ticker} ${window.words}: ${members.join(', ')}.`);
  for (const trade of trades) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('query_trades', trade);
  }
}

interface Holding {
  ticker: string;
  asset_description: string | null;
  status: string;
  trade_count: number;
  last_trade_date: string;
  estimated_value_low: number | null;
  estimated_value_high: number | null;
}

async function portfolio(run: ChatRun, member: string): Promise<void> {
  const politician = await findMember(run, member);
  if (!politician) return;
  const call = await run.call('get_portfolio', { politician_id: politician.politician_id });
  if (call.status >= 400) return run.refused(call);
  const answer = record(call.result);
  const open = list<Holding>(answer.holdings).filter((holding) => holding.status === 'open');
  if (open.length === 0) {
    run.write(
      `${describeMember(politician)} has no open holdings by the reconstruction from disclosed trades.`,
    );
    return;
  }
  run.write(
    `Open holdings of ${describeMember(politician)}, reconstructed from disclosed trades (estimated holdings: ${String(answer.holdings_count)}):`,
  );
  for (const holding of open.slice(0, SHOWN)) {
    const value =
      holding.estimated_value_low !== null && holding.estimated_value_high !== null
        ? `, estimated $${holding.estimated_value_low.toLocaleString('en-US')} to $${holding.estimated_value_high.toLocaleString('en-US')}`
        : '';
    const name = holding.asset_description ? ` (${holding.asset_description})` : '';
    run.write(
      `- ${holding.ticker}${name}: ${holding.trade_count} trades, last on ${holding.last_trade_date}${value}`,
    );
    run.cite('get_portfolio', holding);
  }
}

interface ConflictTrade extends TradeRow {
  committees: string[];
  link_kinds?: string[];
}

async function conflicts(run: ChatRun, member: string): Promise<void> {
  const politician = await findMember(run, member);
  if (!politician) return;
  const call = await run.call('get_conflicts', { politician_id: politician.politician_id });
  if (call.status >= 400) return run.refused(call);
  const answer = record(call.result);
  const trades = list<ConflictTrade>(answer.trades);
  const committees = list<{ name: string; conflicting_trades: number }>(answer.committees);
  run.write(
    `${describeMember(politician)}: ${String(answer.conflicting_trade_count)} of ${String(answer.total_trades)} disclosed trades fall in sectors overseen by committees they sat on at the time, or are linked to lobbying, contracts or PAC money.`,
  );
  for (const committee of committees.filter((entry) => entry.conflicting_trades > 0)) {
    run.write(`- ${committee.name}: ${committee.conflicting_trades} trades`);
  }
  if (trades.length > 0) run.write('Most recent of those trades:');
  for (const trade of trades.slice(0, SHOWN)) {
    const via = [...trade.committees, ...(trade.link_kinds ?? [])];
    run.write(`${tradeLine(trade)} (${via.join(', ')})`);
    run.cite('get_conflicts', trade);
  }
}

interface TopTicker {
  ticker: string;
  company_name: string | null;
  trade_count: number;
  politician_count: number;
  last_disclosure_date: string | null;
}

function daysOf(window: Window, today: Date): number {
  if (window.days) return window.days;
  const from = Date.parse(`${window.dateFrom ?? ''}T00:00:00Z`);
  const days = Math.ceil((today.getTime() - from) / 86_400_000);
  return Number.isFinite(days) ? Math.min(3650, Math.max(1, days)) : 365;
}

async function topTickers(run: ChatRun, window: Window): Promise<void> {
  const call = await run.call('top_tickers', { days: daysOf(window, run.today), limit: SHOWN });
  if (call.status >= 400) return run.refused(call);
  const tickers = list<TopTicker>(call.result);
  if (tickers.length === 0) {
    run.write(`No trades were disclosed ${window.words}.`);
    return;
  }
  run.write(`Most-traded tickers by trades disclosed ${window.words}:`);
  for (const entry of tickers) {
    const name = entry.company_name ? ` (${entry.company_name})` : '';
    run.write(
      `- ${entry.ticker}${name}: ${entry.trade_count} trades by ${entry.politician_count} members, last disclosed ${entry.last_disclosure_date ?? 'unknown'}`,
    );
    run.cite('top_tickers', entry);
  }
}

async function search(run: ChatRun, text: string): Promise<void> {
  const call = await run.call('semantic_search', { q: text.slice(0, 300), limit: 5 });
  if (call.status >= 400) return run.refused(call);
  const results = list<{ title: string; subtitle: string }>(record(call.result).results);
  if (results.length === 0) {
    run.write('I could not match that question to members, tickers, trades or bills.');
    return;
  }
  run.write('I could not map that question to one of my fixed questions; the closest records are:');
  for (const result of results) {
    run.write(`- ${result.title}: ${result.subtitle}`);
    run.cite('semantic_search', result);
  }
}

export async function answerWithRouter(run: ChatRun, question: string): Promise<void> {
  const intent: Intent = routeQuestion(question, run.today);
  switch (intent.kind) {
    case 'member_trades':
      return memberTrades(run, intent.member, intent.window);
    case 'ticker_trades':
      return tickerTrades(run, intent.ticker, intent.window);
    case 'portfolio':
      return portfolio(run, intent.member);
    case 'conflicts':
      return conflicts(run, intent.member);
    case 'top_tickers':
      return topTickers(run, intent.window);
    case 'search':
      return search(run, intent.text);
    case 'record':
      return answerRecord(run, intent.intent, { findMember, resolveTicker });
  }
}
