// Words an asset name is made of, to check what the engine read. The engine's own confidence is
// high on some systematic misreads of bold condensed type ("METUFE" for METLIFE, "UNKED" for
// LINKED: "LI" read as "U"); a word that is in no dictionary but one OCR confusion away from a
// word that is, is such a misread. The lexicon is English (the `word-list` package), the names of
// US places (the `zipcodes` package: municipal bonds are named after them), the words of security
// descriptions (below) and the words of the issuer names the database knows.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { IssuerNames } from './issuer-names.js';

/**
 * Words of security descriptions as brokerage statements and filers write them, abbreviations
 * included (INT international, NAT national, OPP opportunities, PERS personal); not English
 * words, so not in the English list.
 */
export const SECURITY_WORDS: readonly string[] = [
  'ADR',
  'ADS',
  'AG',
  'AGY',
  'AMT',
  'AO',
  'ASSN',
  'ASSOC',
  'AUTH',
  'BANCORP',
  'BANCSHARES',
  'BD',
  'BDS',
  'BHD',
  'BK',
  'BLDG',
  'BV',
  'CL',
  'CMN',
  'CMNTY',
  'CNTY',
  'CO',
  'COM',
  'COMMN',
  'CORP',
  'COS',
  'CP',
  'CRP',
  'CTF',
  'CTFS',
  'CTR',
  'CTRS',
  'CUSIP',
  'DEB',
  'DEL',
  'DEPT',
  'DEV',
  'DIST',
  'DTD',
  'ED',
  'EDL',
  'ENMT',
  'ETF',
  'ETN',
  'EXCH',
  'EXCHG',
  'EXP',
  'FAC',
  'FD',
  'FDS',
  'FGN',
  'FIN',
  'FING',
  'FINL',
  'FLT',
  'FRN',
  'GO',
  'GOVT',
  'GRP',
  'GTD',
  'HLDG',
  'HLDGS',
  'HLTH',
  'HOSP',
  'HSG',
  'INC',
  'INCCOM',
  'INDL',
  'INDS',
  'INFRA',
  'INSD',
  'INT',
  'INTL',
  'INVT',
  'IRA',
  'JJ',
  'JD',
  'LLC',
  'LLP',
  'LP',
  'LTD',
  'MFA',
  'MGMT',
  'MGT',
  'MN',
  'MS',
  'MTG',
  'MUN',
  'MUNI',
  'NAT',
  'NATL',
  'NT',
  'NTS',
  'NV',
  'OBLIG',
  'OPP',
  'ORD',
  'PERS',
  'PFD',
  'PLC',
  'PPTYS',
  'PREF',
  'PT',
  'PUB',
  'RCPTS',
  'REF',
  'REIT',
  'REITS',
  'REV',
  'RFDG',
  'SA',
  'SCH',
  'SE',
  'SER',
  'SH',
  'SHS',
  'SPDR',
  'SR',
  'SRVCS',
  'SUB',
  'SVC',
  'SVCS',
  'SWR',
  'TAX',
  'TECH',
  'TECHS',
  'TR',
  'TRANS',
  'TRANSN',
  'TREAS',
  'TRS',
  'TWP',
  'UNIV',
  'USD',
  'UT',
  'UTS',
  'WT',
  'WTR',
  'WTS',
  'XSP',
  // Municipal bonds' own, as their descriptions abbreviate them (a 278-T lists them so), of five
  // letters or more: a misread of one is then corrected or doubted, not taken for a name of its
  // own. Shorter ones are left out: listed, they split names ("SYSCO" into SYS CO).
  'ASSMT',
  'COLLTZD',
  'COMMR',
  'INSTN',
  'MLTIFAM',
  'PARTN',
  'POLLTN',
  'REDEV',
  'RETMT',
  'REVLVG',
  'STDNT',
  'UTILS',
  'WTRWKS',
];

