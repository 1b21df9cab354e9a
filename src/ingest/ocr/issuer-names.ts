// Whole issuer names, to settle a word of an asset name the lexicon doubted. Word by word, a
// misread like "CROWODSTRIKE" or "UNES" is near a listed word but not surely it; read beside the
// rest of the name it usually is: "DELTA AIR UNES, INC." is DELTA AIR LINES, INC. with one word
// misread. A name is matched against the issuers' names from its first word (filers' software
// prints the issuer first, the security type after), every word but the doubted ones must be
// read exactly, and a doubted word is replaced only by the one issuer name that explains it
// clearly better than any other: a word no issuer name supports stays doubted.
import { distance } from 'fastest-levenshtein';

/** A doubted word's replacement (or confirmation, with no edits), and how many letters it changes. */
export interface IssuerCorrection {
  /** Index of the word in the name as given. */
  index: number;
  word: string;
  edits: number;
}

/**
 * The short and long forms of words issuer names and brokerage descriptions write either way
 * ("CDW Corp" is "CDW CORPORATION CMN" on a statement): a word matches either form.
 */
const FORMS: ReadonlyArray<readonly [string, string]> = [
  ['CORP', 'CORPORATION'],
  ['INC', 'INCORPORATED'],
  ['CO', 'COMPANY'],
  ['COS', 'COMPANIES'],
  ['LTD', 'LIMITED'],
  ['HLDGS', 'HOLDINGS'],
  ['INTL', 'INTERNATIONAL'],
  ['MGMT', 'MANAGEMENT'],
  ['GRP', 'GROUP'],
  ['TECH', 'TECHNOLOGIES'],
  ['FINL', 'FINANCIAL'],
];
const SHORT_FORM = new Map<string, string>(FORMS.flatMap(([short, long]) => [[long, short] as const]));
const LONG_FORM = new Map<string, string>(FORMS.map(([short, long]) => [short, long] as const));

/** Legal forms: matched, they say little about which issuer a name is. */
const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'INC',
  'CORP',
  'CO',
  'COS',
  'LTD',
  'PLC',
  'LLC',
  'LP',
  'SA',
  'NV',
  'AG',
]);

const canonical = (word: string) => SHORT_FORM.get(word) ?? word;

/** A cut long form is matched only from this many letters: "INC" is a form of its own. */
const CUT_FORM_LETTERS = 5;

/**
 * The short form of the one long form a word is the start of ("INCORPORA" for INCORPORATED: INC),
 * or null: filers' software cuts a name at its column's width, often inside its last word, and
 * the legal form is the last word of most names. "MICROCHIP TECHNOLOGY INCORPORA" is thirty
 * letters, the width of the statement's column.
 */
function cutLongForm(word: string): string | null {
  if (word.length < CUT_FORM_LETTERS) return null;
  const forms = FORMS.filter(([, long]) => long.length > word.length && long.startsWith(word));
  return forms.length === 1 ? (forms[0]?.[0] ?? null) : null;
}

/** The letters and digits of a word as issuer names are compared ("VIC)" gives VIC). */
export function nameLetters(word: string): string {
  return word.toUpperCase().replace(/[^A-Z0-9&]/g, '');
}

/** The words of an issuer's name: "Parker-Hannifin Corp" gives PARKER, HANNIFIN, CORP. */
function titleWords(title: string): string[] {
  return (
    title
      .toUpperCase()
      // Registrants' suffixes ("/DE/", "/NEW/") are no part of the name as filers print it.
      .replace(/\/[A-Z]{1,4}\/?\s*$/, '')
      .split(/[\s-]+/)
      .map(nameLetters)
      .filter((word) => word !== '')
  );
}

/** A doubted word may differ from the issuer's word in at most this share of its letters. */
const MAX_EDIT_SHARE = 0.4;
/** The runner-up must need at least this many more edits for the best match to be taken. */
const RUNNER_UP_MARGIN = 1;

/**
 * A name read as a whole issuer's name confirms it only when every other issuer's name is at
 * least this many letters away: a misread of one letter or two can land on a neighbour ("CSX
 * CORPORATION", "CDW CORPORATION").
 */
