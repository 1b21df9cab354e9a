// Answers without a model: the intent router picks the tool calls, and the answer is written only
// from the values those calls returned (names, dates, amounts, counts the routes computed).
import { quoted } from '../../errors.js';
import { conceptsIn } from '../../search/entities.js';
import { type Direction, type Intent, routeQuestion, type Window } from './intents.js';
import { answerRecord } from './record-intents.js';
import type { ChatRun } from './run.js';

const SHOWN = 10;

/** What the router answers, said when a question is not one of them. */
const WHAT_I_CAN_DO =
  "I can answer who bought or sold a stock or a kind of stock in a period, what a member traded, the biggest trades of a period, trades made before votes or bills touching a sector, a member's conflicts or portfolio, and a company's dossier";

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

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
/** Filings are due within 45 days of a trade; late ones come later: a trade made in a period is looked for in disclosures up to a year after it. */
const LATE_DISCLOSURE_DAYS = 366;
/** Trades read to find those made in the period (each is charged as a row of /trades). */
const TRADES_READ = 250;

/** The transaction-date period a window means, as dates. */
function period(window: Window, today: Date): { from: string; to: string } {
  if (window.dateFrom && window.dateTo) return { from: window.dateFrom, to: window.dateTo };
  return { from: isoDay(new Date(today.getTime() - (window.days ?? 365) * 86_400_000)), to: isoDay(today) };
}

/**
 * /trades filters by disclosure date: the trades made in a period are among those disclosed from
 * its start to a year after its end, and are kept by their transaction date here (only rows the
 * tool returned, nothing computed).
 */
function transactionArgs(window: Window, today: Date, direction: Direction): Record<string, unknown> {
  const { from, to } = period(window, today);
  const late = isoDay(new Date(Date.parse(`${to}T00:00:00Z`) + LATE_DISCLOSURE_DAYS * 86_400_000));
  return {
    date_from: from,
    date_to: late < isoDay(today) ? late : isoDay(today),
    sort_by: 'transaction_date',
    sort_dir: 'desc',
    limit: TRADES_READ,
    ...(direction ? { trade_type: direction } : {}),
  };
}

function inPeriod(trades: TradeRow[], window: Window, today: Date): TradeRow[] {
  const { from, to } = period(window, today);
  return trades.filter((trade) => trade.transaction_date >= from && trade.transaction_date <= to);
}

const directionWords = (direction: Direction) =>
  direction === 'buy' ? 'bought' : direction === 'sell' ? 'sold' : 'traded';

/** "senators" / "representatives" in a question: the chamber filter. */
function chamberOf(question: string): Record<string, string> {
  if (/\bsenat(?:e|ors?)\b/i.test(question)) return { chamber: 'senate' };
  if (/\b(?:representatives|house members|congressm[ae]n|congresswom[ae]n)\b/i.test(question))
    return { chamber: 'house' };
  return {};
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
    run.write(`I found no member of Congress or official matching ${quoted(name)}.`);
    return undefined;
  }
  return found;
}

async function memberTrades(
  run: ChatRun,
  member: string,
  window: Window,
  direction: Direction,
): Promise<void> {
  const politician = await findMember(run, member);
  if (!politician) return;
  const call = await run.call('query_trades', {
    politician_id: String(politician.politician_id),
    ...transactionArgs(window, run.today, direction),
  });
  if (call.status >= 400) return run.refused(call);
  const trades = inPeriod(list<TradeRow>(call.result), window, run.today).slice(0, SHOWN);
  if (trades.length === 0) {
    run.write(
      `${describeMember(politician)} ${directionWords(direction)} nothing ${window.words} (by transaction date) that was disclosed.`,
    );
    return;
  }
  run.write(
    `Trades ${describeMember(politician)} ${directionWords(direction)} ${window.words} (by transaction date), newest first${trades.length === SHOWN ? ', the latest shown' : ''}:`,
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
  if (!ticker) run.write(`I found no ticker or company matching ${quoted(text)}.`);
  return ticker;
}

/**
 * Tickers a question's subject names: a symbol; a kind of company (a concept of the search
 * vocabulary: its companies, as semantic search ranks them); or a company's name (lookup).
 */
async function subjectTickers(run: ChatRun, text: string): Promise<string[] | undefined> {
  const subject = text.replace(/\b(?:stocks?|shares|companies|equities)\b/gi, ' ').trim();
  if (subject === '') return [];
  if (/^[A-Z]{1,5}(?:\.[A-Z])?$/.test(subject)) return [subject];
  if (conceptsIn(text).length === 0) {
    const ticker = await resolveTicker(run, subject);
    return ticker ? [ticker] : undefined;
  }
  const call = await run.call('semantic_search', { q: text.slice(0, 300), types: 'tickers', limit: 20 });
  if (call.status >= 400) {
    run.refused(call);
    return undefined;
  }
  const results = list<{ ticker?: string; score_parts?: { concept?: unknown } }>(record(call.result).results);
  const tickers = results.filter((r) => r.score_parts?.concept).flatMap((r) => (r.ticker ? [r.ticker] : []));
  if (tickers.length === 0) run.write(`I found no company of the kind ${quoted(text)} names.`);
  return tickers.length > 0 ? tickers : undefined;
}

async function tickerTrades(
  run: ChatRun,
  text: string,
  window: Window,
  direction: Direction,
  question: string,
): Promise<void> {
  const tickers = await subjectTickers(run, text);
  if (!tickers) return;
  const what = tickers.length === 0 ? 'stocks' : tickers.join(', ');
  const call = await run.call('query_trades', {
    ...(tickers.length > 0 ? { ticker: tickers.join(',') } : {}),
    ...chamberOf(question),
    ...transactionArgs(window, run.today, direction),
  });
  if (call.status >= 400) return run.refused(call);
  const trades = inPeriod(list<TradeRow>(call.result), window, run.today);
  if (trades.length === 0) {
    run.write(
      `No member ${directionWords(direction)} ${what} ${window.words} (by transaction date) in the disclosures on file.`,
    );
    return;
  }
  const members = [...new Set(trades.map((trade) => trade.politician_name))];
  run.write(
    `Members who ${directionWords(direction)} ${what} ${window.words} (by transaction date): ${members.join(', ')}. Their latest trades:`,
  );
  for (const trade of trades.slice(0, SHOWN)) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('query_trades', trade);
  }
}