export type WordVerdict =
  /** In the lexicon, or nothing to check (numbers, codes, one- and two-letter words). */
  | { kind: 'known' }
  /** In no list and one cheap OCR confusion from exactly one word that is: that word. */
  | { kind: 'corrected'; word: string; cost: number }
  /** Two listed words run together ("PTCINC"): them, with a space. */
  | { kind: 'split'; words: [string, string] }
  /** Close to a listed word, but not by a single confusion or not uniquely: doubtful as read. */
  | { kind: 'doubtful'; near: string; cost: number }
  /** In no list and near none: a name of its own (most issuer names are), taken as read. */
  | { kind: 'unknown' };

/** Up to this cost a confusion replaces the word read. */
const CORRECTION_COST = 0.45;
/** Up to this cost a near word makes the reading doubtful. */
const DOUBT_COST = 1.25;
/** The fewest letters of each word `runTogether` finds in one read. */
const RUN_TOGETHER_PART = 4;
/**
 * A word of this many letters in no list is several run together: no word of the transcribed
 * scans' names the lists lack is as long (the longest place names, of 11 letters, are listed).
 */
const LONG_RUN = 12;

/**
 * What the engine reads in place of what on these forms, both ways round, with a cost below one
 * ordinary edit: the cheaper, the more often it happens.
 */
const CONFUSIONS: ReadonlyArray<readonly [string, string, number]> = [
  ['U', 'LI', 0.3],
  ['U', 'IJ', 0.4],
  ['M', 'RN', 0.3],
  ['N', 'IN', 0.4],
  ['W', 'VV', 0.3],
  ['D', 'CL', 0.4],
  ['I', '1', 0.2],
  ['I', 'L', 0.4],
  ['L', '1', 0.3],
  ['O', '0', 0.2],
  ['O', 'D', 0.35],
  ['O', 'Q', 0.35],
  ['B', '8', 0.2],
  ['S', '5', 0.3],
  ['Z', '2', 0.3],
  ['G', '6', 0.35],
  ['Y', 'V', 0.4],
  ['E', 'C', 0.4],
  ['E', 'F', 0.4],
  ['H', 'N', 0.45],
  ['N', 'M', 0.45],
  ['T', 'I', 0.45],
];

export class Lexicon {
  /** Words of issuer names and security descriptions: the vocabulary of asset names. */
  private readonly names: Set<string>;
  /** English words: a word in no name but in English is still a word. */
  private readonly english: Set<string>;

  /**
   * @param knowsIssuers whether `names` holds issuer names (the database's companies). Without
   *   them an issuer's own name looks like a misread, so no reading can be corrected or trusted
   *   on the lexicon's word alone.
   * @param issuers the issuers' whole names, to settle a doubted word by the rest of its name.
   */
  constructor(
    names: Iterable<string>,
    english: Iterable<string> = [],
    readonly knowsIssuers = true,
    readonly issuers: IssuerNames | null = null,
  ) {
    this.names = normalized(names);
    this.english = normalized(english);
  }

  get size(): number {
    return this.names.size + this.english.size;
  }

  has(word: string): boolean {
    const upper = word.toUpperCase();
    return this.names.has(upper) || this.english.has(upper);
  }

