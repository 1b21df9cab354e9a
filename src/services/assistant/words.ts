// The assistant's vocabulary without a model, in one place: the verbs of buying and selling with
// their inflections, the people a question asks for, what a trade is called, the cues of the
// largest trades, of a conflict and of a dossier, and the words that are never a subject or a
// ticker. The readers (slots.ts, intents.ts, periods.ts) hold forms, not words: to teach the router
// a word, add it here and a line to slots.test.ts.

import { STATE_NAMES } from '../../search/vocabulary/places.js';

/** Which way a verb trades. */
type Way = 'buy' | 'sell';

/**
 * Verbs people write for buying and selling, with their inflections (base, third person, past,
 * -ing) and the words that follow them. Each is rewritten to the same inflection of "buy" or
 * "sell" ("bailed on" is "sold", "getting into" is "buying"), so the sentence forms read two verbs.
 */
const VERBS: readonly { forms: readonly [string, string, string, string]; after: string; way: Way }[] = [
  // Buying.
  { forms: ['accumulate', 'accumulates', 'accumulated', 'accumulating'], after: '', way: 'buy' },
  { forms: ['get', 'gets', 'got', 'getting'], after: 'into', way: 'buy' },
  { forms: ['pile', 'piles', 'piled', 'piling'], after: 'into', way: 'buy' },
  { forms: ['jump', 'jumps', 'jumped', 'jumping'], after: 'into', way: 'buy' },
  { forms: ['pour', 'pours', 'poured', 'pouring'], after: '(?:money\\s+|cash\\s+)?into', way: 'buy' },
  { forms: ['put', 'puts', 'put', 'putting'], after: '(?:money|cash)\\s+(?:into|in)', way: 'buy' },
  { forms: ['go', 'goes', 'went', 'going'], after: 'long(?:\\s+on)?', way: 'buy' },
  { forms: ['move', 'moves', 'moved', 'moving'], after: '(?:money\\s+)?into', way: 'buy' },
  { forms: ['move', 'moves', 'moved', 'moving'], after: '(?:money\\s+)?out\\s+of', way: 'sell' },
  { forms: ['back', 'backs', 'backed', 'backing'], after: 'up\\s+the\\s+truck\\s+on', way: 'buy' },
  {
    forms: ['up', 'ups', 'upped', 'upping'],
    after: '(?:their|his|her|its)\\s+(?:stakes?|positions?|exposure)\\s+(?:in|to)',
    way: 'buy',
  },
  {
    forms: ['start', 'starts', 'started', 'starting'],
    after: '(?:a\\s+|new\\s+)*(?:positions?|stakes?)\\s+in',
    way: 'buy',
  },
  {
    forms: ['initiate', 'initiates', 'initiated', 'initiating'],
    after: '(?:a\\s+|new\\s+)*(?:positions?|stakes?)\\s+in',
    way: 'buy',
  },
  {
    forms: ['establish', 'establishes', 'established', 'establishing'],
    after: '(?:a\\s+|new\\s+)*(?:positions?|stakes?)\\s+in',
    way: 'buy',
  },
  // Selling.
  { forms: ['bail', 'bails', 'bailed', 'bailing'], after: '(?:on|out\\s+of|out\\s+on)', way: 'sell' },
  {
    forms: ['cut', 'cuts', 'cut', 'cutting'],
    after:
      '(?:back\\s+on\\s+)?(?:(?:their|his|her|its)\\s+)?(?:exposure|stakes?|positions?|holdings?)\\s+(?:to|in|of)',
    way: 'sell',
  },
  { forms: ['cut', 'cuts', 'cut', 'cutting'], after: '(?:back\\s+on|loose|ties\\s+with)', way: 'sell' },
  { forms: ['ditch', 'ditches', 'ditched', 'ditching'], after: '', way: 'sell' },
  { forms: ['dump', 'dumps', 'dumped', 'dumping'], after: '', way: 'sell' },
  { forms: ['unload', 'unloads', 'unloaded', 'unloading'], after: '', way: 'sell' },
  { forms: ['offload', 'offloads', 'offloaded', 'offloading'], after: '', way: 'sell' },
  { forms: ['dispose', 'disposes', 'disposed', 'disposing'], after: 'of', way: 'sell' },
  { forms: ['part', 'parts', 'parted', 'parting'], after: 'ways\\s+with|with', way: 'sell' },
  { forms: ['let', 'lets', 'let', 'letting'], after: 'go\\s+of', way: 'sell' },
  { forms: ['pull', 'pulls', 'pulled', 'pulling'], after: '(?:out\\s+of|money\\s+out\\s+of)', way: 'sell' },
  {
    forms: ['take', 'takes', 'took', 'taking'],
    after: '(?:some\\s+)?profits?\\s+(?:on|in|from)',
    way: 'sell',
  },
  { forms: ['cash', 'cashes', 'cashed', 'cashing'], after: 'in\\s+(?:on|their|his|her)', way: 'sell' },
  {
    forms: ['close', 'closes', 'closed', 'closing'],
    after: '(?:out\\s+)?(?:(?:their|his|her|its|a)\\s+)?(?:positions?|stakes?)\\s+in',
    way: 'sell',
  },
  {
    forms: ['unwind', 'unwinds', 'unwound', 'unwinding'],
    after: '(?:(?:their|his|her|its|a)\\s+)?(?:positions?|stakes?)\\s+in',
    way: 'sell',
  },
  { forms: ['sell', 'sells', 'sold', 'selling'], after: '(?:off|down|out\\s+of)', way: 'sell' },
  { forms: ['shed', 'sheds', 'shed', 'shedding'], after: '', way: 'sell' },
  { forms: ['liquidate', 'liquidates', 'liquidated', 'liquidating'], after: '', way: 'sell' },
  { forms: ['lighten', 'lightens', 'lightened', 'lightening'], after: 'up\\s+on', way: 'sell' },
  { forms: ['get', 'gets', 'got', 'getting'], after: 'rid\\s+of', way: 'sell' },
  { forms: ['gotten', 'gotten', 'gotten', 'gotten'], after: 'rid\\s+of', way: 'sell' },
];