async function biggestTrades(
  run: ChatRun,
  window: Window,
  direction: Direction,
  question: string,
): Promise<void> {
  const call = await run.call('query_trades', {
    ...chamberOf(question),
    ...transactionArgs(window, run.today, direction),
    sort_by: 'amount',
    sort_dir: 'desc',
  });
  if (call.status >= 400) return run.refused(call);
  const trades = inPeriod(list<TradeRow>(call.result), window, run.today).slice(0, SHOWN);
  if (trades.length === 0) {
    run.write(`No trade made ${window.words} (by transaction date) is on file.`);
    return;
  }
  run.write(`The largest trades made ${window.words} (by transaction date, by disclosed amount bracket):`);
  for (const trade of trades) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('query_trades', trade);
  }
}

interface TimingHit {
  id: number;
  politician_name: string;
  ticker: string;
  trade_type: string;
  transaction_date: string;
  action?: { kind?: string; date?: string; text?: string; bill_id?: string };
}

async function timing(run: ChatRun, subject: string, window: Window, question: string): Promise<void> {
  const tickers = await subjectTickers(run, subject);
  if (!tickers) return;
  const { from, to } = period(window, run.today);
  const direction = directionWordsFor(question);
  const call = await run.call('find_legislation_timing', {
    ...(tickers.length > 0 ? { ticker: tickers.join(',') } : {}),
    ...chamberOf(question),
    date_from: from,
    date_to: to,
    ...(direction ? { trade_type: direction } : {}),
    limit: SHOWN,
  });
  if (call.status >= 400) return run.refused(call);
  const answer = call.result;
  const hits = list<TimingHit>(
    Array.isArray(answer) ? answer : (record(answer).data ?? record(answer).results ?? record(answer).hits),
  );
  if (hits.length === 0) {
    run.write(
      `No trade in ${tickers.join(', ') || 'those stocks'} was made shortly before a committee action or vote on a bill touching it ${window.words}.`,
    );
    return;
  }
  run.write(
    `Trades made shortly before a committee action or vote on a bill touching the company's sector ${window.words}:`,
  );
  for (const hit of hits) {
    const action = hit.action
      ? ` before ${hit.action.kind ?? 'action'} on ${hit.action.bill_id ?? 'a bill'} (${hit.action.date ?? 'undated'})`
      : '';
    run.write(
      `- ${hit.politician_name}, ${hit.transaction_date}: ${hit.trade_type} ${hit.ticker}${action} [trade ${hit.id}]`,
    );
    run.cite('find_legislation_timing', hit);
  }
}

const directionWordsFor = (question: string): Direction =>
  /\b(?:bought|buy|buying|purchas\w*)\b/i.test(question)
    ? 'buy'
    : /\b(?:sold|sell|selling|dump\w*)\b/i.test(question)
      ? 'sell'
      : undefined;

async function dossier(run: ChatRun, company: string): Promise<void> {
  const tickers = await subjectTickers(run, company);
  const ticker = tickers?.[0];
  if (!ticker) return;
  const call = await run.call('company_dossier', { ticker });
  if (call.status >= 400) return run.refused(call);
  const answer = record(call.result);
  const name = typeof answer.name === 'string' ? answer.name : ticker;
  run.write(`${name} (${ticker}): what the records hold.`);
  for (const [field, value] of Object.entries(answer)) {
    if (Array.isArray(value))
      run.write(
        `- ${field.replace(/_/g, ' ')}: ${value.length === 0 ? 'none on file' : 'listed in the cited rows'}`,
      );
  }
  const trades = list<TradeRow>(record(answer.member_trades).trades ?? answer.trades ?? answer.member_trades);
  for (const trade of trades.slice(0, SHOWN)) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('company_dossier', trade);
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
    run.write(`I could not match that question to members, tickers, trades or bills. ${WHAT_I_CAN_DO}`);
    return;
  }
  run.write(
    `I could not map that question to one of my fixed questions (${WHAT_I_CAN_DO}); the closest records are:`,
  );
  for (const result of results) {
    run.write(`- ${result.title}: ${result.subtitle}`);
    run.cite('semantic_search', result);
  }
}

export async function answerWithRouter(run: ChatRun, question: string): Promise<void> {
  const intent: Intent = routeQuestion(question, run.today);
  switch (intent.kind) {
    case 'member_trades':
      return memberTrades(run, intent.member, intent.window, intent.direction);
    case 'ticker_trades':
      return tickerTrades(run, intent.ticker, intent.window, intent.direction, question);
    case 'biggest_trades':
      return biggestTrades(run, intent.window, intent.direction, question);
    case 'timing':
      return timing(run, intent.subject, intent.window, question);
    case 'dossier':
      return dossier(run, intent.company);
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
