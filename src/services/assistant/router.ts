// Answers without a model: the intent router picks the tool calls, and the answer is written only
// from the values those calls returned (names, dates, amounts, counts the routes computed).
import {
  currentSymbolOf,
  linkedSymbols,
  type SymbolChange,
  sameCompanyOn,
} from '../../domain/symbol-changes.js';
import { quoted } from '../../errors.js';
import { conceptsIn, tickerOfAlias } from '../../search/entities.js';
import { COMPANY_ALIASES } from '../../search/vocabulary/companies.js';
import { CONCEPTS } from '../../search/vocabulary/concepts.js';
import {
  chamberOf,
  directionWords,
  inPeriod,
  list,
  partyOf,
  period,
  record,
  SHOWN,
  stateOf,
  type TradeRow,
  tradeLine,
  transactionArgs,
  WHAT_I_CAN_DO,
  WHO_PAGES,
  WHO_READ,
} from './answer-parts.js';
import { type Direction, directionOf, type Intent, routeQuestion, type Window, windowOf } from './intents.js';
import { conflicts, findMember, memberTrades, namedMemberTrades, portfolio } from './member-answers.js';
import { withOfficeHolder } from './offices.js';
import { answerRecord } from './record-intents.js';
import type { ChatRun } from './run.js';

/** "Republican " or "Democratic " when a party filter kept the trades, else nothing. */
function partyName(question: string): string {
  const party = partyOf(question).party;
  return party === 'R' ? 'Republican ' : party === 'D' ? 'Democratic ' : '';
}

/**
 * A company's short form in capitals that the alias table holds as written ("TSMC", "GEICO") is
 * that company, before it is read as a symbol; shorter ones ("AI", "ABC") stay symbols.
 */
function aliasInCapitals(text: string): string | undefined {
  if (!/^[A-Z]{4,6}$/.test(text)) return undefined;
  const ticker = tickerOfAlias(text);
  return ticker && ticker !== text && COMPANY_ALIASES[ticker]?.split(/\s+/).includes(text)
    ? ticker
    : undefined;
}

async function resolveTicker(run: ChatRun, text: string): Promise<string | undefined> {
  const capitals = aliasInCapitals(text);
  if (capitals) return capitals;
  if (/^[A-Z]{1,5}(?:\.[A-Z])?$/.test(text)) return text;
  // "Alphabet/Google", "Meta/Facebook": two names of one company; the first that resolves.
  const [first, ...others] = text.split(/\s*\/\s*/).filter(Boolean);
  if (first && others.length > 0)
    return (await resolveTicker(run, first)) ?? resolveTicker(run, others.join(' '));
  const aliased = tickerOfAlias(text);
  if (aliased) return aliased;
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
 * What a question's subject names: a ticker symbol; a kind of company (a concept of the search
 * vocabulary: /trades is narrowed to its GICS sectors, then the returned trades of its
 * sub-industries and SIC industries are kept by the industry each carries); or a company's name
 * (lookup). Nothing: every stock.
 */
interface Subject {
  tickers: string[];
  sectors: string[];
  /** Lower-cased sectors and industries a returned trade must carry one of (none: any). */
  keepSectors: Set<string>;
  keepIndustries: Set<string>;
  /** How the answer names it. */
  label: string;
}

const SYMBOL = /^[A-Z]{1,5}(?:[.-][A-Z]{1,2})?$/;
const lowered = (values: Iterable<string>) => new Set([...values].map((value) => value.toLowerCase()));

