// The router's answers about one member: their trades of a period, portfolio and conflicts, and
// the fallback that finds a member named in a question no form matched.
import { quoted } from '../../errors.js';
import {
  describeMember,
  directionWords,
  inPeriod,
  list,
  type Politician,
  record,
  SHOWN,
  type TradeRow,
  tradeLine,
  transactionArgs,
} from './answer-parts.js';
import { type Direction, directionOf, type Window, windowOf } from './intents.js';
import type { ChatRun } from './run.js';
import { namesIn } from './slots.js';
import { ASKS_ABOUT_TRADING } from './words.js';

/** The lookup's first member for a name; 'refused' when the call was refused (and said so). */
async function lookupMember(
  run: ChatRun,
  name: string,
): Promise<(Politician & { score?: number }) | undefined | 'refused'> {
  const call = await run.call('lookup', { q: name, types: 'politicians', limit: 5 });
  if (call.status >= 400) {
    run.refused(call);
    return 'refused';
  }
  return list<Politician & { score?: number }>(record(call.result).politicians)[0];
}

/** Finds a member by name with the lookup tool; undefined when the answer is already written. */
export async function findMember(run: ChatRun, name: string): Promise<Politician | undefined> {
  const looked = await lookupMember(run, name);
  if (looked === 'refused') return undefined;
  let found = looked;
  // "Pelosi Nvidia trades": a name read with a word after it that is no part of it. Without its
  // last word, a name the lookup finds well (as in namedMemberTrades) is the member.
  const words = name.split(/\s+/);
  if (!found && words.length >= 2 && words.length <= 3) {
    const shorter = await lookupMember(run, words.slice(0, -1).join(' '));
    if (shorter === 'refused') return undefined;
    if (shorter && (shorter.score ?? 0) >= 80) found = shorter;
  }
  if (!found) {
    run.write(`I found no member of Congress or official matching ${quoted(name)}.`);
    return undefined;
  }
  return found;
}

export async function memberTrades(
  run: ChatRun,
  member: string,
  window: Window,
  direction: Direction,
): Promise<void> {
  const politician = await findMember(run, member);
  if (politician) await tradesOf(run, politician, window, direction);
}

async function tradesOf(
  run: ChatRun,
  politician: Politician,
  window: Window,
  direction: Direction,
): Promise<void> {
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

interface Holding {
  ticker: string;
  asset_description: string | null;
  status: string;
  trade_count: number;
  last_trade_date: string;
  estimated_value_low: number | null;
  estimated_value_high: number | null;
}

export async function portfolio(run: ChatRun, member: string): Promise<void> {
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

export async function conflicts(run: ChatRun, member: string): Promise<void> {
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

/**
 * A question no form matched that names a member (a run of capitalised words the lookup finds as
 * a member's name, exactly or as its start) and asks about trading: the member's trades of the
 * period. True when it answered.
 */
export async function namedMemberTrades(run: ChatRun, text: string): Promise<boolean> {
  if (!ASKS_ABOUT_TRADING.test(text)) return false;
  for (const name of namesIn(text).slice(0, 2)) {
    const call = await run.call('lookup', { q: name, types: 'politicians', limit: 1 });
    if (call.status >= 400) return false;
    const found = list<Politician & { score?: number }>(record(call.result).politicians)[0];
    if (found && (found.score ?? 0) >= 80) {
      await tradesOf(run, found, windowOf(text, run.today), directionOf(text));
      return true;
    }
  }
  return false;
}
