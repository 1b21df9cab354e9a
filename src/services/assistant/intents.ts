// The deterministic intent router: the common questions, recognised without a model. Pure: the
// question and today's date in, an intent out.

import { MONTH_NAMES } from '../../domain/dates.js';
import { PERIOD_TAIL, type Window, windowOf } from './periods.js';
import { type RecordIntent, recordIntent } from './record-intents.js';
import { asksLargest, canonicalQuestion, namesIn, trimName } from './slots.js';
import {
  ASKS_ABOUT_TRADING,
  BUY_PHRASE,
  COMMITTEE_TIE,
  CONFLICT_CUE,
  DOSSIER_NOUN,
  LARGEST,
  NOISE,
  NOT_TICKERS,
  PEOPLE,
  SELL_PHRASE,
  TITLE_WORDS,
  TRADE_NOUN,
  TRADE_VERB,
} from './words.js';

export { type Window, windowOf } from './periods.js';

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
  | { kind: 'beyond'; text: string; about?: 'wealth' | 'rules' }
  | { kind: 'search'; text: string };

/** Words that ask to be shown something ("pull up X's trades"), no part of what is asked about. */
const ASK =
  '(?:list|show(?:\\s+me)?|give\\s+me|get(?:\\s+me)?|find|pull\\s+up|bring\\s+up|look\\s+up|fetch|display)';

// Words around a name that are not part of it.
const TRAILING =
  /\s+(?:(?:trade|traded|trading|buy|bought|sell|sold|hold|holds|own|owns|do|did|make|made|disclose|disclosed)\b.*|(?:last|this|past|in|during|between|from|through|throughout|over|within|for|so\s+far|ytd|recently|lately|before|after|ahead|prior|since|until)\b.*|(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\.?\s+(?:19|20)\d{2}\b.*|q[1-4]\s+(?:19|20)\d{2}\b.*)$/i;

function cleanName(raw: string): string {
  return (
    raw
      .replace(/[?.!]+$/g, '')
      .replace(TRAILING, '')
      // "Kenny Marchant: 2020" (the period after a colon or comma)
      .replace(/(?:\s*[:,;–—]\s*|\s+)(?:(?:19|20)\d{2}\s*)?$/, '')
      .replace(new RegExp(`^${ASK}\\s+(?:all\\s+|the\\s+)?`, 'i'), '')
      // "are any of Rick Allen('s trades)", "were Nancy Pelosi('s purchases conflicted)"
      .replace(/^(?:are|were|is|was|do|does|did|has|have|had)\s+/i, '')
      .replace(/^(?:(?:which|what|how many)\s+)?(?:any|all|some|none|each|one|many|most)\s+of\s+/i, '')
      // "Check Rep. Dan Crenshaw('s trades for conflicts)": a request, then a title.
      .replace(
        /^(?:check|screen|audit|review|vet|examine|scan|investigate|look\s+(?:at|into)|run|walk|brief)\s+(?:me\s+)?(?:through|on)?\s*/i,
        '',
      )
      .replace(new RegExp(`^${TITLE_WORDS}\\s+`, 'i'), '')
      .replace(/^member\s+/i, '')
      .replace(/'s$|’s$/i, '')
      .trim()
      .replace(/^.*$/, trimName)
  );
}

/** A request before the people asked for: "list the members that sold …", "names of senators who …". */
const ASK_FOR_PEOPLE = `(?:(?:${ASK}|name|tell\\s+me|(?:the\\s+)?names?\\s+of)\\s+(?:all\\s+)?(?:the\\s+|every\\s+)?(?=${PEOPLE}\\b))?`;

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
const COURTESY_AFTER = /[,\s]+(?:please|pls|thanks|thank you|for me|for us)[.!?]*$/i;
/**
 * Words that lead into the question itself: "I'm looking for lawmakers who …", "can you tell me
 * which reps …", "I'd like to know whether any senators …". "Tell me about X" (a dossier) and
 * "show me what X sold" keep their words: "tell me" goes only before who, which, whether, if.
 */
const LEAD_IN =
  /^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?=(?:tell|show|list|find|give|let|summari[sz]e|break|walk|pull|name|check|screen|look)\b)|i(?:'m|’m|\s+am)\s+(?:looking for|trying to find|searching for|curious (?:about|whether|if))\s+|i(?:'d|’d|\s+would)?\s*(?:want|need|like)\s+to\s+(?:know|see|find out|find)\s+|do\s+you\s+know\s+|(?:tell|show)\s+me\s+(?=(?:who|which|whether|if)\b)|(?:whether|if)\s+(?=(?:any|anyone|anybody|the|senators?|members?)\b))/i;