async function resolveSubject(run: ChatRun, text: string): Promise<Subject | undefined> {
  const subject = text.replace(/\b(?:stocks?|shares|companies|equities|names)\b/gi, ' ').trim();
  const none: Subject = {
    tickers: [],
    sectors: [],
    keepSectors: new Set(),
    keepIndustries: new Set(),
    label: 'stocks',
  };
  if (subject === '' || /^(?:any|all|some|the|their)$/i.test(subject)) return none;
  const symbols = subject.split(/\s*,\s*/);
  if (symbols.every((symbol) => SYMBOL.test(symbol)))
    return { ...none, tickers: symbols, label: symbols.join(' and ') };
  // "buying tech", "energy in 2022": a kind named without its noun is the kind's stocks.
  const kinds = conceptsIn(text);
  const matched = (kinds.length > 0 ? kinds : conceptsIn(`${subject} stocks`)).flatMap((match) =>
    CONCEPTS.filter((concept) => concept.id === match.id),
  );
  if (matched.length === 0) {
    const ticker = await resolveTicker(run, subject);
    return ticker ? { ...none, tickers: [ticker], label: ticker } : undefined;
  }
  const whole = matched.flatMap((concept) => concept.gicsSectors ?? []);
  return {
    ...none,
    sectors: [...new Set([...whole, ...matched.flatMap((concept) => concept.tradeSectors ?? [])])],
    keepSectors: lowered(whole),
    keepIndustries: lowered(
      matched.flatMap((concept) => [...(concept.gicsSubIndustries ?? []), ...(concept.sicIndustries ?? [])]),
    ),
    label: `${matched.map((concept) => concept.phrases[0]).join(' and ')} stocks`,
  };
}

/** /trades (or analytics) filters for a subject. */
function subjectArgs(subject: Subject): Record<string, unknown> {
  if (subject.tickers.length > 0) return { ticker: subject.tickers.join(',') };
  if (subject.sectors.length > 0) return { sector: subject.sectors.join(',') };
  return {};
}

/**
 * /trades filters for a subject, with every symbol its companies were filed under: /trades matches
 * the filed ticker exactly, and a renamed company's trades are filed under both (FB and META).
 * Which of them are the company asked about is decided per trade, on its date (`ofSubject`).
 */
function subjectTradeArgs(subject: Subject): Record<string, unknown> {
  if (subject.tickers.length === 0) return subjectArgs(subject);
  return { ticker: [...new Set(subject.tickers.flatMap((ticker) => linkedSymbols(ticker)))].join(',') };
}

/** Whether a returned trade is of the subject's kind (by the sector and industry it carries). */
function ofSubject(
  subject: Subject,
  trade: { ticker: string; transaction_date: string; sector?: string | null; industry?: string | null },
) {
  if (subject.tickers.length > 0)
    return subject.tickers.some((asked) => sameCompanyOn(trade.ticker, asked, trade.transaction_date));
  if (subject.keepSectors.size === 0 && subject.keepIndustries.size === 0) return true;
  const sector = (trade.sector ?? '').toLowerCase();
  if (subject.keepSectors.has(sector)) return true;
  // A kind named by whole GICS sectors ("utilities") keeps a trade by its SIC industry only when
  // the trade carries no other GICS sector: Nasdaq files pipelines under "Natural Gas
  // Distribution", which GICS puts in Energy.
  if (subject.keepSectors.size > 0 && sector !== '') return false;
  return subject.keepIndustries.has((trade.industry ?? '').toLowerCase());
}