const INFLECTED: Record<Way, readonly [string, string, string, string]> = {
  buy: ['buy', 'buys', 'bought', 'buying'],
  sell: ['sell', 'sells', 'sold', 'selling'],
};

/** Words before a verb that ask for its base form: "did X cut …" is "did X sell …". */
const BASE_BEFORE =
  /\b(?:did|does|do|to|will|would|can|could|should|didn['’]t|doesn['’]t)\s+(?:(?:[A-Z][\w.'’-]*|any|anyone|anybody|members?|they|he|she)\s+){0,4}$/;

/** The verbs of the table brought to "buy" / "sell" in the inflection they were written in. */
export function canonicalVerbs(text: string): string {
  let result = text;
  for (const verb of VERBS) {
    const forms = [...new Set(verb.forms)];
    const pattern = new RegExp(
      `\\b(${forms.join('|')})${verb.after ? `\\s+(?:${verb.after})` : ''}\\b`,
      'gi',
    );
    result = result.replace(pattern, (_match, form: string, offset: number, whole: string) => {
      const index = verb.forms.indexOf(form.toLowerCase() as (typeof verb.forms)[number]);
      // A form both base and past ("cut", "put", "let") is the base after "did", else the past.
      const asBase =
        verb.forms[0] === verb.forms[2] && index === 0 && BASE_BEFORE.test(whole.slice(0, offset));
      const slot = index === 0 && verb.forms[0] === verb.forms[2] && !asBase ? 2 : index;
      return INFLECTED[verb.way][slot] ?? INFLECTED[verb.way][0];
    });
  }
  return result;
}

/** Words that ask about a member's trading without a verb of it: "active in the market", "moves". */
export const ASKS_ABOUT_TRADING =
  /\b(?:trades?|traded|trading|transactions?|bought|sold|buys?|sells?|selling|buying|purchas\w*|stocks?|shares|portfolio|active|activity|moves|dealings|invest\w*|(?:stock\s+)?market|up\s+to)\b/i;

/** The people asked about, as words written with or without a capital ("Senators", "members"). */
const PEOPLE_WORDS = capitalOrNot(
  'senators|representatives|reps|members|lawmakers|legislators|politicians|republicans|democrats|dems|congressmen|congresswomen',
);

/** A state's name, as a group of alternatives ("New York", "Texas"). */
const STATE = `(?:${Object.values(STATE_NAMES).join('|')})`;

/**
 * A state the people asked about come from: "senators from Texas", "members representing
 * Florida", "Texas Republicans", "the Ohio delegation". Its name elsewhere ("Texas Instruments",
 * "Virginia Foxx") is not one.
 */
export const PEOPLE_STATE = new RegExp(
  `\\b(?:${capitalOrNot('from|representing')}|(?<=\\b(?:${PEOPLE_WORDS})\\s+)of)\\s+(?:the\\s+state\\s+of\\s+)?(${STATE})\\b(?!\\s+[A-Z])|\\b(${STATE})(?:['’]s)?\\s+(?=(?:${capitalOrNot('house|senate|congressional')})?\\s*(?:${capitalOrNot('republicans|democrats|dems|senators?|representatives|reps|members|lawmakers|legislators|politicians|congressmen|congresswomen|delegation')}|GOP)\\b)`,
);

/** Words matched with or without a capital first letter, in a pattern that is case-sensitive. */
function capitalOrNot(words: string): string {
  return words
    .split('|')
    .map((word) => `[${word[0]?.toUpperCase()}${word[0]}]${word.slice(1)}`)
    .join('|');
}

/** The state's two-letter code for a name of STATE_NAMES. */
export function stateCode(name: string): string | undefined {
  return Object.entries(STATE_NAMES).find(([, state]) => state.toLowerCase() === name.toLowerCase())?.[0];
}

/**
 * A member's party and state written after the name: "(D-TN)", "D-Tenn.", "R-Fla.", "(R-NY-21)",
 * with the commas around it. Nothing the router reads: the name is found without it.
 */
export const PARTY_STATE_TAG =
  /\s*\(\s*[RDI]\s*[-–]\s*(?:[A-Z]\.\s*[A-Z]\.|[A-Z][A-Za-z]{1,5}\.?)(?:\s*[-–]\s*\d{1,2})?\s*\)|(?:\s*,\s*|\s+)[RDI][-–](?:[A-Z]\.\s*[A-Z]\.|[A-Z][A-Za-z]{1,5}\.?)(?:[-–]\d{1,2})?(?![\w-])(?:\s*,)?/g;

/**
 * A member's state after the name: "Steve Cohen of Tennessee", "Rep. Cohen, of Tennessee": two
 * capitalised words before it (a title or a given name, then the name), so neither the people
 * asked about ("Senators of Texas") nor a company ("Bank of Hawaii") is one.
 */
export const NAME_OF_STATE = new RegExp(
  `(?<=[A-Z][\\w'’.-]*\\s+(?!(?:${PEOPLE_WORDS}|[Dd]elegation)\\b)[A-Z][\\w'’.-]*)\\s*,?\\s+of\\s+(?:the\\s+state\\s+of\\s+)?${STATE}\\b(?!\\s+[A-Z])`,
  'g',
);

/**
 * Members known by their initials, written as the name the data holds. Not when the letters
 * stand where a ticker does ("$MTG", "bought MTG"): MTG is also a listed symbol.
 */
export const MEMBER_INITIALS: Readonly<Record<string, string>> = {
  AOC: 'Alexandria Ocasio-Cortez',
  MTG: 'Marjorie Taylor Greene',
};

/** What a company's dossier is called: "a rundown on Boeing", "Tesla overview", "snapshot of Disney". */
export const DOSSIER_NOUN =
  '(?:dossier|(?<!\\bconflicts?(?:\\s+of\\s+interest)?\\s+)report(?!\\s+card)|tear[- ]?sheets?|write[- ]?up|cheat\\s*sheet|synopsis|rundown|run-down|lowdown|low-down|overview|summary|background|briefing|brief|fact\\s*sheet|one[- ]pager|primer|backgrounder|deep[- ]dive|breakdown|snapshot|profile|portrait|report\\s+card|scorecard|(?:the\\s+)?(?:full|whole|big|congressional)\\s+(?:picture|story|angle))';

/** Titles written before a member's name ("Sen.", "Congresswoman"). */
export const TITLE_WORDS =
  '\\b(?:senator|sen|rep|representative|congressman|congresswoman|congressperson|chairman|chairwoman|chair|ranking\\s+member|leader|speaker|whip)\\.?';

/** The people a "which senators sold ..." or "house members who sold ..." question asks for. */
export const PEOPLE =
  '(?:(?:(?:house|senate|congressional|republican|democratic|gop|dem)\\s+)*(?:members?|politicians?|senators?|representatives?|reps|(?:house|senate|congress(?:ional)?)\\s+members|lawmakers?|legislators?|congress(?:wo)?m[ae]n|congress(?:people|persons?|members?)|(?:state\\s+)?delegations?|republicans?|democrats?|dems|elected\\s+officials|officials))';

/** Phrases people write for buying: "picked up Cisco", "loading up on chip stocks", "snapped up". */
export const BUY_PHRASE =
  '(?:(?:buy|buys|bought|buying)\\s+into|add(?:ed|ing|s)?\\s+to|(?:pick|picked|picking|snap|snapped|snapping|scoop|scooped|scooping)\\s+up|load(?:ed|ing|s)?\\s+up(?:\\s+on)?|invest(?:ed|ing|s)?\\s+in)';
/** Phrases for selling: "cashed out of Qualcomm", "got out of", "exited", "offloaded", "divested". */
export const SELL_PHRASE =
  '(?:trim(?:med|ming|s)?|reduc(?:ed|ing|es)|pare[ds]?(?:\\s+back)?|cash(?:ed|ing|es)?\\s+out(?:\\s+of)?|(?:got|get|getting|gets)\\s+out\\s+of|exit(?:ed|ing|s)?|offload\\w*|divest\\w*(?:\\s+from)?|bail(?:ed|ing)?\\s+out\\s+of)';

/** Verbs of trading in a "who bought ..." question. */
export const TRADE_VERB = `(?:${BUY_PHRASE}|${SELL_PHRASE}|trade|trades|traded|trading|buy|buys|bought|buying|sell|sells|sold|selling|own|owns|hold|holds|purchas\\w*|acquir\\w*|dump\\w*|unload\\w*)`;

/** The words for the largest trades by amount: "biggest", "most valuable", "highest-value". */
export const LARGEST =
  '(?:biggest|largest|top|most expensive|most valuable|highest[- ]value(?:d)?|highest[- ]dollar|top[- ]dollar|big(?:gest)?[- ]ticket|largest[- ]dollar|biggest[- ]dollar|priciest|costliest|heftiest|heaviest|hugest|chunkiest|fattest|splashiest|most (?:significant|substantial|sizable|sizeable)|highest)';

/** What a trade is called in "the biggest …" ("the largest purchase", "the biggest bets"). */
export const TRADE_NOUN =
  '(?:trades?|transactions?|purchases?|sales?|buys|sells|bets|moves|investments|positions|deals)';

/** Capitalised words of questions that are not tickers (a ticker of the same letters is written $X). */
export const NOT_TICKERS = new Set(
  'I A COVID US USA CEO IPO ETF ETFS GDP SEC FDA EV AI TV GOP DEM DEMS YTD QTD MTD NDAA IRA LLC INC CO PAC PACS FY HR HOUSE SENATE OK PLS FYI ASAP DC NYSE LLP'.split(
    ' ',
  ),
);

/** A conflict of interest asked about, in any words: "conflict flags", "conflicted", "his committee work". */
export const CONFLICT_CUE =
  /\bconflict(?:s|ed|ing)?\b|\bconflict[- ]of[- ]interest\b|\b(?:ethics|ethical)\s+(?:red\s+flags?|flags?|concerns?|issues?|problems?|questions?)\b|\bred\s+flags?\b|\bself[- ]dealing\b|['’]s\s+committees?\b|\b(?:his|her|their)\s+(?:own\s+)?(?:committees?|panels?|subcommittees?|committee\s+(?:work|assignments?|seats?))\b|\b(?:committees?|panels?)\s+(?:he|she|they)\s+(?:sits?|sat|serves?|served|chairs?|chaired|leads?|led)\b|\b(?:he|she|they)\s+(?:regulates?|regulated|oversees?|oversaw|overseen|polices?|legislates?\s+on|writes?\s+(?:the\s+)?rules\s+for)\b/i;

/** Committees set against a member's own trades: "his committees oversee", "sectors she regulates". */
export const COMMITTEE_TIE =
  /\b(?:his|her|their)\s+(?:own\s+)?(?:committees?|panels?|subcommittees?)\b|\b(?:committees?|panels?)\s+(?:he|she|they)\s+(?:sits?|sat|serves?|served|chairs?|chaired|leads?|led)\b|\b(?:he|she|they)\s+(?:regulates?|regulated|oversees?|oversaw|polices?|legislates?\s+on)\b/i;

/** Words that say what a question is about, not who or what: dropped to find its subject. */
export const NOISE = new Set(
  `who whom whose which what when where how why much many is are was were be been being do does did has have had
  will would can could should the a an any anyone anybody some all every each their his her its them they it this that
  these those me my i we our you your tell show give list find get summarize summarise about on in of to for by with
  from at as and or during since between through until last past this year years month months quarter half q1 q2 q3 q4
  h1 h2 ytd so far over within across throughout prior previous recent recently lately early late mid spring summer fall
  autumn winter season first second third fourth final
  stock stocks share shares equity sector industry companies company congress congressional capitol hill house senate
  lawmakers members member senators senator representatives reps rep politicians legislators people gop dem democratic
  exposure activity involvement dealings trading trade trades traded buying bought buy buys selling sold sell sells sales
  purchases purchase buyers sellers made make doing done up picture story overview profile summary rundown
  most money profit profits gains returns there here whom portfolio portfolios position positions stake stakes holdings
  net please thanks conflict conflicts conflicted interest interests ethics ethical flag flags red check problem problems
  committee committees`.split(/\s+/),
);

/**
 * Leadership offices a member is named by ("the Senate majority whip", "the House GOP leader",
 * "the Speaker", "the president pro tem"): each form, with what its groups stand for, becomes the
 * titles of the legislators files' leadership roles (offices.ts reads them; the data says who held
 * one on a day). `when` before an office: "former" is who held it before, "current" is today's.
 */
export const OFFICE_WHEN = '(?:(current|sitting|present|former|ex|then)[- ]?\\s*)?';
export const FLOOR_OFFICE = new RegExp(
  `\\b(?:the\\s+)?${OFFICE_WHEN}(assistant\\s+)?(house|senate)\\s+(majority|minority|republican|gop|democratic|democrat|dem)\\s+(leader|whip)\\b|\\b(?:the\\s+)?${OFFICE_WHEN}(assistant\\s+)?(majority|minority|republican|gop|democratic|democrat|dem)\\s+(leader|whip)\\s+(?:of|in)\\s+the\\s+(house|senate)\\b`,
  'i',
);
export const SPEAKER_OFFICE = new RegExp(
  `\\b(?:the\\s+)?${OFFICE_WHEN}(?:house\\s+)?speaker(?:\\s+of\\s+the\\s+house)?(?:\\s+(emerita|emeritus))?\\b`,
  'i',
);
export const PRO_TEMPORE_OFFICE = new RegExp(
  `\\b(?:the\\s+)?${OFFICE_WHEN}(?:senate\\s+)?president\\s+pro\\s+tem(?:pore)?(?:\\s+of\\s+the\\s+senate)?\\b`,
  'i',
);
export const CAUCUS_OFFICE = new RegExp(
  `\\b(?:the\\s+)?${OFFICE_WHEN}(house|senate)\\s+(republican|gop|democratic|democrat)\\s+(conference|caucus)\\s+(vice\\s+)?chair(?:man|woman|person)?\\b`,
  'i',
);
/** Party words of offices, as the roster's party codes. */
export const OFFICE_PARTY: Readonly<Record<string, string>> = {
  republican: 'R',
  gop: 'R',
  democratic: 'D',
  democrat: 'D',
  dem: 'D',
};

/**
 * Committee offices: "the chair of Senate Banking", "the top Democrat on House Armed Services"
 * (before the committee), "the House Financial Services ranking member" (after it). The committee
 * is read against the committees the data lists (offices.ts), so no committee is named here.
 */
export const COMMITTEE_ROLE =
  '(chair(?:man|woman|person)?|head|leader|ranking\\s+member|(?:top|ranking|senior)\\s+(?:democrat|republican|dem|gop))';
export const ROLE_BEFORE_COMMITTEE = new RegExp(
  `\\b(?:the\\s+)?${COMMITTEE_ROLE}\\s+(?:of|on|at)\\s+(?:the\\s+)?((?:house|senate)\\s+)?((?:[\\w'’&-]+,?\\s*){1,6})`,
  'i',
);
export const ROLE_AFTER_COMMITTEE = new RegExp(
  `\\b(?:the\\s+)?(house|senate)\\s+((?:[\\w'’&-]+,?\\s+){1,6}?)(?:committee\\s+|panel\\s+)?${COMMITTEE_ROLE}\\b`,
  'i',
);
/** Words of a committee's name that say nothing of its subject ("Committee on the Budget"). */
export const COMMITTEE_NAME_FILLER = new Set(['and', 'the', 'of', 'on', '&']);