/** The question without courtesies and lead-ins (each may stand before another). */
function coreOf(question: string): string {
  let text = canonicalQuestion(question).replace(COURTESY_AFTER, '');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(COURTESY_BEFORE, '').replace(LEAD_IN, '');
  }
  return text;
}

/**
 * A subject of "who bought …" without the words about people and periods that stand after it
 * ("AMD among members, 2021" is AMD).
 */
function subjectOnly(subject: string): string {
  return (
    subject
      .replace(
        new RegExp(
          `(?:^|\\s+)(?:among|by|from|in|on|of|across)\\s+(?:the\\s+)?(?:congress|capitol hill|the hill|house|senate|${PEOPLE})\\b.*$`,
          'i',
        ),
        '',
      )
      .replace(PERIOD_TAIL, '')
      .replace(/\s*[,;:–—-]?\s*(?:(?:in|during|from|since|for)\s+)?(?:19|20)\d{2}\b.*$/i, '')
      .replace(/[?.!,;:]+$/, '')
      .replace(/^(?:shares|stocks?|stakes?|positions?)\s+(?:in|of)\s+/i, '')
      .replace(/(?<=\S)\s+stock$/i, '')
      .trim()
      // Only the people ("by senators"): no subject here.
      .replace(new RegExp(`^(?:by\\s+|among\\s+)?(?:the\\s+)?${PEOPLE}$`, 'i'), '')
      // "$xom": the symbol.
      .replace(/^\$([A-Za-z]{1,5}(?:\.[A-Za-z])?)$/, (_all, symbol: string) => symbol.toUpperCase())
  );
}

/** Words no member's name holds: a "name" with one of them is the rest of the question. */
const NOT_IN_NAMES =
  /\b(?:who|which|what|when|where|how|why|any|anyone|anybody|conflicts?|interest|trades?|with|the|stocks?|senate|house|congress\w*|he|she|they|him|her|them|their|his|its|members)\b|['’]s\b|\ws['’](?=\s|$)/i;

/**
 * The sentence forms first; when none matched, or the name one of them read is not a name, the
 * slots read wherever they stand.
 */
export function routeQuestion(question: string, today: Date): Intent {
  const intent = shapeOf(question, today);
  if (intent.kind === 'ticker_trades') {
    // "Microsoft purchases by senators — who made them?": nothing after the verb but the people.
    const ticker = subjectOnly(intent.ticker) || residue(coreOf(question)) || intent.ticker;
    return { ...intent, ticker };
  }
  if (
    (intent.kind === 'member_trades' || intent.kind === 'conflicts' || intent.kind === 'portfolio') &&
    (NOT_IN_NAMES.test(intent.member) ||
      intent.member.split(/\s+/).length > 4 ||
      (!/[A-Z]/.test(intent.member) && /[A-Z]/.test(question)))
  ) {
    const text = coreOf(question);
    const name = namesIn(text)[0];
    return name
      ? { ...intent, member: cleanName(name) }
      : (slotIntent(text, today) ?? { kind: 'search', text });
  }
  if (intent.kind === 'search') return slotIntent(intent.text, today) ?? intent;
  return intent;
}

/**
 * The subject a question names when no form matched: the longest run of words that are not
 * noise ("Bank of America" keeps its "of" between two such words), or a ticker written as one.
 */