const CONFIRM_MARGIN = 3;

/** A name cut at the filer's column is long: shorter starts of names are too easily landed on. */
const CUT_NAME_LETTERS = 20;

export class IssuerNames {
  private readonly titles: string[][];
  /** Each name's words in their short forms, joined by one space: the key a whole name is found by. */
  private readonly keys: string[];
  private readonly keySet: Set<string>;
  /** Each listed symbol's issuers, by the words of their names before the legal form. */
  private readonly tickers = new Map<string, string[][]>();

  /**
   * @param listings each listed symbol and its issuer's name (the database's companies), to know
   *   a ticker written in brackets after a name ("GE Vernova LLC (GEV)").
   */
  constructor(titles: Iterable<string>, listings: Iterable<readonly [string, string]> = []) {
    for (const [ticker, title] of listings) {
      const words = titleWords(title).map(canonical);
      while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1] ?? '')) words.pop();
      const symbol = ticker.toUpperCase();
      this.tickers.set(symbol, [...(this.tickers.get(symbol) ?? []), words]);
    }
    const seen = new Set<string>();
    this.titles = [];
    this.keys = [];
    for (const title of titles) {
      const words = titleWords(title);
      const key = words.map(canonical).join(' ');
      // A one-word name matched as a prefix anchors nothing: any name starting with it would do.
      if (words.length < 2 || seen.has(key)) continue;
      seen.add(key);
      this.titles.push(words);
      this.keys.push(key);
    }
    this.keySet = seen;
  }

  /**
   * How many leading words of a name read (`words`, hyphenated words already split) are, letter
   * for letter, one issuer's whole name with no other issuer's name near it (CONFIRM_MARGIN): the
   * engine would have had to misread the name into exactly that issuer's, and no neighbour of it
   * was to be had by a letter or two. The name's last word may be its legal form cut short
   * ("MICROCHIP TECHNOLOGY INCORPORA": MICROCHIP TECHNOLOGY INC). 0 when no such name begins the
   * name read.
   */
  confirmedWords(words: readonly string[]): number {
    const letters = words.map(nameLetters).map(canonical);
    for (let count = letters.length; count >= 2; count--) {
      const read = letters.slice(0, count).join(' ');
      // The last word may be a legal form cut at the filer's column (cutLongForm).
      const cut = cutLongForm(letters[count - 1] ?? '');
      const key =
        this.keySet.has(read) || cut === null ? read : [...letters.slice(0, count - 1), cut].join(' ');
      if (!this.keySet.has(key)) continue;
      return this.keys.every(
        (other) =>
          other === key ||
          Math.abs(other.length - key.length) >= CONFIRM_MARGIN ||
          distance(other, key) >= CONFIRM_MARGIN,
      )
        ? count
        : 0;
    }
    return this.confirmedCut(letters);
  }

  /**
   * How many leading words of a name read are, letter for letter, the start of an issuer's name
   * cut inside a word ("EXPEDITORS INTERNATIONAL OF WA" for EXPEDITORS INTERNATIONAL OF
   * WASHINGTON INC): filers' software cuts long names at its column's width. The cut name must be
   * long (CUT_NAME_LETTERS) and of three words at least, and every issuer's name that does not
   * begin so must differ from it, over as many letters, by CONFIRM_MARGIN: as with a whole name,
   * a misread would have to land letter for letter on the start of a listed name.
   */
  private confirmedCut(letters: readonly string[]): number {
    for (let count = letters.length; count >= 3; count--) {
      const cut = letters.slice(0, count).join(' ');
      if (cut.length < CUT_NAME_LETTERS) return 0;
      const cutInWord = (key: string) => key.startsWith(cut) && /[A-Z0-9&]/.test(key[cut.length] ?? '');
      if (!this.keys.some(cutInWord)) continue;
      return this.keys.every(
        (other) =>
          other.startsWith(cut) ||
          other.length < cut.length - CONFIRM_MARGIN ||
          distance(other.slice(0, cut.length), cut) >= CONFIRM_MARGIN,
      )
        ? count
        : 0;
    }
    return 0;
  }

  get size(): number {
    return this.titles.length;
  }

  /**
   * Whether `ticker`, written in brackets after a name, is the listed symbol of an issuer whose
   * name, its legal form aside, is letter for letter how the name read (`words`, the words before
   * the bracket) begins: two fields the filer wrote apart agree, so a misread would have had to
   * land on a listed symbol of that very issuer. The legal form itself is not compared: filers
   * write their own ("GE Vernova LLC" for GE Vernova Inc.).
   */
  namesTicker(words: readonly string[], ticker: string): boolean {
    const read = words
      .flatMap((word) => word.split(/[\s-]+/))
      .map(nameLetters)
      .filter((word) => word !== '');
    const letters = read.map(canonical);
    return (this.tickers.get(ticker.toUpperCase()) ?? []).some(
      (name) =>
        name.length > 0 &&
        name.length <= letters.length &&
        name.every((word, index) => word === letters[index]),
    );
  }

  /**
   * Replacements for the doubted words of a name read (`words`, hyphenated words already split),
   * from the one issuer name it begins with. `suggested` is what the lexicon would make of each
   * doubted word on its own: a short word (under five letters) is replaced only when that agrees
   * or a distinctive word of the issuer's name (no legal form) was read exactly beside it. Null
   * when no issuer name fits, or when two fit about as well.
   */
  correct(
    words: readonly string[],
    doubted: ReadonlySet<number>,
    suggested: ReadonlyMap<number, string> = new Map(),
  ): IssuerCorrection[] | null {
    if (doubted.size === 0) return null;
    const letters = words.map(nameLetters);
    let best: { corrections: IssuerCorrection[]; edits: number; key: string } | null = null;
    let runnerUp = Number.POSITIVE_INFINITY;
    for (const title of this.titles) {
      const match = this.matchTitle(letters, doubted, suggested, title);
      if (!match) continue;
      const key = match.corrections.map((c) => `${c.index}:${c.word}`).join(' ');
      if (best && key === best.key) {
        best.edits = Math.min(best.edits, match.edits);
        continue;
      }
      if (!best || match.edits < best.edits) {
        if (best) runnerUp = Math.min(runnerUp, best.edits);
        best = { ...match, key };
      } else runnerUp = Math.min(runnerUp, match.edits);
    }
    if (!best || best.corrections.length === 0) return null;
    if (runnerUp - best.edits < RUNNER_UP_MARGIN) return null;
    return best.corrections;
  }

  /** The doubted words' replacements if `title` is the name read, with their edits; else null. */
  private matchTitle(
    letters: readonly string[],
    doubted: ReadonlySet<number>,
    suggested: ReadonlyMap<number, string>,
    title: readonly string[],
  ): { corrections: IssuerCorrection[]; edits: number } | null {
    if (title.length > letters.length) return null;
    const corrections: IssuerCorrection[] = [];
    let edits = 0;
    let anchored = false;
    for (let i = 0; i < title.length; i++) {
      const read = letters[i] ?? '';
      const listed = title[i] ?? '';
      if (!doubted.has(i)) {
        if (canonical(read) !== canonical(listed)) return null;
        if (!LEGAL_FORMS.has(canonical(listed))) anchored = true;
        continue;
      }
      const forms = [listed, LONG_FORM.get(listed), SHORT_FORM.get(listed)].filter(
        (form): form is string => form !== undefined,
      );
      let word = listed;
      let cost = Number.POSITIVE_INFINITY;
      for (const form of forms) {
        const d = distance(read, form);
        if (d < cost) {
          cost = d;
          word = form;
        }
      }
      if (cost > Math.max(1, Math.floor(word.length * MAX_EDIT_SHARE))) return null;
      // A doubted word read exactly as the issuer's name has it is confirmed (no edits).
      corrections.push({ index: i, word, edits: cost });
      edits += cost;
    }
    for (const correction of corrections) {
      const short = correction.word.length < 5;
      if (short && !anchored && suggested.get(correction.index) !== correction.word) return null;
    }
    return { corrections, edits };
  }
}