  /** The verdict on one word as read (letters only; punctuation around it is ignored). */
  check(raw: string): WordVerdict {
    const word = raw.toUpperCase().replace(/^[^A-Z0-9&']+|[^A-Z0-9&']+$/g, '');
    if (word.length <= 2) return { kind: 'known' };
    // Initials ("D.R.", "N.V.", "W.W."): one-letter words, nothing to check them against.
    if (/^([A-Z]\.)+[A-Z]$/.test(word)) return { kind: 'known' };
    // A hyphenated name ("COLGATE-PALMOLIVE") is checked part by part: lists hold the parts.
    if (/^[A-Z&']+(-[A-Z&']+)+$/.test(word)) return this.checkParts(word.split('-'), '-');
    // So is a name the filer's software printed with a comma and no space ("MATERIALS,INC").
    if (/^[A-Z&']+(,[A-Z&']+)+$/.test(word)) return this.checkParts(word.split(','), ',');
    // Codes and numbers ("5.0000%", "SCTASK0796638", "10/01/25") are not words; a single digit
    // among letters is a misread when a listed word is near ("1QVIA").
    if (!/[A-Z]/.test(word) || /\d.*\d/.test(word)) return { kind: 'known' };
    // An apostrophe the lists leave out ("MOODY'S" is MOODYS in the SEC's list): the letters are
    // what is checked, the apostrophe is as read.
    if (word.includes("'") && this.has(word.replaceAll("'", ''))) return { kind: 'known' };
    const confusions = this.confusionNeighbours(word);
    if (this.names.has(word)) return { kind: 'known' };
    if (this.english.has(word)) {
      // An English word one confusion from a name word or another English word may be that
      // other word misread ("UNKED" is an English word; LINKED is meant).
      const rival = confusions.find((candidate) => candidate.word !== word);
      return rival && rival.cost <= CORRECTION_COST
        ? { kind: 'doubtful', near: rival.word, cost: rival.cost }
        : { kind: 'known' };
    }
    const best = confusions[0];
    if (best && word.length >= 5) {
      const second = confusions[1];
      if (best.cost <= CORRECTION_COST && (second === undefined || second.cost - best.cost >= 0.3)) {
        return { kind: 'corrected', word: best.word, cost: best.cost };
      }
    }
    // Filers' software cuts long names at a column width ("MEDTRONIC PUBLIC LIMITED COMPA"): the
    // start of a listed word, five letters or more, is that word cut, not two words run together
    // ("COM PA"), nor a misread.
    if (!best && word.length >= 5 && this.isPrefix(word)) return { kind: 'known' };
    const split = this.split(word);
    if (split) return { kind: 'split', words: split };
    if (best) return { kind: 'doubtful', near: best.word, cost: best.cost };
    const edit = this.editNeighbour(word);
    if (edit) return { kind: 'doubtful', near: edit, cost: 1 };
    return { kind: 'unknown' };
  }

  /**
   * The parts of a hyphenated (or comma-joined) word: known when all are; corrected when one part
   * is and the rest are known; otherwise the first doubt found (a split or an unknown part is
   * doubtful as a whole).
   */
  private checkParts(parts: readonly string[], separator: string): WordVerdict {
    const verdicts = parts.map((part) => this.check(part));
    const whole = (words: string[]) => words.join(separator);
    if (verdicts.every((verdict) => verdict.kind === 'known')) return { kind: 'known' };
    const corrected = verdicts.filter((verdict) => verdict.kind === 'corrected');
    if (corrected.length === 1 && verdicts.every((v) => v.kind === 'known' || v.kind === 'corrected')) {
      const fixed = verdicts.map((verdict, index) =>
        verdict.kind === 'corrected' ? verdict.word : (parts[index] ?? ''),
      );
      return { kind: 'corrected', word: whole(fixed), cost: (corrected[0] as { cost: number }).cost };
    }
    for (const [index, verdict] of verdicts.entries()) {
      if (verdict.kind === 'doubtful') return verdict;
      if (verdict.kind === 'corrected' || verdict.kind === 'split')
        return {
          kind: 'doubtful',
          near: whole(
            parts.map((p, i) =>
              i === index ? (verdict.kind === 'corrected' ? verdict.word : verdict.words.join(' ')) : p,
            ),
          ),
          cost: 1,
        };
    }
    return { kind: 'unknown' };
  }

  /** Listed words reached from `word` by one or two confusions, cheapest first. */
  private confusionNeighbours(word: string): Array<{ word: string; cost: number }> {
    const found = new Map<string, number>();
    const visit = (text: string, cost: number, depth: number) => {
      for (const [a, b, price] of CONFUSIONS) {
        for (const [from, to] of [
          [a, b],
          [b, a],
        ] as const) {
          for (let at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + 1)) {
            const next = text.slice(0, at) + to + text.slice(at + from.length);
            const total = cost + price;
            if (this.has(next) && total < (found.get(next) ?? Number.POSITIVE_INFINITY))
              found.set(next, total);
            if (depth < 2 && total < DOUBT_COST) visit(next, total, depth + 1);
          }
        }
      }
    };
    visit(word, 0, 1);
    return [...found.entries()]
      .map(([candidate, cost]) => ({ word: candidate, cost }))
      .sort((x, y) => x.cost - y.cost);
  }

  /**
   * Two words of four letters or more, each a listed name word or English, that the word read
   * would be with a space between them ("BELTENERGY"), when the word is listed as neither: the
   * engine loses a space on a crisp print as surely as it reads the letters, so no confidence of
   * its own says so. Names are made so too (US places are listed, "SPRINGFIELD"): a name the
   * lists lack is doubted all the same. Parts of two or three letters would cut most
   * abbreviations ("CL LG"). A word of `LONG_RUN` letters or more that no two such words make is
   * never taken as read: the engine lost every space of a name ("CACIINTLINCCLA"). It is cut into
   * the fewest listed words of any length and single letters (CACI INTL INC CL A), which any word
   * can be.
   */
  runTogether(raw: string): string[] | null {
    const word = raw.toUpperCase().replace(/^[^A-Z]+|[^A-Z]+$/g, '');
    if (!/^[A-Z]+$/.test(word) || word.length < 2 * RUN_TOGETHER_PART || this.has(word)) return null;
    for (let cut = RUN_TOGETHER_PART; cut <= word.length - RUN_TOGETHER_PART; cut++) {
      const left = word.slice(0, cut);
      const right = word.slice(cut);
      if (this.has(left) && this.has(right)) return [left, right];
    }
    return word.length >= LONG_RUN ? this.fewestWords(word) : null;
  }

  /** `word` cut into the fewest parts, each a listed word or a single letter. */
  private fewestWords(word: string): string[] {
    // best[i]: the fewest words word.slice(i) is made of.
    const best: Array<string[] | null> = new Array(word.length + 1).fill(null);
    best[word.length] = [];
    for (let start = word.length - 1; start >= 0; start--) {
      for (let end = word.length; end > start; end--) {
        const rest = best[end];
        const part = word.slice(start, end);
        if (!rest || (part.length > 1 && !this.has(part))) continue;
        const current = best[start];
        if (!current || rest.length + 1 < current.length) best[start] = [part, ...rest];
      }
    }
    return best[0] ?? [word];
  }

  /** Two name words the word is made of, when exactly one way of cutting it gives two. */
  private split(word: string): [string, string] | null {
    let found: [string, string] | null = null;
    for (let cut = 2; cut <= word.length - 2; cut++) {
      const left = word.slice(0, cut);
      const right = word.slice(cut);
      if (!this.names.has(left) || !this.names.has(right)) continue;
      if (found) return null;
      found = [left, right];
    }
    return found;
  }

  /** Whether some listed name word begins with `word`. */
  private isPrefix(word: string): boolean {
    this.prefixes ??= prefixSet(this.names);
    return this.prefixes.has(word);
  }

  private prefixes: Set<string> | undefined;

  /** A listed word one ordinary edit away (a letter lost, added or changed), if any. */
  private editNeighbour(word: string): string | null {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i <= word.length; i++) {
      if (i < word.length) {
        const without = word.slice(0, i) + word.slice(i + 1);
        if (without.length > 2 && this.has(without)) return without;
      }
      for (const letter of letters) {
        const added = word.slice(0, i) + letter + word.slice(i);
        if (this.has(added)) return added;
        if (i < word.length) {
          const changed = word.slice(0, i) + letter + word.slice(i + 1);
          if (changed !== word && this.has(changed)) return changed;
        }
      }
    }
    return null;
  }
}

