// What the router's answers share: the rows the tools return, the period a window means as
// /trades filters it, the chamber a question names, and how a member and a trade line are written.
import type { Direction, Window } from './intents.js';
import { PEOPLE_STATE, stateCode } from './words.js';

export const SHOWN = 10;

/** What the router answers, said when a question is not one of them. */
export const WHAT_I_CAN_DO =
  "I can answer who bought or sold a stock or a kind of stock in a period, what a member traded, the biggest trades of a period, trades made before votes or bills touching a sector, a member's conflicts or portfolio, and a company's dossier";

export interface Politician {
  politician_id: number;
  name: string;
  party: string | null;
  state: string | null;
  chamber: string;
}

export interface TradeRow {
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
  sector?: string | null;
  industry?: string | null;
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
/** Trades read for a member or the biggest of a period (each is charged as a row of /trades). */
export const TRADES_READ = 250;
/** Trades read per page, and pages at most, to name every member who bought or sold something in a period. */
export const WHO_READ = 1000;
export const WHO_PAGES = 5;

/** The transaction-date period a window means, as dates. */
export function period(window: Window, today: Date): { from: string; to: string } {
  if (window.dateFrom && window.dateTo) return { from: window.dateFrom, to: window.dateTo };
  return { from: isoDay(new Date(today.getTime() - (window.days ?? 365) * 86_400_000)), to: isoDay(today) };
}

/** The trades made in a period (by transaction date, as /trades filters them), newest first. */
export function transactionArgs(
  window: Window,
  today: Date,
  direction: Direction,
  limit = TRADES_READ,
): Record<string, unknown> {
  const { from, to } = period(window, today);
  return {
    transaction_date_from: from,
    transaction_date_to: to,
    sort_by: 'transaction_date',
    sort_dir: 'desc',
    limit,
    ...(direction ? { trade_type: direction } : {}),
  };
}

export function inPeriod(trades: TradeRow[], window: Window, today: Date): TradeRow[] {
  const { from, to } = period(window, today);
  return trades.filter((trade) => trade.transaction_date >= from && trade.transaction_date <= to);
}

export const directionWords = (direction: Direction) =>
  direction === 'buy' ? 'bought' : direction === 'sell' ? 'sold' : 'traded';

/**
 * "senators" / "representatives" / "the House" ("house sales", not the White House) in a
 * question: the chamber filter. "Congressman" is a House title, but "congressmen" asked about in
 * general ("any congressmen selling Facebook?") means members of Congress, senators too, as people
 * use it: only the singular sets the House.
 */
export function chamberOf(question: string): Record<string, string> {
  if (/\bsenat(?:e|ors?)\b/i.test(question)) return { chamber: 'senate' };
  if (
    /\b(?:representatives?|reps?\.?|congressman|congresswoman)\b|(?<!\bwhite\s+)\bhouse\b(?!\s+of\b)/i.test(
      question,
    )
  )
    return { chamber: 'house' };
  return {};
}

/** "Republicans" / "GOP" or "Democrats" / "Dems" in a question: the party filter (both: none). */
export function partyOf(question: string): Record<string, string> {
  const republican = /\b(?:republicans?|gop)\b/i.test(question);
  const democrat = /\b(?:democrats?|democratic|dems?)\b/i.test(question);
  if (republican === democrat) return {};
  return { party: republican ? 'R' : 'D' };
}

/** "senators from Texas", "Florida Republicans": the state filter, and the words the answer says it with. */
export function stateOf(question: string): { filter: Record<string, string>; words: string } {
  const match = PEOPLE_STATE.exec(question);
  const name = match?.[1] ?? match?.[2];
  const code = name ? stateCode(name) : undefined;
  return code && name ? { filter: { state: code }, words: ` from ${name}` } : { filter: {}, words: '' };
}

export function describeMember(member: Politician): string {
  const seat = [member.party, member.state].filter(Boolean).join('-');
  return seat ? `${member.name} (${seat}, ${member.chamber})` : `${member.name} (${member.chamber})`;
}

export function tradeLine(trade: TradeRow): string {
  const what = trade.asset_description ? `${trade.ticker} (${trade.asset_description})` : trade.ticker;
  const amount = trade.amount_range ? `, ${trade.amount_range}` : '';
  const owner = trade.owner && trade.owner !== 'Self' ? `, owner ${trade.owner}` : '';
  const disclosed = trade.disclosure_date ? `, disclosed ${trade.disclosure_date}` : '';
  return `- ${trade.transaction_date}: ${trade.trade_type} ${what}${amount}${owner}${disclosed} [trade ${trade.id}]`;
}
