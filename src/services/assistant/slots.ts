// How a question is read before its shape is picked, in three passes that do not depend on where a
// word stands: words of one meaning are brought to the one form the router reads (synonyms and
// inflections: "accumulating" is "buying", "acquisitions" are "purchases"); words that only frame
// the question are dropped ("I need … for a story"); and the cues of a shape (the largest trades,
// a conflict, a vote) and the slots (a member's name, the subject) are looked for anywhere in the
// sentence. Pure: text in, text or slots out. The words themselves are in words.ts.

import { conceptsIn } from '../../search/entities.js';
import {
  canonicalVerbs,
  LARGEST,
  MEMBER_INITIALS,
  NAME_OF_STATE,
  PARTY_STATE_TAG,
  PEOPLE_STATE,
  TRADE_NOUN,
  TRADE_VERB,
} from './words.js';

/** Synonyms and inflections, each rewritten to the word the router reads. */
const CANONICAL: readonly [RegExp, string][] = [
  // "w/ Apple", "w/o": the words written out.
  [/\bw\/o\b/gi, 'without'],
  [/\bw\/(?=\s*\S)/gi, 'with '],
  // Buying.
  [/\bacquisitions\b/gi, 'purchases'],
  [/\bacquisition\b/gi, 'purchase'],
  [/\b(?:purchased|acquired)\b/gi, 'bought'],
  [/\b(?:purchasing|acquiring)\b/gi, 'buying'],
  // "what did Dan Crenshaw purchase": the verb after a name.
  [/\b((?:did|does|do|will|to)\s+(?:[A-Z][\w.'’-]*\s+){1,4})(?:purchase|acquire)\b/g, '$1buy'],
  [
    /\b(?:increas|rais|boost|grow|grew|build|built|expand)\w*\s+(?:their|his|her|its)\s+(?:stakes?|positions?|holdings?)\s+in\b/gi,
    'bought',
  ],
  [
    /\b(?:took|taken|taking|take|takes|opened|opening|open|opens)\s+(?:a\s+|new\s+)*(?:positions?|stakes?)\s+in\b/gi,
    'bought',
  ],
  // "added Intel to their portfolio": bought Intel.
  [
    /\badd(?:ed|ing|s)?\s+(.+?)\s+to\s+(?:their|his|her|its|the(?:ir)?)\s+(?:portfolios?|holdings|positions?)\b/gi,
    'bought $1',
  ],
  // "make any stock purchases" / "made sales": the verb itself.
  [
    /\b(?:make|makes|making|do)\s+(?:any\s+|some\s+)?(?:stock\s+|share\s+)?(?:purchases|buys)\b/gi,
    'buy any stock',
  ],
  [/\b(?:made|did)\s+(?:any\s+|some\s+)?(?:stock\s+|share\s+)?(?:purchases|buys)\b/gi, 'bought stock'],
  [
    /\b(?:make|makes|making|do)\s+(?:any\s+|some\s+)?(?:stock\s+|share\s+)?(?:sales|sells)\b/gi,
    'sell any stock',
  ],
  [/\b(?:made|did)\s+(?:any\s+|some\s+)?(?:stock\s+|share\s+)?(?:sales|sells)\b/gi, 'sold stock'],
  // Selling.
  // "what positions did X open", "which stakes has X closed": the noun before its verb.
  [
    /\b(?:new\s+)?(?:positions|stakes)\s+((?:did|does|do|will)\s+(?:[A-Z][\w.'’-]*\s+){1,4})(?:open|start|take|initiate|establish)\b/g,
    'stocks $1buy',
  ],
  [
    /\b(?:new\s+)?(?:positions|stakes)\s+((?:has|have|had)\s+(?:[A-Z][\w.'’-]*\s+){1,4})(?:opened|started|taken|initiated|established)\b/g,
    'stocks $1bought',
  ],
  [
    /\b(?:positions|stakes)\s+((?:did|does|do|will)\s+(?:[A-Z][\w.'’-]*\s+){1,4})(?:close|exit|unwind)\b/g,
    'stocks $1sell',
  ],
  [
    /\b(?:positions|stakes)\s+((?:has|have|had)\s+(?:[A-Z][\w.'’-]*\s+){1,4})(?:closed|exited|unwound)\b/g,
    'stocks $1sold',
  ],
  // "bought the dip in Meta": bought Meta.
  [/\b(buy|buys|bought|buying)\s+the\s+dips?\s+(?:in|on)\b/gi, '$1'],
  // "Representative Ro Khanna", "Senator Warren": a title before a name is not the people asked
  // about ("trades by Representative X" is one member's), so it is written as the short title.
  [/\b(?:[Rr]epresentative|[Cc]ongress(?:wo)?man|[Cc]ongressperson)\s+(?=[A-Z][a-z])/g, 'Rep. '],
  [/\b[Ss]enator\s+(?=[A-Z][a-z])/g, 'Sen. '],
  // "whose portfolios added Broadcom", "adding Nvidia": a company added is bought.
  [/\badded(?=\s+\$?[A-Z])/g, 'bought'],
  [/\badding(?=\s+\$?[A-Z])/g, 'buying'],
  [/\badds(?=\s+\$?[A-Z])/g, 'buys'],
  // "Research Lockheed Martin", "dig into Pfizer": a company looked into.
  [/^\s*(?:[Rr]esearch|[Ll]ook\s+into|[Dd]ig\s+into|[Pp]rofile)\s+(?=\$?[A-Z])/g, 'tell me about '],
  // A company's dossier asked for in other words: "brief me on", "key facts about", "how exposed is
  // Congress to": one form the dossier reads.
  [
    /\b(?:brief\s+me\s+(?:on|about)|fill\s+me\s+in\s+(?:on|about)|(?:key|basic|the)\s+facts\s+(?:on|about|for)|everything\s+(?:(?:you|we)\s*(?:['’]ve|have|['’]d|know|got|can\s+find)(?:\s+got)?|there\s+is)\s+(?:on|about)|what\s+can\s+you\s+tell\s+me\s+(?:on|about)|what\s+(?:do|does)\s+the\s+(?:data|records?|filings)\s+(?:say|show)\s+(?:on|about)|(?:the\s+)?(?:skinny|scoop|intel|dirt)\s+on|catch\s+me\s+up\s+on|get\s+me\s+up\s+to\s+speed\s+on)\b/gi,
    'tell me about',
  ],
  [/\bwhat(?:['’]s|\s+is)\s+(?:the\s+deal|going\s+on|up|happening)\s+with\b/gi, 'tell me about'],
  [
    /\bhow\s+(?:exposed|invested|involved)\s+(?:is|are|was|were)\s+(?:congress|lawmakers|members(?:\s+of\s+congress)?|legislators|politicians)\s+(?:to|in|with)\b/gi,
    "Congress's exposure to",
  ],
  // "how has Congress traded Amex?", "how have lawmakers been playing Boeing": Congress's dealings
  // in one company, its dossier (the people as a whole, not "which senators").
  [
    /\bhow\s+(?:has|have|did|do|does|is|are|was|were)\s+(?:congress|capitol\s+hill|lawmakers|legislators|politicians|members(?:\s+of\s+congress)?)\s+(?:been\s+)?(?:trad(?:e|ed|ing)|invest(?:ed|ing)?|play(?:ed|ing)?|position(?:ed)?|bet(?:ting)?)\s+(?:in\s+|on\s+)?/gi,
    "Congress's exposure to ",
  ],
  // "rank 2021 House sales by size", "trades sorted by amount": the largest trades.
  [
    /\b(?:rank|ranked|ranking|sort|sorted|order|ordered)\s+(?:the\s+)?(.+?)\s+by\s+(?:size|amount|value|dollar\s+(?:value|amount)s?)\b/gi,
    'largest $1',
  ],
  // "in the weeks before the vote": before it.
  [
    /\b(?:in\s+the\s+)?(?:(?:few|several|couple\s+of|\d+)\s+)?(?:days|weeks|hours)\s+(before|ahead\s+of|prior\s+to)\b/gi,
    '$1',
  ],
  // "around", "in the run-up to", "leading up to" a vote or bill: before it.
  [
    /\b(?:around|in\s+the\s+run[- ]up\s+to|leading\s+up\s+to|in\s+advance\s+of|on\s+the\s+eve\s+of|preceding)\b(?=(?:\s+[\w'’-]+){0,4}?\s+(?:votes?|bills?|legislation|hearings?)\b)/gi,
    'ahead of',
  ],
];

/** Words that frame a question without being part of it: "for a story", "I need", "quick question:". */
const FRAMING: readonly RegExp[] = [
  /\bfor\s+(?:a|an|my|our|the|this)\s+(?:story|piece|article|report|column|newsletter|thread|investigation|project|segment|podcast|memo|brief)\b(?:\s+(?:on|about)\s+[^:,;?!]+?(?=\s*[:,;?!]|$))?/gi,
  /^\s*(?:(?:quick|random|simple|one\s+more|another|follow[- ]up|research|data)\s+(?:question|q)|question|q|fyi|so|ok(?:ay)?|hmm|well|also|and|curious|wondering)\s*[:,–—-]?\s+/i,
  /^\s*(?:(?:i(?:['’]m|\s+am)\s+)?(?:looking|searching|trying)\s+(?:for|to\s+find)|curious\s+(?:about|whether|if)|wondering\s+(?:about|whether|if))\s+(?=(?:any|the|which|who|whether|if|members?|senators?|representatives?|reps|lawmakers|legislators|politicians|congress\w*)\b)/i,
  /^\s*(?:i|we)\s+(?:need|want|would\s+like|['’]d\s+like|must\s+see|have\s+to\s+see)\s+(?:to\s+(?:see|know|get|find|pull|read|check)\s+)?/i,
  /^\s*help\s+me\s+(?:find|see|understand|check)\s+/i,
];

/** The question with synonyms brought to one form and framing words dropped. */
export function canonicalQuestion(question: string): string {
  let text = question;
  for (const pattern of FRAMING) text = text.replace(pattern, ' ');
  // The state of the people asked about is read from the question as asked (answer-parts.ts);
  // left here it would be taken for the subject ("Texas Republicans who bought Exxon").
  text = canonicalVerbs(text.replace(new RegExp(PEOPLE_STATE.source, 'g'), ' '));
  // "Steve Cohen (D-TN)", "Steve Cohen of Tennessee": the name without what follows it.
  text = memberInitials(text.replace(PARTY_STATE_TAG, ' ').replace(NAME_OF_STATE, ''));
  text = kindNames(text);
  for (const [pattern, replacement] of CANONICAL) text = text.replace(pattern, replacement);
  text = frontedSubject(
    text
      .replace(/\s+/g, ' ')
      .replace(/^[\s:,;–—-]+/, '')
      .trim(),
  );
  return text;
}

/** Initials a member is known by, unless they stand where a ticker does ("$MTG", "sold MTG"). */
function memberInitials(text: string): string {
  const initials = new RegExp(`(?<![$\\w])(${Object.keys(MEMBER_INITIALS).join('|')})(?![\\w&])`, 'g');
  const tickerBefore = new RegExp(`\\b(?:${TRADE_VERB}|of|in)\\s+$`, 'i');
  return text.replace(initials, (letters: string, _same: string, offset: number, whole: string) =>
    tickerBefore.test(whole.slice(0, offset)) ? letters : (MEMBER_INITIALS[letters] ?? letters),
  );
}

/**
 * "tech names", "energy plays": a kind of company with a word of the trade for stocks, read as its
 * stocks when the concepts know the kind ("the names of senators" is not one).
 */
function kindNames(text: string): string {
  return text.replace(
    /\b([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:names|plays|equities)\b/gi,
    (words: string, kind: string) => (conceptsIn(`${kind} stocks`).length > 0 ? `${kind} stocks` : words),
  );
}

/**
 * "health care stocks: which representatives were selling them in 2022?": the subject put first
 * and referred to by a pronoun is put back where the pronoun stands.
 */
function frontedSubject(text: string): string {
  const fronted =
    /^(?!(?:who|which|what|did|does|do|has|have|were|was|are|is|any)\b)([^:–—?]{2,60}?)\s*[:–—]\s*(.+?)\b(them|those|these|it|those shares|that stock|these shares)\b(.*)$/i.exec(
      text,
    );
  if (!fronted?.[1] || !fronted[2] || !/\b(?:who|which|any|did|were|was|has|have)\b/i.test(fronted[2]))
    return text;
  return `${fronted[2]}${fronted[1]}${fronted[4] ?? ''}`;
}

/**
 * The largest trades asked for wherever the words stand ("which trades … had the largest dollar
 * amounts?"), unless one member's trades are asked about ("X's biggest trades").
 */
export function asksLargest(text: string): boolean {
  return (
    (new RegExp(`\\b${LARGEST}\\b`, 'i').test(text) ||
      /\b(?:worth|cost|valued\s+at)\s+the\s+most\b|\bby\s+(?:size|amount|value|dollar\s+(?:value|amount))\b/i.test(
        text,
      )) &&
    new RegExp(`\\b${TRADE_NOUN}\\b`, 'i').test(text) &&
    // A member's possessive, not the chamber's ("Senate's top sales").
    !/(?<!\b(?:senate|house|congress))['’]s\s/i.test(text) &&
    // "which senators made the biggest trades" asks for people; "which representative purchases" for trades.
    !/\b(?:who|which\s+(?:members?|senators?|representatives?|lawmakers|politicians)\b(?!\s+(?:stock\s+)?(?:trades?|transactions?|purchases?|sales?|buys|sells)\b))/i.test(
      text,
    ) &&
    !/\b(?:tickers?|stocks|companies|symbols?)\b(?!\s+(?:trades?|transactions?|purchases?|sales?))/i.test(
      text,
    )
  );
}

/** Capitalised words that open a question or stand before a name, not part of it. */
const NOT_NAME_WORDS = new Set(
  'me us about summarize summarise describe explain recap catalog catalogue compile gather collect fetch grab display print share send get did does do has have is are was were what which who whose how when where why would should could can will show list give tell find get pull walk run brief the any all and or but in on for from by since during between after before about please hey hi senator sen rep representative congressman congresswoman congressperson chairman chairwoman chair ranking leader speaker whip member members house senate congress democratic republican democrats republicans gop dem dems'.split(
    ' ',
  ),
);

/** Runs of two to four capitalised words ("Zoe Lofgren", "Gilbert Ray Cisneros"), question words dropped. */
export function namesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*/g)) {
    const words = match[0].split(/\s+/);
    // "Sen. Tuberville", "senator Warner": a title makes one word a name.
    let titled = TITLE.test(text.slice(0, match.index));
    while (words.length > 0 && NOT_NAME_WORDS.has(bareWord(words[0] ?? ''))) {
      titled = TITLES.has(bareWord(words.shift() ?? ''));
    }
    if ((words.length >= 2 || (titled && words.length === 1)) && words.length <= 4)
      names.push(words.join(' ').replace(/['’]s$/, ''));
  }
  return names;
}

/** A word as NOT_NAME_WORDS holds it: lower case, without a contraction or a final full stop ("What's", "Sen."). */
const bareWord = (word: string) =>
  word
    .toLowerCase()
    .replace(/['’](?:s|re|ve|d|ll)$/, '')
    .replace(/\.$/, '');

/** A name a sentence form read, without the question words and titles before it ("What's Mark Green"). */
export function trimName(name: string): string {
  const words = name.split(/\s+/);
  while (words.length > 1 && NOT_NAME_WORDS.has(bareWord(words[0] ?? ''))) words.shift();
  return words.join(' ');
}

/** Titles before a member's name. */
const TITLES = new Set(
  'senator sen rep representative congressman congresswoman congressperson chairman chairwoman chair ranking leader speaker whip'.split(
    ' ',
  ),
);
const TITLE = new RegExp(`\\b(?:${[...TITLES].join('|')})\\.?\\s+$`, 'i');