async function tickerTrades(
  run: ChatRun,
  text: string,
  window: Window,
  direction: Direction,
  question: string,
): Promise<void> {
  const subject = await resolveSubject(run, text);
  if (!subject) return;
  // Every member is named: the period's trades are read page by page (each row charged).
  const read: TradeRow[] = [];
  for (let page = 0; page < WHO_PAGES; page++) {
    const call = await run.call('query_trades', {
      ...subjectTradeArgs(subject),
      ...chamberOf(question),
      ...partyOf(question),
      ...stateOf(question).filter,
      ...transactionArgs(window, run.today, direction, WHO_READ),
      ...(page > 0 ? { offset: page * WHO_READ } : {}),
    });
    if (call.status >= 400) return run.refused(call);
    const rows = list<TradeRow>(call.result);
    read.push(...rows);
    if (rows.length < WHO_READ) break;
  }
  const trades = inPeriod(read, window, run.today).filter((trade) => ofSubject(subject, trade));
  if (trades.length === 0) {
    run.write(
      `No ${partyName(question)}member${stateOf(question).words} ${directionWords(direction)} ${subject.label} ${window.words} (by transaction date) in the disclosures on file.`,
    );
    return;
  }
  const members = [...new Set(trades.map((trade) => trade.politician_name))];
  run.write(
    `${partyName(question) ? `${partyName(question)}members` : 'Members'}${stateOf(question).words} who ${directionWords(direction)} ${subject.label} ${window.words} (by transaction date): ${members.join(', ')}. Their latest trades:`,
  );
  for (const trade of trades.slice(0, SHOWN)) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('query_trades', trade);
  }
  const renamed = symbolChangesBehind(subject, trades);
  if (renamed.length > 0) run.write(renamed);
}

/**
 * Says which trades were found under another symbol of the company asked about, and why: a
 * question about META also lists the trades filed as FB.
 */
function symbolChangesBehind(subject: Subject, trades: readonly TradeRow[]): string {
  const filed = new Set<string>();
  const changes = new Set<SymbolChange>();
  for (const trade of trades) {
    const ticker = trade.ticker.toUpperCase();
    if (subject.tickers.includes(ticker)) continue;
    filed.add(ticker);
    for (const symbol of [ticker, ...subject.tickers]) {
      for (const change of currentSymbolOf(symbol, trade.transaction_date).changes) changes.add(change);
    }
  }
  if (filed.size === 0) return '';
  // No dates: every number of an answer comes from a tool result.
  const why = [...changes].map((change) =>
    change.kind === 'successor'
      ? `${change.company} continues the company that traded as ${change.old}`
      : `${change.company} traded as ${change.old} before ${change.new}`,
  );
  return `Included: trades filed under ${[...filed].join(' and ')}, another symbol of the same company (${why.join('; ')}).`;
}

async function biggestTrades(
  run: ChatRun,
  window: Window,
  direction: Direction,
  question: string,
): Promise<void> {
  const call = await run.call('query_trades', {
    ...chamberOf(question),
    ...partyOf(question),
    ...stateOf(question).filter,
    ...transactionArgs(window, run.today, direction, SHOWN),
    sort_by: 'amount',
    sort_dir: 'desc',
  });
  if (call.status >= 400) return run.refused(call);
  const trades = inPeriod(list<TradeRow>(call.result), window, run.today).slice(0, SHOWN);
  if (trades.length === 0) {
    run.write(
      `No trade${partyName(question) ? ` by ${partyName(question)}members` : ''}${stateOf(question).words ? ` by members${stateOf(question).words}` : ''} made ${window.words} (by transaction date) is on file.`,
    );
    return;
  }
  run.write(
    `The largest trades${partyName(question) ? ` by ${partyName(question)}members` : ''}${stateOf(question).words ? ` by members${stateOf(question).words}` : ''} made ${window.words} (by transaction date, by disclosed amount bracket):`,
  );
  for (const trade of trades) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('query_trades', trade);
  }
}

interface TimingHit {
  trade: TradeRow & { sector?: string | null; industry?: string | null };
  action?: { kind?: string; date?: string; bill_id?: string };
  bill_match?: { text?: string; basis?: string }[];
}

/** Whether an action's bill is on the topic the question names ("energy votes"). */
function onTopic(hit: TimingHit, topic: string | undefined): boolean {
  if (!topic) return true;
  return (hit.bill_match ?? []).some((match) => {
    const basis = (match.basis ?? '').toLowerCase();
    const text = (match.text ?? '').toLowerCase();
    return (basis !== '' && (basis.includes(topic) || topic.includes(basis))) || text.includes(topic);
  });
}

/** Hits read to find those of the subject and topic (the analytics answer is priced per call). */
const TIMING_READ = 1000;

