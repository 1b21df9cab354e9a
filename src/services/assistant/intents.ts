// The deterministic intent router: the common questions, recognised without a model. Pure: the
// question and today's date in, an intent out.

import { MONTH_NAMES } from '../../domain/dates.js';
import { type RecordIntent, recordIntent } from './record-intents.js';

/** A disclosure-date window, with the words the answer uses for it (never numbers of our own). */
export interface Window {
  dateFrom?: string;
  dateTo?: string;
  days?: number;
  words: string;
}

/** Which way the trades asked about went; undefined: both. */
export type Direction = 'buy' | 'sell' | undefined;

export type Intent =
  | { kind: 'member_trades'; member: string; window: Window; direction?: Direction }
  | { kind: 'ticker_trades'; ticker: string; window: Window; direction?: Direction }
  | { kind: 'biggest_trades'; window: Window; direction?: Direction }
  | { kind: 'timing'; subject: string; topic?: string; window: Window }
  | { kind: 'dossier'; company: string }
  | { kind: 'portfolio'; member: string }
  | { kind: 'conflicts'; member: string }
  | { kind: 'top_tickers'; window: Window }
  | { kind: 'record'; intent: RecordIntent }
  /** A forecast or advice: not something disclosures answer. */
  | { kind: 'beyond'; text: string; about?: 'wealth' }
  | { kind: 'search'; text: string };

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The last day of a month (1-12) of a year, as YYYY-MM-DD. */
function monthEnd(year: string, month: number): string {
  const last = new Date(Date.UTC(Number(year), month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
};

const COUNT_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/**
 * "Q1 2020", "the first quarter of 2020", "the last quarter of 2021", "the first half of 2020",
 * "H2 2021", "the back half of 2025", "the last three months of 2021", "the first 6 months of
 * 2020": months of a year.
 */
function partOfYear(text: string): Window | undefined {
  const months =
    /\b(first|last|final|closing|opening)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+months\s+of\s+((?:19|20)\d{2})\b/.exec(
      text,
    );
  const count = months?.[2] ? (COUNT_WORDS[months[2]] ?? Number(months[2])) : 0;
  if (months?.[1] && months[3] && count >= 1 && count <= 12) {
    const fromEnd = /last|final|closing/.test(months[1]);
    const firstMonth = fromEnd ? 13 - count : 1;
    return {
      dateFrom: `${months[3]}-${String(firstMonth).padStart(2, '0')}-01`,
      dateTo: monthEnd(months[3], fromEnd ? 12 : count),
      words: 'in the period you asked about',
    };
  }
  const quarter =
    /\bq([1-4])\s*(?:of\s+)?((?:19|20)\d{2})\b/.exec(text) ??
    /\b(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+quarter\s+(?:of\s+)?((?:19|20)\d{2})\b/.exec(
      text,
    );
  const half =
    /\bh([12])\s*(?:of\s+)?((?:19|20)\d{2})\b/.exec(text) ??
    /\b(first|second|1st|2nd|last|front|back)\s+half\s+(?:of\s+)?((?:19|20)\d{2})\b/.exec(text);
  const part = quarter ? { match: quarter, months: 3 } : half ? { match: half, months: 6 } : undefined;
  const [, which, year] = part?.match ?? [];
  if (!part || !which || !year) return undefined;
  // "the last quarter of 2021", "the back half of 2025": the year's last part.
  const number = /last|final|back/.test(which)
    ? 12 / part.months
    : which === 'front'
      ? 1
      : (ORDINALS[which] ?? Number(which));
  const firstMonth = (number - 1) * part.months + 1;
  return {
    dateFrom: `${year}-${String(firstMonth).padStart(2, '0')}-01`,
    dateTo: monthEnd(year, firstMonth + part.months - 1),
    words: 'in the period you asked about',
  };
}

/** The same day `months` calendar months before `today`, as YYYY-MM-DD (clamped to the month's end). */
function monthsBefore(today: Date, months: number): string {
  const target = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(today.getUTCDate(), last));
  return iso(target);
}

/**
 * "between 2020-01-01 and 2020-06-30", "2021-01-01 to 2021-06-30", "Q1 2020", "first half of
 * 2020", "March 2020", "between March and June 2020", "last year", "this year", "in 2024",
 * "last 90 days", "last 6 months"; default: the past year.
 */
export function windowOf(question: string, today: Date): Window {
  const text = question.toLowerCase();
  const year = today.getUTCFullYear();
  const isoRange =
    /\b(\d{4}-\d{2}-\d{2})\s*(?:to|and|through|thru|until|till|-|–|—)\s*(\d{4}-\d{2}-\d{2})\b/.exec(text);
  if (isoRange?.[1] && isoRange[2]) {
    const [from, to] = [isoRange[1], isoRange[2]].sort();
    return { dateFrom: from, dateTo: to, words: 'in the period you asked about' };
  }
  const part = partOfYear(text) ?? monthWindow(text);
  if (part) return part;
  if (/\blast year\b|\bprevious year\b|\bpast calendar year\b/.test(text)) {
    return { dateFrom: `${year - 1}-01-01`, dateTo: `${year - 1}-12-31`, words: 'last year' };
  }
  if (/\bthis year\b|\byear to date\b|\bytd\b/.test(text)) {
    return { dateFrom: `${year}-01-01`, dateTo: iso(today), words: 'this year' };
  }
  const since = /\bsince\s+((?:19|20)\d{2})\b/.exec(text);
  if (since?.[1])
    return { dateFrom: `${since[1]}-01-01`, dateTo: iso(today), words: 'since the year you asked about' };
  const inYear = /\b(?:in|during|of|for|from)\s+((?:19|20)\d{2})\b/.exec(text);
  if (inYear?.[1]) {
    return {
      dateFrom: `${inYear[1]}-01-01`,
      dateTo: `${inYear[1]}-12-31`,
      words: 'in the year you asked about',
    };
  }
  const span =
    /\b(?:last|past|previous|trailing)\s+(\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(day|week|month|year)s?\b/.exec(
      text,
    );
  const spanCount = span?.[1] ? (COUNT_WORDS[span[1]] ?? Number(span[1])) : 0;
  if (span?.[2] && spanCount > 0) {
    // Months and years are calendar ones: "the past 12 months" on June 1 starts the June 1 before.
    if (span[2] === 'month' || span[2] === 'year') {
      const months = Math.min(120, spanCount * (span[2] === 'year' ? 12 : 1));
      return {
        dateFrom: monthsBefore(today, months),
        dateTo: iso(today),
        words: 'in the period you asked about',
      };
    }
    const days = Math.min(3650, spanCount * (span[2] === 'week' ? 7 : 1));
    return { days, words: 'in the period you asked about' };
  }
  // "Josh Gottheimer purchases 2021": a year standing alone is the year asked about.
  const bareYear = /\b((?:19|20)\d{2})\b/.exec(text);
  if (bareYear?.[1]) {
    return {
      dateFrom: `${bareYear[1]}-01-01`,
      dateTo: `${bareYear[1]}-12-31`,
      words: 'in the year you asked about',
    };
  }
  if (/\b(?:last|past)\s+(month)\b/.test(text)) return { days: 30, words: 'in the past month' };
  if (/\b(?:last|past)\s+(week)\b/.test(text)) return { days: 7, words: 'in the past week' };
  if (/\brecent(?:ly)?\b|\blatest\b/.test(text)) return { days: 90, words: 'recently' };
  return { days: 365, words: 'in the past year' };
}

/** Words that ask to be shown something ("pull up X's trades"), no part of what is asked about. */
const ASK =
  '(?:list|show(?:\\s+me)?|give\\s+me|get(?:\\s+me)?|find|pull\\s+up|bring\\s+up|look\\s+up|fetch|display)';

// Words around a name that are not part of it.
const TRAILING =
  /\s+(?:(?:trade|traded|trading|buy|bought|sell|sold|hold|holds|own|owns|do|did|make|made|disclose|disclosed)\b.*|(?:last|this|past|in|during|between|from|through|recently|lately|before|after|ahead|prior|since|until)\b.*)$/i;

function cleanName(raw: string): string {
  return (
    raw
      .replace(/[?.!]+$/g, '')
      .replace(TRAILING, '')
      // "Kenny Marchant: 2020" (the period after a colon or comma)
      .replace(/(?:\s*[:,;–—]\s*|\s+)(?:(?:19|20)\d{2}\s*)?$/, '')
      .replace(new RegExp(`^${ASK}\\s+(?:all\\s+|the\\s+)?`, 'i'), '')
      // "are any of Rick Allen('s trades)", "were Nancy Pelosi('s purchases conflicted)"
      .replace(/^(?:are|were|is|was)\s+/i, '')
      .replace(/^(?:(?:which|what|how many)\s+)?(?:any|all|some|none|each|one|many|most)\s+of\s+/i, '')
      .replace(/^(?:rep\.?|representative|sen\.?|senator|congressman|congresswoman|member)\s+/i, '')
      .replace(/'s$|’s$/i, '')
      .trim()
  );
}

/** The people a "which senators sold ..." or "house members who sold ..." question asks for. */
const PEOPLE =
  '(?:(?:(?:republican|democratic|gop)\\s+)?(?:members?|politicians?|senators?|representatives?|reps|(?:house|senate|congress(?:ional)?)\\s+members|lawmakers|legislators|congress(?:wo)?m[ae]n|congresspeople)|republicans|democrats|dems)';

/** Phrases people write for buying: "picked up Cisco", "loading up on chip stocks", "snapped up". */
const BUY_PHRASE =
  '(?:(?:buy|buys|bought|buying)\\s+into|add(?:ed|ing|s)?\\s+to|(?:pick|picked|picking|snap|snapped|snapping|scoop|scooped|scooping)\\s+up|load(?:ed|ing|s)?\\s+up(?:\\s+on)?|invest(?:ed|ing|s)?\\s+in)';
/** Phrases for selling: "cashed out of Qualcomm", "got out of", "exited", "offloaded", "divested". */
const SELL_PHRASE =
  '(?:trim(?:med|ming|s)?|reduc(?:ed|ing|es)|pare[ds]?(?:\\s+back)?|cash(?:ed|ing|es)?\\s+out(?:\\s+of)?|(?:got|get|getting|gets)\\s+out\\s+of|exit(?:ed|ing|s)?|offload\\w*|divest\\w*(?:\\s+from)?|bail(?:ed|ing)?\\s+out\\s+of)';

/** A request before the people asked for: "list the members that sold …", "names of senators who …". */
const ASK_FOR_PEOPLE = `(?:(?:${ASK}|name|tell\\s+me|(?:the\\s+)?names?\\s+of)\\s+(?:all\\s+)?(?:the\\s+|every\\s+)?(?=${PEOPLE}\\b))?`;

/** Verbs of trading in a "who bought ..." question. */
const TRADE_VERB = `(?:${BUY_PHRASE}|${SELL_PHRASE}|trade|traded|trading|buy|bought|buying|sell|sold|selling|own|owns|hold|holds|purchas\\w*|acquir\\w*|dump\\w*|unload\\w*)`;

// Capitalised words of questions that are not tickers (a ticker of the same letters is written $X).
const NOT_TICKERS = new Set([
  'I',
  'A',
  'COVID',
  'US',
  'USA',
  'CEO',
  'IPO',
  'ETF',
  'GDP',
  'SEC',
  'FDA',
  'EV',
  'AI',
  'TV',
]);

const TICKER = /(?:^|\s)\$?([A-Z]{1,5}(?:\.[A-Z])?)(?=$|[\s?.!,])/;

/** Symbols listed after the first: "FB or META", "AAPL, MSFT and NVDA". */
const MORE_TICKERS = /^(?:\s*(?:,|or|and|&)\s*\$?[A-Z]{1,5}(?:\.[A-Z])?(?=$|[\s?.!,]))+/;

/** The ticker a question names, or several joined by commas ("FB or META" -> "FB,META"). */
function tickerIn(question: string): string | undefined {
  const dollar = /\$([A-Za-z]{1,5}(?:\.[A-Za-z])?)\b/.exec(question);
  if (dollar?.[1]) return dollar[1].toUpperCase();
  const text = question.replace(/^\s*(?:who|which|what)\b/i, '');
  const match = TICKER.exec(text);
  const symbol = match?.[1];
  if (!match || !symbol || NOT_TICKERS.has(symbol)) return undefined;
  const more = MORE_TICKERS.exec(text.slice(match.index + match[0].length))?.[0] ?? '';
  const others = [...more.matchAll(/[A-Z]{1,5}(?:\.[A-Z])?/g)]
    .map((found) => found[0])
    .filter((other) => !NOT_TICKERS.has(other));
  return [symbol, ...others].join(',');
}

/** "bought", "purchases" -> buy; "sold", "dumped" -> sell; both or neither -> undefined. Pure. */
export function directionOf(question: string): Direction {
  const buy = new RegExp(
    `\\b(?:buy|buys|buyers?|bought|buying|purchas\\w*|acquir\\w*|${BUY_PHRASE})\\b`,
    'i',
  ).test(question);
  const sell = new RegExp(
    `\\b(?:sell|sells|sellers?|sold|selling|sales?|dump\\w*|unload\\w*|${SELL_PHRASE})\\b`,
    'i',
  ).test(question);
  return buy === sell ? undefined : buy ? 'buy' : 'sell';
}

const MONTH = `(${MONTH_NAMES.join('|')})`;
const YEAR = '((?:19|20)\\d{2})';
/** "between March and June 2020", "from November 2019 to February 2020", "March–June 2021". */
const MONTH_RANGE = new RegExp(
  `\\b${MONTH}(?:\\s+${YEAR})?\\s*(?:and|to|through|thru|until|till|-|–|—)\\s*${MONTH}\\s+${YEAR}\\b`,
  'i',
);
const monthNumber = (name: string) => MONTH_NAMES.indexOf(name.toLowerCase()) + 1;
const monthStart = (year: string | number, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;

/** "in February 2020", "between March and June 2020" -> those months (transaction dates). */
function monthWindow(text: string): Window | undefined {
  const range = MONTH_RANGE.exec(text);
  if (range?.[1] && range[3] && range[4]) {
    const [first, last] = [monthNumber(range[1]), monthNumber(range[3])];
    // "November to February 2021" without a first year runs over the new year.
    const firstYear = range[2] ?? (first > last ? String(Number(range[4]) - 1) : range[4]);
    const [from, to] = [monthStart(firstYear, first), monthEnd(range[4], last)].sort();
    return { dateFrom: from, dateTo: to, words: 'in the period you asked about' };
  }
  const match = new RegExp(`\\b${MONTH}\\s+${YEAR}\\b`, 'i').exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const month = monthNumber(match[1]);
  return {
    dateFrom: monthStart(match[2], month),
    dateTo: monthEnd(match[2], month),
    words: 'in the month you asked about',
  };
}

/** The words for the largest trades by amount: "biggest", "most valuable", "highest-value". */
const LARGEST =
  '(?:biggest|largest|top|most expensive|most valuable|highest[- ]value(?:d)?|highest[- ]dollar|priciest|costliest|heftiest)';

/** What a trade is called in "the biggest …" ("the largest purchase", "the biggest bets"). */
const TRADE_NOUN = '(?:trades?|transactions?|purchases?|sales?|buys|sells|bets|moves|investments)';

/** Committees set against a member's own trades: "his committees oversee", "the committee she sits on". */
const COMMITTEE_TIE =
  /\b(?:his|her|their)\s+(?:own\s+)?(?:committees?|panels?|subcommittees?)\b|\b(?:committees?|panels?)\s+(?:he|she|they)\s+(?:sits?|sat|serves?|served|chairs?|chaired|leads?|led)\b/i;

/** "their PepsiCo position", "his stake in Intel", "her Apple holdings" -> the company. */
function heldSubject(subject: string): string {
  return subject
    .replace(
      /^(?:their|his|her|its)\s+(?:(?:entire|whole|remaining)\s+)?(?:(?:positions?|stakes?|holdings?|shares)\s+(?:in|of)\s+)?/i,
      '',
    )
    .replace(
      /\s+(?:positions?|stakes?|holdings?)(?=\s+(?:in|during|from|since|last|this|over)\b|[?.!]*$)/i,
      '',
    );
}

/** Courtesies around a question ("please", "thanks") that are no part of what it asks. */
const COURTESY_BEFORE = /^(?:please|pls|hey|hi)[,\s]+/i;
const COURTESY_AFTER = /[,\s]+(?:please|pls|thanks|thank you)[.!?]*$/i;
/**
 * Words that lead into the question itself: "I'm looking for lawmakers who …", "can you tell me
 * which reps …", "I'd like to know whether any senators …". "Tell me about X" (a dossier) and
 * "show me what X sold" keep their words: "tell me" goes only before who, which, whether, if.
 */
const LEAD_IN =
  /^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?=(?:tell|show|list|find|give|let)\b)|i(?:'m|’m|\s+am)\s+(?:looking for|trying to find|searching for|curious (?:about|whether|if))\s+|i(?:'d|’d|\s+would)?\s*(?:want|need|like)\s+to\s+(?:know|see|find out|find)\s+|do\s+you\s+know\s+|(?:tell|show)\s+me\s+(?=(?:who|which|whether|if)\b)|(?:whether|if)\s+(?=(?:any|anyone|anybody|the|senators?|members?)\b))/i;

/** The question without courtesies and lead-ins (each may stand before another). */
function coreOf(question: string): string {
  let text = question.trim().replace(COURTESY_AFTER, '');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(COURTESY_BEFORE, '').replace(LEAD_IN, '');
  }
  return text;
}

export function routeQuestion(question: string, today: Date): Intent {
  const text = coreOf(question);
  const window = windowOf(text, today);
  const direction = directionOf(text);
  // A forecast, or a judgement of a stock's worth ("is Nvidia overvalued?"): advice, not records.
  if (
    /\b(?:predict\w*|forecast\w*|price target|should I|will\b.*\bnext\b|going to (?:buy|sell)|(?:over|under)[- ]?valued|worth (?:buying|it)|a good (?:buy|investment))/i.test(
      text,
    )
  )
    return { kind: 'beyond', text };
  // A member's wealth or pay: no periodic transaction report states it.
  if (/\b(?:net worth|how (?:rich|wealthy)|wealth|salary)\b/i.test(text))
    return { kind: 'beyond', text, about: 'wealth' };
  if (
    new RegExp(
      `\\b${LARGEST}\\s+(?:(?:\\d{1,3}|three|five|ten|twenty|fifty|hundred)\\s+)?(?:(?:senate|house|congressional)\\s+)?(?:stock\\s+)?${TRADE_NOUN}\\b`,
      'i',
    ).test(text) ||
    // "which house sales in 2021 were the biggest?" (not one member's: "which of X's trades …")
    (new RegExp(`\\b${TRADE_NOUN}\\b.*\\b(?:were|are|was|is)\\s+(?:the\\s+)?${LARGEST}[?.!]*$`, 'i').test(
      text,
    ) &&
      !/['’]s\s+(?:stock\s+)?(?:trades|transactions|purchases|sales|buys|sells)\b/i.test(text))
  )
    return { kind: 'biggest_trades', window, direction };
  const before =
    /\b(?:before|ahead of|prior to)\b.*\b(?:votes?|bills?|legislation|hearings?|committee actions?)\b/i.exec(
      text,
    );
  if (before) {
    const subject = new RegExp(
      `\\b(?:${BUY_PHRASE}|${SELL_PHRASE}|bought|sold|traded|buy|sell|trade|trading|buying|selling)\\s+(.+?)\\s+(?:stocks?|shares|companies)?\\s*(?:(?:right|just|shortly|immediately|days|weeks|soon)\\s+)?(?:before|ahead of|prior to)\\b`,
      'i',
    ).exec(text)?.[1];
    const topic =
      /\b(?:before|ahead of|prior to)\s+(?:the\s+|any\s+)?(.+?)\s+(?:votes?|bills?|legislation|hearings?|committee actions?)\b/i
        .exec(text)?.[1]
        ?.toLowerCase();
    return { kind: 'timing', subject: subject ?? text, ...(topic ? { topic } : {}), window };
  }
  const dossier =
    /\b(?:dossier|everything (?:about|on)|what (?:does|do) (?:congress|lawmakers|members(?: of congress)?) (?:hold|own) (?:in|of)|tell me about|what(?:'s|’s| is) the story (?:with|on|behind)|profile (?:of|for)|what do (?:you|we) (?:know|have) (?:about|on)|info(?:rmation)? (?:about|on)|(?:a\s+)?(?:company\s+)?(?:rundown|lowdown|overview|summary|background|briefing|fact\s*sheet|one[- ]pager|primer|backgrounder|deep[- ]dive|breakdown|(?:the\s+)?(?:full|whole|big)\s+picture)\s+(?:on|of|about|for)|^\s*summari[sz]e|^\s*(?:break\s*down|analy[sz]e|walk me through)(?:\s+(?:the\s+)?(?:congressional|congress['’]?s?|members['’]?|lawmakers['’]?)?\s*(?:trading|trades|activity|exposure|interest)\s+(?:in|of|on|around|to))?)\s+(?:the\s+company\s+)?(.+?)[?.!]*$/i.exec(
      text,
    ) ??
    // "company profile: Disney"
    /^\s*(?:company\s+)?(?:profile|dossier|overview|summary|snapshot|rundown|fact\s*sheet|one[- ]pager|primer|backgrounder)\s*:\s*(.+?)[?.!]*$/i.exec(
      text,
    ) ??
    // "Qualcomm at a glance", "Intel in a nutshell"
    /^\s*((?:\$?[\w.&'’-]+\s+){0,2}?\$?[\w.&'’-]+)\s+(?:at a glance|in a nutshell|in brief)[?.!]*$/i.exec(
      text,
    ) ??
    // "Tesla overview": a short name and the word alone.
    /^\s*((?:\$?[\w.&'’-]+\s+){0,2}?\$?[\w.&'’-]+)\s+(?:(?:company|corporate|stock)\s+)?(?:dossier|overview|rundown|summary|snapshot|profile|fact\s*sheet|one[- ]pager|primer|backgrounder)[?.!]*$/i.exec(
      text,
    );
  // "Pfizer and Congress": the company, not the other party of the question.
  const company = dossier?.[1]?.replace(
    new RegExp(`\\s+(?:and|in|with)\\s+(?:the\\s+)?(?:congress|${PEOPLE})\\s*$`, 'i'),
    '',
  );
  if (company && !/\b(?:senator|representative|rep\.?|congress\w*|market|trad\w*|portfolio)\b/i.test(company))
    return { kind: 'dossier', company: company.trim() };
  // Insiders, 13D/G, lobbying, contracts, bills, votes, campaign finance: their record tools.
  const onRecord = recordIntent(text);
  if (onRecord) return { kind: 'record', intent: onRecord };

  if (
    /\b(?:top|most[- ]traded|most popular|hottest|most active)\b.*\b(?:tickers?|stocks?|companies|symbols?)\b/i.test(
      text,
    )
  ) {
    return { kind: 'top_tickers', window };
  }

  // "Patty Murray's 2017 stock trades", "pull up X's latest transactions": a period or an order
  // may stand between the name and what is asked.
  const possessive = new RegExp(
    `^(?:what (?:is|are)|${ASK}|(?:which|what) of)?\\s*(.+?)['’]s\\s+(?:(?:(?:19|20)\\d{2}|q[1-4]|recent|latest|most recent|newest|all|every)\\s+)?(portfolio|holdings|positions|conflicts?(?: of interest)?|(?:stock\\s+)?(?:trades|transactions|purchases|sales|buys|sells|buying|selling|trading|moves|activity|bets|investments))\\b`,
    'i',
  ).exec(text);
  const ofMember =
    /\b(portfolio|holdings|positions|conflicts?(?: of interest)?)\s+(?:of|for|by)\s+(?!interest\b)(.+)$/i.exec(
      text,
    ) ?? /\bwhat does\s+(.+?)\s+(hold|own)\b/i.exec(text);
  // "does Kevin Hern have conflicts of interest?", "Marjorie Taylor Greene conflicts of interest"
  const conflictsOf =
    /^\s*(?:does|do|has|did)\s+(.+?)\s+(?:have|has|had)\s+(?:any\s+)?conflicts?\b/i.exec(text) ??
    // "check Dan Crenshaw for conflicts", "screen Nancy Pelosi for possible conflicts of interest"
    /^\s*(?:please\s+)?(?:check|screen|audit|review|vet|look at|examine|scan)\s+(.+?)\s+for\s+(?:any\s+|possible\s+|potential\s+)?conflicts?\b/i.exec(
      text,
    ) ??
    // "Marjorie Taylor Greene conflicts", "Westerman conflict of interest?"
    /^\s*(?:[Ss]how(?: me)?\s+|[Ll]ist\s+)?(?!(?:[Aa]ny|[Ww]hat|[Ww]hich|[Pp]otential|[Pp]ossible|[Nn]o|[Aa]re|[Ii]s|[Tt]he|[Mm]y|[Tt]heir)\b)((?:[A-Z][\w.'’-]*\s+){0,3}[A-Z][\w.'’-]*)\s+[Cc]onflicts?(?: of interest)?[?.!]*$/.exec(
      text,
    ) ??
    // "what conflicts does Virginia Foxx have?"
    /^\s*what\s+(?:potential\s+|possible\s+)?conflicts?(?: of interest)?\s+(?:does|do|did)\s+(.+?)\s+(?:have|has)\b/i.exec(
      text,
    ) ??
    // "conflict check on Kathy Manning"
    /^\s*conflicts?(?: of interest)?\s+(?:check|screen|screening|review|report)\s+(?:on|for|of)\s+(.+?)[?.!]*$/i.exec(
      text,
    ) ??
    // "potential conflicts of interest: Michael McCaul"
    /^\s*(?:any\s+|possible\s+|potential\s+)?conflicts?(?: of interest)?\s*[:–—-]\s*(.+?)[?.!]*$/i.exec(
      text,
    ) ??
    // "Julie Johnson — any conflicts?", "Rick Scott: conflicts of interest"
    /^\s*(.+?)\s*[:–—-]+\s*(?:any\s+|possible\s+|potential\s+)?conflicts?(?: of interest)?[?.!]*$/i.exec(
      text,
    );
  if (!possessive && !ofMember && conflictsOf?.[1])
    return { kind: 'conflicts', member: cleanName(conflictsOf[1]) };
  // "does Jerry Moran trade in industries his committees oversee?", "has X bought stocks her
  // committee regulates?": trades set against the member's committees are the conflicts check.
  if (COMMITTEE_TIE.test(text)) {
    const member =
      new RegExp(
        `^\\s*(?:does|do|did|has|have|is|was)\\s+(.+?)\\s+(?:${TRADE_VERB}|invest\\w*)\\b`,
        'i',
      ).exec(text)?.[1] ?? possessive?.[1];
    if (member) return { kind: 'conflicts', member: cleanName(member) };
  }
  const subject = possessive
    ? { word: possessive[2] ?? '', member: possessive[1] ?? '' }
    : ofMember
      ? /hold|own/i.test(ofMember[2] ?? '')
        ? { word: 'portfolio', member: ofMember[1] ?? '' }
        : { word: ofMember[1] ?? '', member: ofMember[2] ?? '' }
      : undefined;
  if (subject) {
    const member = cleanName(subject.member);
    if (/conflict/i.test(subject.word) || /\bconflict(?:s|ed)?\b/i.test(text))
      return { kind: 'conflicts', member };
    if (/portfolio|holding|position/i.test(subject.word)) return { kind: 'portfolio', member };
    return { kind: 'member_trades', member, window, direction };
  }

  if (
    new RegExp(
      `^\\s*${ASK_FOR_PEOPLE}(?:who|(?:has|have|did)\\s+any(?:one|body)|(?:which|what|(?:did|were|are|have|has|is|was)?\\s*any)\\s+${PEOPLE}|${PEOPLE}\\s+(?:of congress\\s+|in congress\\s+)?(?:who|that)|${PEOPLE}\\s+(?:in congress\\s+)?(?=${TRADE_VERB}\\b)(?!.*\\b(?:before|prior to|ahead of)\\b))\\b.*\\b${TRADE_VERB}\\b`,
      'i',
    ).test(text)
  ) {
    const ticker = tickerIn(text);
    if (ticker) return { kind: 'ticker_trades', ticker, window, direction };
    const company = new RegExp(`\\b${TRADE_VERB}\\s+(?:shares of\\s+|stock in\\s+)?(.+)$`, 'i').exec(text);
    if (company?.[1])
      return { kind: 'ticker_trades', ticker: cleanName(heldSubject(company[1])), window, direction };
  }

  // "congressional buyers of Salesforce in 2021", "senate sellers of Boeing stock"
  const buyersOf =
    /\b(?:buyers|sellers|purchasers|traders)\s+of\s+(.+?)(?:\s+(?:in|during|from|since|between|last|this|over)\b.*)?[?.!]*$/i.exec(
      text,
    );
  if (buyersOf?.[1]) return { kind: 'ticker_trades', ticker: buyersOf[1].trim(), window, direction };
  // "UnitedHealth buyers in the House, 2021", "Tesla sellers in Congress": the subject first.
  const subjectBuyers = new RegExp(
    `^\\s*(?!(?:who|which|what|top|biggest|largest|the|senate|house|congress\\w*|${PEOPLE})\\b)((?:\\$?[\\w.&'’-]+\\s+){0,3}?\\$?[\\w.&'’-]+)\\s+(?:stock\\s+|share\\s+)?(?:buyers|sellers|purchasers|traders)\\b(?:\\s+(?:in|among|from|of)\\s+(?:the\\s+)?(?:congress|house|senate|${PEOPLE})\\b)?\\s*(?:[,:–—-]\\s*)?(?:(?:in|during|from|since|between|last|this|over)\\b.*|(?:19|20)\\d{2}\\b.*)?[?.!]*$`,
    'i',
  ).exec(text);
  if (subjectBuyers?.[1])
    return { kind: 'ticker_trades', ticker: subjectBuyers[1].trim(), window, direction };
  // "semiconductor stocks bought by members in 2021": the subject first, the people after "by".
  const byPeople = new RegExp(
    `^\\s*(?:(?:which|what)\\s+)?(.+?\\s+(?:stocks?|shares|companies))\\s+(?:(?:were|was|being)\\s+)?${TRADE_VERB}\\s+by\\s+(?:any\\s+)?${PEOPLE}\\b`,
    'i',
  ).exec(text);
  if (byPeople?.[1]) return { kind: 'ticker_trades', ticker: byPeople[1].trim(), window, direction };
  // "Visa stock trades by members of Congress in 2020"
  const tradesByPeople = new RegExp(
    `^\\s*(?:(?:which|what)\\s+)?(?!(?:show|list|give|get|find|all|the|any)\\b)(.+?)\\s+(?:stocks?\\s+|shares\\s+)?(?:trades|transactions|purchases|sales|buys|sells)\\s+(?:made\\s+)?by\\s+(?:any\\s+)?${PEOPLE}\\b`,
    'i',
  ).exec(text);
  if (tradesByPeople?.[1])
    return { kind: 'ticker_trades', ticker: tradesByPeople[1].trim(), window, direction };
  // "show me trades by senators in 2020": no subject, every stock those people traded.
  if (
    new RegExp(
      `\\b(?:trades?|transactions?)\\s+(?:(?:made|disclosed|filed|reported)\\s+)?by\\s+(?:all\\s+|any\\s+)?${PEOPLE}\\b`,
      'i',
    ).test(text)
  )
    return { kind: 'ticker_trades', ticker: 'stocks', window, direction };

  const memberTrades =
    /\b(?:what|which)(?:\s+(?:stocks|shares|companies|securities))?\s+(?:did|has|have)\s+(.+?)\s+(?:been\s+(?:trading|buying|selling|purchasing)|trade|traded|buy|bought|sell|sold|disclose|disclosed)\b/i.exec(
      text,
    ) ??
    // "show me what Ro Khanna sold in 2021"
    /^\s*(?:show(?: me)?|tell me|list)\s+what\s+(.+?)\s+(?:has\s+|have\s+)?(?:traded|bought|sold|purchased|disclosed)\b/i.exec(
      text,
    ) ??
    // "list every stock Susan Collins bought in 2019"
    /^\s*(?:list|show(?: me)?|give me|name)\s+(?:every|all|each|the)?\s*(?:stocks?|shares|companies|securities)\s+(?:that\s+)?(.+?)\s+(?:has\s+|have\s+)?(?:trade|traded|buy|bought|sell|sold|purchased|disclosed)\b/i.exec(
      text,
    ) ??
    /\b(?:trades?|transactions?)\s+(?:(?:made|disclosed|filed|reported)\s+)?(?:of|by|from)\s+(?!(?:19|20)\d{2}\b)(.+)$/i.exec(
      text,
    ) ??
    // "any stock sales by Francis Rooney in 2020?" ("purchases of Apple" is no member's)
    /\b(?:sales|purchases|buys|sells)\s+(?:(?:made|disclosed|filed|reported)\s+)?(?:by|from)\s+(?!(?:19|20)\d{2}\b)(.+)$/i.exec(
      text,
    ) ??
    // "did Peter Meijer buy any stocks in 2021?"
    /^\s*did\s+(.+?)\s+(?:buy|sell|trade|purchase|dump|unload)\b/i.exec(text) ??
    /^(.+?)\s+(?:(?:stock\s+)?(?:trades|transactions|purchases|sales|buys|sells))\b/i.exec(text);
  if (memberTrades?.[1]) {
    const member = cleanName(memberTrades[1]);
    // "what have senators been buying?": people, not one member; every stock they traded.
    if (new RegExp(`^(?:the\\s+|all\\s+|any\\s+)?(?:(?:senate|house)\\s+)?${PEOPLE}$`, 'i').test(member))
      return { kind: 'ticker_trades', ticker: 'stocks', window, direction };
    return { kind: 'member_trades', member, window, direction };
  }

  const ticker = tickerIn(text);
  if (ticker && /\btrade|bought|sold|buy|sell\b/i.test(text))
    return { kind: 'ticker_trades', ticker, window, direction };
  return { kind: 'search', text };
}