function prefixSet(words: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const word of words)
    for (let length = 5; length < word.length; length++) out.add(word.slice(0, length));
  return out;
}

function normalized(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const raw of words) {
    const word = raw.trim().toUpperCase();
    if (word.length >= 2 && /^[A-Z&']+$/.test(word)) out.add(word);
  }
  return out;
}

/** Words of issuer names, upper-cased ("MetLife, Inc." gives METLIFE and INC). */
export function wordsOfNames(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const name of names) for (const word of name.toUpperCase().match(/[A-Z&']{2,}/g) ?? []) out.push(word);
  return out;
}

/** The English word list of the `word-list` package (one word a line). */
export async function englishWords(): Promise<string[]> {
  const { default: path } = await import('word-list');
  return readFileSync(path, 'utf8').split('\n');
}

/**
 * Least length of a word taken from US place names. Shorter ones ("ADA", "IRA", "LIMA", "ALTA")
 * are abbreviations and initials on a security's line more often than places, and would split a
 * misread into two listed words as the short words of descriptions would (below).
 */
export const PLACE_WORD_LENGTH = 5;

/**
 * The words of US place names (the USPS city of every ZIP code, `zipcodes` package) of
 * `PLACE_WORD_LENGTH` letters or more. A municipal bond is named after its issuer's place
 * ("SPRINGFIELD MO SPL OBLIG", "FAIRFIELD RUNNING"), and a place name is often two words run
 * together that the lexicon would otherwise doubt as a lost space.
 */
export function placeWords(): string[] {
  // The package's table is one 5 MB object literal: its text is scanned for the cities rather
  // than evaluated, which would hold some 100 MB more at its peak in the OCR thread.
  const text = readFileSync(createRequire(import.meta.url).resolve('zipcodes/lib/codes.js'), 'utf8');
  const out = new Set<string>();
  for (const [, city] of text.matchAll(/"city":"([^"]*)","state":"[A-Z]{2}","country":"US"/g))
    for (const word of city?.toUpperCase().match(/[A-Z]+/g) ?? [])
      if (word.length >= PLACE_WORD_LENGTH) out.add(word);
  return [...out];
}

/**
 * Least length of a word taken from stored trades' asset descriptions. Their short words ("CM",
 * "UN", "ES", "REG": abbreviations and cut words of filers' own spelling) would let a misread split
 * into two listed words ("CMIN" as CM IN) before the usual security type or the issuer's name
 * could settle it; their longer words are names ("SAFRAN", "PROSUS") no issuer list holds.
 */
export const DESCRIPTION_WORD_LENGTH = 5;

/** Words of asset descriptions (stored trades') long enough to be names rather than codes. */
export function wordsOfDescriptions(descriptions: Iterable<string>): string[] {
  return wordsOfNames(descriptions).filter(
    (word) => word.replaceAll("'", '').length >= DESCRIPTION_WORD_LENGTH,
  );
}

/**
 * The lexicon the form reader checks asset names against: English, security words, the words of
 * the issuer names the database knows and the longer words of its trades' asset descriptions.
 */
export async function assetLexicon(
  issuerNames: Iterable<string> = [],
  descriptions: Iterable<string> = [],
  /** Each listed symbol and its issuer's name: a ticker in brackets after its issuer's name is known. */
  listings: Iterable<readonly [string, string]> = [],
): Promise<Lexicon> {
  const titles = [...issuerNames];
  const names = wordsOfNames(titles);
  return new Lexicon(
    [...SECURITY_WORDS, ...names, ...wordsOfDescriptions(descriptions)],
    // Place names are words as English ones are: listed, but names settle nothing by them.
    [...(await englishWords()), ...placeWords()],
    names.length > 0,
    names.length > 0 ? new IssuerNames(titles, listings) : null,
  );
}