async function timing(
  run: ChatRun,
  text: string,
  topic: string | undefined,
  window: Window,
  question: string,
) {
  const subject = await resolveSubject(run, text);
  if (!subject) return;
  const { from, to } = period(window, run.today);
  const direction = directionOf(question);
  const call = await run.call('find_legislation_timing', {
    ...(subject.tickers.length > 0 ? subjectArgs(subject) : {}),
    ...chamberOf(question),
    date_from: from,
    date_to: to,
    ...(direction ? { trade_type: direction } : {}),
    limit: TIMING_READ,
  });
  if (call.status >= 400) return run.refused(call);
  const hits = list<TimingHit>(record(call.result).hits).filter(
    (hit) => ofSubject(subject, hit.trade) && onTopic(hit, topic),
  );
  const seen = new Set<number>();
  const shown = hits.filter((hit) => !seen.has(hit.trade.id) && seen.add(hit.trade.id)).slice(0, SHOWN);
  const about = topic ? `a bill on ${topic}` : 'a bill touching the company';
  if (shown.length === 0) {
    run.write(
      `No trade in ${subject.label} ${window.words} (by transaction date) was made shortly before a committee action or vote on ${about}.`,
    );
    return;
  }
  run.write(
    `Trades in ${subject.label} made shortly before a committee action or vote on ${about} ${window.words}:`,
  );
  for (const hit of shown) {
    const action = hit.action
      ? ` before ${hit.action.kind ?? 'action'} on ${hit.action.bill_id ?? 'a bill'} (${hit.action.date ?? 'undated'})`
      : '';
    run.write(
      `- ${hit.trade.politician_name}, ${hit.trade.transaction_date}: ${hit.trade.trade_type} ${hit.trade.ticker}${action} [trade ${hit.trade.id}]`,
    );
    run.cite('find_legislation_timing', hit);
  }
}

interface Dossier {
  company?: { name?: string | null; sector?: string | null; industry?: string | null };
  member_trades?: {
    trade_count?: number;
    member_count?: number;
    buys?: number;
    sells?: number;
    net_direction?: string | null;
    first_trade_date?: string | null;
    last_trade_date?: string | null;
    recent?: TradeRow[];
  };
  insider_trades?: { total?: number };
  whale_stakes?: { total?: number };
  lobbying?: { filing_count?: number; total_amount?: number | null };
  contracts?: { award_count?: number; total_amount?: number | null };
  campaign_contributions?: { record_count?: number; total_amount?: number | null };
  bills?: unknown[];
  overseeing_committees?: unknown[];
}

const dollars = (value: number | null | undefined) =>
  value === null || value === undefined ? 'amount not reported' : `$${value.toLocaleString('en-US')}`;

/**
 * The words that ask for a company's dossier ("X summary", "everything on X") are asked of members
 * too: a name no ticker or company carries but a member does is answered with the member's trades.
 */