function residue(text: string): string | undefined {
  // A dash or a dot between words is no word ("Senate Republicans - who sold Boeing").
  const words = text.split(/[^\w&.'’$-]+/).filter((word) => /[\p{L}\d]/u.test(word));
  const runs: string[][] = [[]];
  for (const [i, word] of words.entries()) {
    const bare = word
      .toLowerCase()
      .replace(/['’]s?$/, '')
      .replace(/\.$/, '');
    const joiner =
      /^(?:of|&|and)$/.test(bare) &&
      (runs.at(-1)?.length ?? 0) > 0 &&
      !NOISE.has((words[i + 1] ?? 'the').toLowerCase());
    const noise =
      NOISE.has(bare) ||
      /^(?:19|20)\d{2}$/.test(bare) ||
      MONTHS.has(bare) ||
      new RegExp(`^(?:${TRADE_VERB}|${PEOPLE})$`, 'i').test(bare);
    // "insurance companies", "chip makers": the kind stays with the words before it (a concept).
    const kind = /^(?:stocks|companies|makers|names|shares)$/.test(bare) && (runs.at(-1)?.length ?? 0) > 0;
    if (joiner || kind || !noise) runs.at(-1)?.push(word.replace(/['’]s?$/, ''));
    if (kind || (noise && !joiner)) runs.push([]);
  }
  const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), []);
  return longest.length > 0 ? longest.join(' ') : undefined;
}

const MONTHS = new Set(MONTH_NAMES);

/** A question read by its slots alone: the cues of a shape, a member's name, the subject. */
function slotIntent(text: string, today: Date): Intent | undefined {
  // Trades before a date, not a vote: no shape of these reads it.
  if (/\b(?:before|prior to|ahead of)\b/i.test(text)) return undefined;
  const window = windowOf(text, today);
  const direction = directionOf(text);
  const name = namesIn(text)[0];
  if (name && CONFLICT_CUE.test(text)) return { kind: 'conflicts', member: cleanName(name) };
  // "nancy pelosi conflicts": typed without capitals, the words left are the name.
  const unwritten = !/[A-Z]/.test(text) && CONFLICT_CUE.test(text) ? residue(text) : undefined;
  if (unwritten && unwritten.split(/\s+/).length <= 3) return { kind: 'conflicts', member: unwritten };
  if (asksLargest(text)) return { kind: 'biggest_trades', window, direction };
  const trading = new RegExp(`\\b${TRADE_VERB}\\b|\\b${TRADE_NOUN}\\b`, 'i').test(text);
  const people = new RegExp(`\\b(?:who|whom|anyone|anybody|congressional|${PEOPLE})\\b`, 'i').test(text);
  const subject = tickerIn(text) ?? residue(text);
  // People and trading without a direction or a "who" ("is it legal for members to trade?") ask no list.
  // "reps with Apple trades": the people that have them is a "who".
  const who = new RegExp(`\\b(?:who|which|whom|anyone|anybody)\\b|\\b${PEOPLE}\\s+with\\b`, 'i');
  if (people && trading && subject && (direction || who.test(text)))
    return { kind: 'ticker_trades', ticker: subject, window, direction };
  if (name && trading) return { kind: 'member_trades', member: cleanName(name), window, direction };
  // "What has Sen. Tuberville been up to in the market?": a title says the name is a member's.
  if (name && ASKS_ABOUT_TRADING.test(text) && new RegExp(`${TITLE_WORDS}\\s+${name}`, 'i').test(text))
    return { kind: 'member_trades', member: cleanName(name), window, direction };
  // "Dwight Evans portfolio activity": a name and a member's words; the lookup says whose (search).
  if (
    name &&
    /\b(?:portfolio|holdings|moves|activity)\b/i.test(text) &&
    !/\b(?:congress\w*|members|lawmakers)\b/i.test(text)
  )
    return undefined;
  // A company is written with a capital or as a ticker ("should Congress ban trading?" names none).
  if (
    subject &&
    /^[A-Z$]/.test(subject) &&
    !direction &&
    /\b(?:exposure|activity|involvement|dealings|trading|interest|summar\w*|profile|overview|about|picture|story|rundown|brief\w*)\b/i.test(
      text,
    )
  )
    return { kind: 'dossier', company: subject };
  return undefined;
}

function shapeOf(question: string, today: Date): Intent {
  const text = coreOf(question);
  const window = windowOf(text, today);
  const direction = directionOf(text);
  // A forecast, or a judgement of a stock's worth ("is Nvidia overvalued?"): advice, not records.
  if (
    /\b(?:predict\w*|forecast\w*|price target|should I|will\b.*\bnext\b|going to (?:buy|sell)|(?:over|under)[- ]?valued|worth (?:buying|it)|\ban?\s+(?:good\s+|great\s+|strong\s+|smart\s+)?(?:buy|sell|investment)[?.!]*$|\b(?:good|great|bad|smart|safe)\s+(?:long[- ]term\s+|short[- ]term\s+)?(?:hold|buy|investment|bet|pick)\b)/i.test(
      text,
    )
  )
    return { kind: 'beyond', text };
  // A member's wealth or pay: no periodic transaction report states it.
  if (/\b(?:net worth|how (?:rich|wealthy)|wealth|salary)\b/i.test(text))
    return { kind: 'beyond', text, about: 'wealth' };
  if (
    asksLargest(text) ||
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
    /\b(?:before|ahead of|prior to)\b.*\b(?:votes?|voted|voting|bills?|legislation|hearings?|mark-?ups?|committee actions?)\b/i.exec(
      text,
    );
  if (before) {
    const subject = new RegExp(
      `\\b(?:${BUY_PHRASE}|${SELL_PHRASE}|bought|sold|traded|buy|sell|trade|trading|buying|selling)\\s+(.+?)\\s+(?:stocks?|shares|companies)?\\s*(?:(?:right|just|shortly|immediately|days|weeks|soon)\\s+)?(?:before|ahead of|prior to)\\b`,
      'i',
    ).exec(text)?.[1];
    // "before energy votes", or the topic after the votes: "before votes on financial bills".
    const topic =
      (/\b(?:before|ahead of|prior to)\s+(?:the\s+|any\s+)?(?:votes?|bills?|legislation|hearings?|mark-?ups?|committee\s+actions?)\s+(?:on|about|over|concerning|touching|related\s+to)\s+(?:the\s+|any\s+)?(.+?)(?:\s+(?:bills?|legislation|measures?|issues?|matters?))?(?=\s+(?:in|during|since|from|between)\s|\s*[?.!,;]|\s*$)/i.exec(
        text,
      ) ??
        /\b(?:before|ahead of|prior to)\s+(?:the\s+|any\s+|a\s+|an\s+)?(.+?)(?:\s+(?:committee|panel|subcommittee))?\s+(?:votes?|voted|voting|bills?|legislation|hearings?|mark-?ups?|committee actions?)\b/i.exec(
          text,
        ))?.[1]?.toLowerCase();
    return { kind: 'timing', subject: subject ?? text, ...(topic ? { topic } : {}), window };
  }
  const dossier =
    new RegExp(
      `\\b(?:dossier|everything (?:about|on)|what (?:does|do) (?:congress|lawmakers|members(?: of congress)?) (?:hold|own) (?:in|of)|tell me about|what(?:'s|’s| is) the story (?:with|on|behind)|profile (?:of|for)|what do (?:you|we) (?:know|have) (?:about|on)|info(?:rmation)? (?:about|on)|(?:a\\s+|an\\s+|the\\s+)?(?:company\\s+|quick\\s+|short\\s+)?${DOSSIER_NOUN}\\s+(?:on|of|about|for)|^\\s*summari[sz]e|^\\s*(?:break\\s*down|analy[sz]e|walk me through)(?:\\s+(?:the\\s+)?(?:congressional|congress['’]?s?|members['’]?|lawmakers['’]?)?\\s*(?:trading|trades|activity|exposure|interest)\\s+(?:in|of|on|around|to))?)\\s+(?:the\\s+company\\s+)?(.+?)[?.!]*$`,
      'i',
    ).exec(text) ??
    // "company profile: Disney"
    /^\s*(?:company\s+)?(?:profile|dossier|overview|summary|snapshot|rundown|fact\s*sheet|one[- ]pager|primer|backgrounder)\s*:\s*(.+?)[?.!]*$/i.exec(
      text,
    ) ??
    // "Boeing - what do you have?", "Pfizer: what do we know?"
    /^\s*((?:\$?[\w.&'’-]+\s+){0,3}?\$?[\w.&'’-]+)\s*[:–—-]+\s*what\s+(?:do|does|did|can)\s+(?:you|we|the\s+records?)\s+(?:have|know|show|say|tell\s+me)(?:\s+(?:on|about)\s+(?:it|them|this))?[?.!]*$/i.exec(
      text,
    ) ??
    // "Qualcomm at a glance", "Intel in a nutshell"
    /^\s*((?:\$?[\w.&'’-]+\s+){0,2}?\$?[\w.&'’-]+)\s+(?:at a glance|in a nutshell|in brief)[?.!]*$/i.exec(
      text,
    ) ??
    // "Tesla overview": a short name and the word alone.
    new RegExp(
      `^\\s*((?:\\$?[\\w.&'’-]+\\s+){0,2}?\\$?[\\w.&'’-]+)(?:\\s*[:–—-]\\s*|\\s+)(?:the\\s+)?(?:(?:congressional|congress(?:['’]s)?|lawmakers['’]?|capitol\\s+hill|company|corporate|stock)\\s+)?(?:${DOSSIER_NOUN}|angle|exposure)[?.!]*$`,
      'i',
    ).exec(text) ??
    // "what has Congress been doing with Caterpillar stock?": the people's dealings in a company.
    (directionOf(text) === undefined && !/\b(?:19|20)\d{2}\b/.test(text)
      ? /\b(?:congress|lawmakers|legislators|politicians|members(?:\s+of\s+congress)?)\b.*?\b(?:doing|done|up\s+to)\s+(?:with|in)\s+(.+?)[?.!]*$/i.exec(
          text,
        )
      : null);
  // "Pfizer and Congress": the company, not the other party of the question.
  const company = dossier?.[1]
    ?.replace(new RegExp(`\\s+(?:and|in|with)\\s+(?:the\\s+)?(?:congress|${PEOPLE})\\s*$`, 'i'), '')
    .replace(/\s+(?:stock|shares|equity)$/i, '');
  if (
    company &&
    !/\b(?:senator|representative|rep\.?|congress\w*|market|trad\w*|portfolio)\b/i.test(company) &&
    // "walk me through Josh Gottheimer's buys": one member's trades, not a company.
    !new RegExp(`['’]s\\s+(?:[\\w-]+\\s+)?${TRADE_NOUN}\\b`, 'i').test(company)
  )
    return { kind: 'dossier', company: company.trim() };
  // Insiders, 13D/G, lobbying, contracts, bills, votes, campaign finance: their record tools.
  // The rules themselves ("explain insider trading rules for Congress"): no record answers them.
  if (
    /\b(?:explain|how\s+do(?:es)?|what\s+(?:are|is)\s+the|is\s+it)\b.*\b(?:rules?|laws?|legal|illegal|allowed|permitted|regulations?)\b/i.test(
      text,
    )
  )
    return { kind: 'beyond', text, about: 'rules' };
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
    `^(?:what (?:is|are)|${ASK}|(?:which|what) of)?\\s*(.+?)['’]s\\s+(?:(?:(?:19|20)\\d{2}|q[1-4]|recent|latest|most recent|newest|all|every|potential|possible|apparent|alleged|any|current|open|present)\\s+)?(portfolio|holdings|positions|conflicts?(?: of interest)?|(?:stock\\s+)?(?:trades|transactions|purchases|sales|buys|sells|buying|selling|trading|moves|activity|bets|investments))\\b`,
    'i',
  ).exec(text);
  const ofMember =
    /\b(portfolio|holdings|positions|conflicts?(?: of interest)?)\s+(?:of|for|by)\s+(?!interest\b)(.+)$/i.exec(
      text,
    ) ??
    /\bwhat\s+(?:stocks?\s+|shares\s+|companies\s+|securities\s+)?does\s+(.+?)\s+(?:currently\s+|still\s+)?(hold|own)\b/i.exec(
      text,
    );
  // "does Kevin Hern have conflicts of interest?", "Marjorie Taylor Greene conflicts of interest"
  const conflictsOf =
    /^\s*(?:does|do|has|did)\s+(.+?)\s+(?:have|has|had|got|gotten)\s+(?:any\s+)?conflicts?\b/i.exec(text) ??
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
  // "Scott Franklin: conflict flags?": a conflict asked about in other words, of a named member.
  const named = namesIn(text)[0];
  if (
    !possessive &&
    !ofMember &&
    named &&
    CONFLICT_CUE.test(text) &&
    !new RegExp(`\\b${PEOPLE}\\b`, 'i').test(text)
  )
    return { kind: 'conflicts', member: cleanName(named) };
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
      `^\\s*${ASK_FOR_PEOPLE}(?:who(?:se)?|(?:(?:has|have|did)\\s+)?any(?:one|body)|(?:which|what|(?:did|were|are|have|has|is|was)?\\s*any)\\s+${PEOPLE}|${PEOPLE}\\s+(?:of congress\\s+|in congress\\s+)?(?:who|that)|${PEOPLE}\\s+(?:in congress\\s+)?(?=${TRADE_VERB}\\b)(?!.*\\b(?:before|prior to|ahead of)\\b))\\b.*\\b${TRADE_VERB}\\b`,
      'i',
    ).test(text)
  ) {
    const ticker = tickerIn(text);
    if (ticker) return { kind: 'ticker_trades', ticker, window, direction };
    const company = new RegExp(
      `\\b${TRADE_VERB}\\s+(?:(?:shares (?:of|in)|stocks? (?:of|in)|stakes? in)\\s+(?!(?:19|20)\\d{2}\\b|(?:${MONTH_NAMES.join('|')})\\b|the\\s))?(.+)$`,
      'i',
    ).exec(text);
    if (company?.[1])
      return { kind: 'ticker_trades', ticker: cleanName(heldSubject(company[1])), window, direction };
  }

  // "congressional buyers of Salesforce in 2021", "senate sellers of Boeing stock"
  const buyersOf =
    /\b(?:(?:buyers|sellers|purchasers|traders)\s+of|(?:senate|house|congressional|congress['’]?s?)\s+(?:buys|sells|sales|purchases|trades|transactions)\s+(?:of|in))\s+(.+?)(?:\s*,?\s+(?:in|during|from|since|between|last|this|over)\b.*)?[?.!]*$/i.exec(
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
      return { kind: 'ticker_trades', ticker: residue(text) ?? 'stocks', window, direction };
    // "Republican senators, tech purchases": the people, then the subject of their trades.
    const peopleThen = new RegExp(
      `^(?:the\\s+|all\\s+|any\\s+)?(?:(?:senate|house)\\s+)?${PEOPLE}\\s*[,:–—-]\\s*(.+)$`,
      'i',
    ).exec(member);
    if (peopleThen?.[1]) return { kind: 'ticker_trades', ticker: peopleThen[1], window, direction };
    return { kind: 'member_trades', member, window, direction };
  }

  const ticker = tickerIn(text);
  if (ticker && /\btrade|bought|sold|buy|sell\b/i.test(text))
    return { kind: 'ticker_trades', ticker, window, direction };
  return { kind: 'search', text };
}