async function dossier(run: ChatRun, company: string, window: Window): Promise<void> {
  const name = company.replace(/^(?:on|of|for|about)\s+/i, '').trim();
  let ticker: string | undefined = aliasInCapitals(name) ?? (SYMBOL.test(name) ? name : tickerOfAlias(name));
  if (!ticker) {
    const call = await run.call('lookup', { q: name, types: 'tickers,politicians', limit: 5 });
    if (call.status >= 400) return run.refused(call);
    const found = record(call.result);
    ticker = list<{ ticker: string }>(found.tickers)[0]?.ticker;
    if (!ticker && list(found.politicians).length > 0) return memberTrades(run, name, window, undefined);
  }
  if (!ticker) {
    run.write(`I found no ticker or company matching ${quoted(name)}.`);
    return;
  }
  const call = await run.call('company_dossier', { ticker });
  if (call.status >= 400) return run.refused(call);
  const answer = record(call.result) as Dossier;
  const kind = [answer.company?.sector, answer.company?.industry].filter(Boolean).join(', ');
  run.write(
    `${answer.company?.name ?? ticker} (${ticker}${kind ? `, ${kind}` : ''}): what the records hold.`,
  );
  const trades = answer.member_trades;
  if (trades?.trade_count)
    run.write(
      `Members' trades, as the dossier counts them: ${trades.trade_count} by ${trades.member_count ?? 'several'} members (${trades.buys ?? 0} buys, ${trades.sells ?? 0} sells), from ${trades.first_trade_date ?? 'unknown'} to ${trades.last_trade_date ?? 'unknown'}, net ${trades.net_direction ?? 'unknown'}.`,
    );
  else run.write("Members' trades: none on file.");
  run.write(
    `- Lobbying: ${answer.lobbying?.filing_count ?? 0} filings (${dollars(answer.lobbying?.total_amount)}); federal contracts: ${answer.contracts?.award_count ?? 0} awards (${dollars(answer.contracts?.total_amount)}).`,
  );
  run.write(
    `- Insider transactions: ${answer.insider_trades?.total ?? 0}; 13D/G stakes: ${answer.whale_stakes?.total ?? 0}; PAC money to members: ${answer.campaign_contributions?.record_count ?? 0} records.`,
  );
  run.write(
    `- Bills touching it: ${(answer.bills ?? []).length}; committees overseeing it: ${(answer.overseeing_committees ?? []).length}.`,
  );
  const recent = (trades?.recent ?? []).slice(0, SHOWN);
  if (recent.length > 0) run.write("Members' latest trades:");
  for (const trade of recent) {
    run.write(tradeLine(trade).replace('- ', `- ${trade.politician_name}, `));
    run.cite('company_dossier', trade);
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
  if (await namedMemberTrades(run, text)) return;
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

export async function answerWithRouter(run: ChatRun, asked: string): Promise<void> {
  // "the Speaker", "the chair of Senate Banking": the member who held the office, by name.
  const question = await withOfficeHolder(run, asked);
  if (question === undefined) return;
  const intent: Intent = routeQuestion(question, run.today);
  // "Why did X sell Visa?": a report states the trade, never its reason; what it states follows.
  if (/^\s*(?:why|for\s+what\s+reason|what\s+(?:was|is)\s+the\s+(?:reason|motive))\b/i.test(question))
    run.write(`Disclosures state what was traded and when, not why. ${WHAT_I_CAN_DO}.`);
  switch (intent.kind) {
    case 'member_trades':
      return memberTrades(run, intent.member, intent.window, intent.direction);
    case 'ticker_trades':
      return tickerTrades(run, intent.ticker, intent.window, intent.direction, question);
    case 'biggest_trades':
      return biggestTrades(run, intent.window, intent.direction, question);
    case 'timing':
      return timing(run, intent.subject, intent.topic, intent.window, question);
    case 'dossier':
      return dossier(run, intent.company, windowOf(question, run.today));
    case 'portfolio':
      return portfolio(run, intent.member);
    case 'conflicts':
      return conflicts(run, intent.member);
    case 'top_tickers':
      return topTickers(run, intent.window);
    case 'beyond':
      if (intent.about === 'rules') {
        run.write(
          `I answer from disclosures and the records filed with them, not about the law or the rules members trade under. ${WHAT_I_CAN_DO}.`,
        );
        return;
      }
      if (intent.about === 'wealth') {
        run.write(
          `Periodic transaction reports give each trade's amount as a bracket; they state no member's net worth, wealth or pay. ${WHAT_I_CAN_DO}.`,
        );
        return;
      }
      run.write(
        `Disclosures say what members traded, not what they or a stock will do next, and I give no investment advice. ${WHAT_I_CAN_DO}.`,
      );
      return;
    case 'search':
      return search(run, intent.text);
    case 'record':
      return answerRecord(run, intent.intent, { findMember, resolveTicker });
  }
}
