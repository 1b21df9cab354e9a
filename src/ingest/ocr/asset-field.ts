// An asset name judged from what was read: its words checked against the lexicon (misreads
// corrected, doubtful words named, words run together split), doubted words settled by the
// document's usual last word or by the issuer's whole name, and the name's confidence from its
// words, the agreement of its readings and its doubts. Apart from the other fields
// (judged-fields.ts) because a name is checked word by word against lists, not read as a value.
import { NO_TICKER } from '../../domain/ticker.js';
import { splitTicker } from '../sources/asset-text.js';
import { nameLettersKey } from './document-votes.js';
import { type CellReading, GREY_READINGS } from './house-page.js';
import type { IssuerNames } from './issuer-names.js';
import { agreementFactor, type Field } from './judged-fields.js';
import { type Lexicon, SECURITY_WORDS } from './lexicon.js';
import { tidyAssetText } from './scanned-fields.js';

type AssetField = Field<string> & { ticker: string; tickerConfidence: number };

export function assetField(
  cell: CellReading,
  lines: number,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
  spelledOtherwise: ReadonlySet<string> = new Set(),
): AssetField {
  return (
    judgedReadingsVote(cell, lines, lexicon, usualSuffix, spelledOtherwise) ??
    judgedReading(cell, lines, lexicon, usualSuffix, spelledOtherwise)
  );
}

/**
 * The name as the cell's readings (one per scale and black-and-white version) say once each is judged on its own: the
 * readings vote on the judged name, not on the text read, since two readings the lexicon or the
 * issuer's name settle alike ("VICI" and "VIC)" beside PROPERTIES INC.) agree on the name though
 * their letters differ. A comma after a legal form inside a name that another reading read as a
 * period counts as that period (the likelier misread, see checkWords). When most readings agree,
 * the name is the surest of them that has no doubt of its own, at its confidence; otherwise (no
 * majority, or every agreeing reading doubted) the voted text is judged as it was read.
 */
function judgedReadingsVote(
  cell: CellReading,
  lines: number,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
  spelledOtherwise: ReadonlySet<string>,
): AssetField | null {
  const readings = cell.readings ?? [];
  if (readings.length < 2) return null;
  const judged = readings.map((reading) =>
    judgedReading(
      { ...cell, text: reading.text, words: reading.words, agreement: 1 },
      lines,
      lexicon,
      usualSuffix,
      spelledOtherwise,
    ),
  );
  const keyOf = (field: AssetField) => `${field.value.replace(LEGAL_FORM_COMMA, '$1.')}\u0000${field.ticker}`;
  const groups = new Map<string, AssetField[]>();
  for (const field of judged) {
    if (field.value === '') continue;
    groups.set(keyOf(field), [...(groups.get(keyOf(field)) ?? []), field]);
  }
  const largest = majorityGroup(judged, groups, keyOf, readings.length);
  if (!largest) return null;
  const undoubted = largest.filter((field) => field.why === null).sort((a, b) => b.confidence - a.confidence);
  return undoubted[0] ?? null;
}

/**
 * The readings that agree on the name: those of the judged name most grey readings give, when
 * they agree (the black-and-white readings that agree with it join them); otherwise those of the
 * name most readings of all give. The black-and-white readings settle a split of the grey ones
 * and add a surer reading of the name they agree on, but do not overturn a grey majority: both
 * are thresholded from one enlarged image and can lose the same thin stroke ("PFD" read "PFO"
 * by both where two grey scales read it right).
 */
function majorityGroup(
  judged: readonly AssetField[],
  groups: ReadonlyMap<string, AssetField[]>,
  keyOf: (field: AssetField) => string,
  count: number,
): AssetField[] | null {
  if (count > GREY_READINGS) {
    const greyVotes = new Map<string, number>();
    for (const field of judged.slice(0, GREY_READINGS))
      if (field.value !== '') greyVotes.set(keyOf(field), (greyVotes.get(keyOf(field)) ?? 0) + 1);
    const [key, votes] = [...greyVotes.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    if (votes * 2 > GREY_READINGS) return groups.get(key) ?? null;
  }
  const largest = [...groups.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  return largest.length * 2 > count ? largest : null;
}

function judgedReading(
  cell: CellReading,
  lines: number,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
  spelledOtherwise: ReadonlySet<string>,
): AssetField {
  const checked = checkWords(cell, lexicon, usualSuffix, spelledOtherwise);
  const text = tidyAssetText(checked.text);
  if (text === '')
    return { value: '', confidence: 0, why: 'no asset name read', ticker: NO_TICKER, tickerConfidence: 0 };
  const { ticker, rest } = splitTicker(text);
  // A name over two lines is read as two pieces: their join may lose or double a word.
  // A split vote costs a name with a doubt of its own, or one no lexicon checked: the readings
  // often split over the very stop or letter the doubt is about. A name every word of which
  // passed the lexicon's checks, read alike by most of its readings, is judged by its words'
  // confidences alone: the engine scores a word it misread low, and on the House scans such
  // names were never wrong with every word scored 0.75 or more.
  const majority = lexicon !== undefined && checked.doubts.length === 0 && (cell.agreement ?? 1) >= 0.6;
  let confidence = checked.confidence * (majority ? 1 : agreementFactor(cell.agreement));
  if (lines > 1) confidence *= 0.97;
  const doubts = [...checked.doubts];
  if (OPTION_TEXT.test(text)) {
    // Option descriptions hang on small symbols ("PUT/XSP @ 555") the engine drops silently.
    confidence = Math.min(confidence, OPTION_CONFIDENCE);
    doubts.push('an option description (its symbols are easily dropped)');
  }
  const why = doubts.length > 0 ? `doubtful: ${doubts.join(', ')}` : null;
  return { value: ticker === NO_TICKER ? text : rest, confidence, why, ticker, tickerConfidence: confidence };
}

/** A ticker in brackets, as filers write one after the name ("(GEV)", "(BRK.B)"). */
const BRACKETED_TICKER = /^\(([A-Z][A-Z0-9]{0,5}(?:[.-][A-Z])?)\)[.,]?$/;

/** A correction by the lexicon keeps at most this confidence: it is a good guess, not a reading. */
const CORRECTED_WORD = 0.9;
const OPTION_TEXT = /\b(PUT|CALL)\b/i;
const OPTION_CONFIDENCE = 0.75;

/** A word no list holds, when the lexicon has no issuer names to check it against. */
const UNCHECKED_WORD = 0.6;

/** Two listed words found run together: split, but not served as read. */
const SPLIT_WORD = 0.7;
/** A word run into a legal form or the usual security type, split before it. */
const SPLIT_BEFORE_FORM = 0.85;
const SPLIT_ONTO_FORM = (right: string, usualSuffix: string | null) =>
  LEGAL_FORMS.has(right) || right === usualSuffix;
/** A period after a whole word of five letters or more, inside a name. */
const DOUBTFUL_PUNCTUATION = 0.7;
const FULL_WORD = /^[A-Za-z]{5,}\.$/;
/** Abbreviated legal forms, written with a period. */
const LEGAL_FORMS: ReadonlySet<string> = new Set(['INC', 'CORP', 'CO', 'LTD', 'LLC', 'PLC', 'LP']);
/** A comma after an abbreviated legal form, with more of the name after it. */
const LEGAL_FORM_COMMA = new RegExp(`\\b(${[...LEGAL_FORMS].join('|')}),(?= )`, 'gi');
/** Abbreviations end in a period of their own ("HLDGS."). */
const ABBREVIATIONS: ReadonlySet<string> = new Set(SECURITY_WORDS);
/** The last word most of a document's asset names end with, read exactly: see usualAssetSuffix. */
const USUAL_SUFFIX = 0.9;
/** A word near a listed one but not surely it is not served as read. */
const DOUBTFUL_WORD = 0.4;

/** One word of an asset name as checked: its text now, how sure, and the lexicon's doubt. */
interface CheckedWord {
  text: string;
  confidence: number;
  /** The lexicon doubted the word as read: the doubt, and the listed word it is near. */
  doubt: { why: string; near: string } | null;
  /**
   * The two listed words the lexicon split the word into, served in its place unless the
   * issuer's whole name settles the word as one (settleByIssuer).
   */
  split?: string;
}

/**
 * An opening brace before a word with no bracket closing in it: no filer's software prints a
 * brace, and one read so, where no parenthesis was either, is a speck beside the word's first
 * letter (two of five readings of MICROCHIP TECHNOLOGY INCORPORA gave "{INCORPORA"). A brace
 * with a bracket after it ("{DEL}", "{DEL)") is a parenthesis misread, and left as read.
 */
const SPECK_BRACE = /^\{(?=[^(){}]*$)/;

/** A bar or a square bracket touching a letter or digit. */
const GLUED_BAR = /[|[\]][A-Za-z0-9]|[A-Za-z0-9][|[\]]/;

/**
 * Whether a word of a name holds a letter's upright stroke ("I", "l") read as a mark: a bar or a
 * square bracket touching a letter or digit ("|A" where IA was typed), or a round bracket opened
 * before one and closed nowhere after it in the name ("WOODWARD (NC" where INC was typed).
 * Tidied as a rule's remnant or taken as punctuation, the mark would take the letter with it.
 */
export function strokeReadAsMark(word: string, after: readonly string[]): boolean {
  if (GLUED_BAR.test(word)) return true;
  return /^\([A-Za-z0-9]/.test(word) && ![word, ...after].some((later) => later.includes(')'));
}

/** The initials of the two coupon months (six apart) of a bond maturing in each month. */
const COUPON_MONTHS = ['JJ', 'FA', 'MS', 'AO', 'MN', 'JD', 'JJ', 'FA', 'MS', 'AO', 'MN', 'JD'];

/** The coupon months a maturity date ("12/01/25") implies, or null for a word that is no date. */
function couponMonths(previous: string | undefined): string | null {
  const match = /^(\d{2})\/\d{2}\/\d{2}(?:\d{2})?$/.exec(previous ?? '');
  return match ? (COUPON_MONTHS[Number(match[1]) - 1] ?? null) : null;
}

/**
 * What each letter of a coupon pair may be read as: the thin J as a digit one or a narrow
 * letter ("1D", "ID", "lD"), and the D's round back closed into an O or a zero ("JO").
 */
const COUPON_LOOKALIKES: Readonly<Record<string, string>> = { J: 'J1IL|', D: 'DO0Q' };

/** Whether a word reads as the coupon pair `coupon`, letter by letter allowing its lookalikes. */
function readsAsCoupon(text: string, coupon: string): boolean {
  const read = text.toUpperCase();
  return (
    read.length === coupon.length &&
    [...coupon].every((letter, index) => (COUPON_LOOKALIKES[letter] ?? letter).includes(read[index] ?? ''))
  );
}

/** The cell's words checked against the lexicon: misreads corrected, doubtful ones named. */
function checkWords(
  cell: CellReading,
  lexicon: Lexicon | undefined,
  usualSuffix: string | null,
  spelledOtherwise: ReadonlySet<string>,
): { text: string; confidence: number; doubts: string[] } {
  const words = (cell.words ?? cell.text.split(/\s+/).map((text) => ({ text, confidence: cell.confidence })))
    .map((word) => ({ ...word, text: word.text.replace(SPECK_BRACE, '') }))
    .filter((word) => word.text !== '');
  if (words.length === 0) return { text: '', confidence: 0, doubts: [] };
  const doubts: string[] = [];
  const checked: CheckedWord[] = [];
  for (const [index, word] of words.entries()) {
    const entry: CheckedWord = { text: word.text, confidence: word.confidence, doubt: null };
    checked.push(entry);
    if (
      strokeReadAsMark(
        word.text,
        words.slice(index + 1).map((later) => later.text),
      )
    ) {
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_WORD);
      doubts.push(`"${word.text}" (a letter read as a mark?)`);
    }
    // The security-type word most of the document's names end with ("CMN"), read exactly there.
    if (word === words[words.length - 1] && word.text === usualSuffix)
      entry.confidence = Math.max(entry.confidence, USUAL_SUFFIX);
    const coupon = word === words[words.length - 1] ? couponMonths(checked[checked.length - 2]?.text) : null;
    if (coupon !== null && readsAsCoupon(word.text, coupon)) {
      // A bond's coupon months after its maturity date ("12/01/25 JD"): the pair of months six
      // apart that holds the maturity's month, so the date printed beside it confirms the word
      // ("1D", "ID" for JD are the thin J misread, "JO" its D closed: no pair has those letters
      // after that date).
      entry.text = coupon;
      entry.confidence = Math.max(entry.confidence, word.text === coupon ? USUAL_SUFFIX : CORRECTED_WORD);
      continue;
    }
    const bracketed = BRACKETED_TICKER.exec(word.text)?.[1];
    if (
      bracketed !== undefined &&
      checked.length > 1 &&
      lexicon?.issuers?.namesTicker(
        checked.slice(0, -1).map((entry) => entry.text),
        bracketed,
      )
    ) {
      // The issuer's own listed symbol after its name: known as read, whatever word it is near.
      continue;
    }
    const verdict = lexicon?.check(word.text) ?? { kind: 'known' as const };
    // With issuer names a word in no list is taken as a name of its own, unless it is two listed
    // words run together: a space the engine lost without a doubt of its own.
    const runTogether =
      verdict.kind === 'unknown' && lexicon?.knowsIssuers ? lexicon.runTogether(word.text) : null;
    const previous = checked[checked.length - 2]?.text.toUpperCase().replace(/[^A-Z]/g, '');
    if (/^(CLASS|CL|SERIES|SER)$/.test(previous ?? '') && /^[0158]$/.test(word.text)) {
      // A share class is a letter: "CLASS 8" is CLASS B.
      entry.text =
        ({ '0': 'O', '1': 'I', '5': 'S', '8': 'B' } as Record<string, string>)[word.text] ?? word.text;
      entry.confidence = Math.min(entry.confidence, CORRECTED_WORD - 0.1);
    } else if (verdict.kind === 'split' && SPLIT_ONTO_FORM(verdict.words[1], usualSuffix)) {
      // A name word run into a legal form or the document's security type ("VISAINC", "AONPLC",
      // "INCCMN"): the engine lost the space the filer's software prints before them.
      entry.text = word.text.replace(/[A-Za-z0-9&']+/, verdict.words.join(' '));
      entry.confidence = Math.min(entry.confidence, SPLIT_BEFORE_FORM);
    } else if (runTogether) {
      // Kept as read unless the issuer's whole name settles it: a name in no list can be made so
      // too (a place the place list lacks), and a person sees the split in the reason.
      const split = runTogether.join(' ');
      entry.confidence = Math.min(entry.confidence, SPLIT_WORD);
      entry.doubt = { why: `"${word.text}" (${split}?)`, near: split };
    } else if (verdict.kind === 'split') {
      // A name of its own can also be two listed words run together ("PROSUS", "PROS US"), or a
      // misread of one ("DTIS WORLDWIDE" is OTIS WORLDWIDE with its O read as a D): a split is a
      // guess a person confirms, unless the issuer's whole name settles the word (settleByIssuer).
      const split = verdict.words.join(' ');
      entry.split = word.text.replace(/[A-Za-z0-9&']+/, split);
      entry.confidence = Math.min(entry.confidence, SPLIT_WORD);
      entry.doubt = { why: `"${word.text}" (${split}?)`, near: split };
    } else if (verdict.kind === 'corrected' && lexicon?.knowsIssuers === false) {
      // Without issuer names "LINDE" is one confusion from an English word: nothing to correct by.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_WORD);
      doubts.push(`"${word.text}" (${verdict.word}?)`);
    } else if (
      verdict.kind === 'unknown' &&
      lexicon?.knowsIssuers === false &&
      /[A-Za-z]{4,}/.test(word.text)
    ) {
      // A word in no list may be an issuer's name or a misread of one ("METUFE"): unknown.
      entry.confidence = Math.min(entry.confidence, UNCHECKED_WORD);
      doubts.push(`"${word.text}" (in no word list)`);
    } else if (verdict.kind === 'corrected') {
      // Keep what surrounds the letters ("METUFE," becomes "METLIFE,").
      entry.text = word.text.replace(/[A-Za-z0-9&'](?:[A-Za-z0-9&'-]*[A-Za-z0-9&'])?/, verdict.word);
      entry.confidence = Math.min(entry.confidence, CORRECTED_WORD - verdict.cost / 4);
    } else if (verdict.kind === 'doubtful') {
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_WORD);
      entry.doubt = { why: `"${word.text}" (${verdict.near}?)`, near: verdict.near };
    } else if (
      lexicon?.knowsIssuers === false &&
      word === words[0] &&
      /^[A-Z]{3}$/.test(word.text) &&
      word.text !== 'THE' &&
      !ABBREVIATIONS.has(word.text)
    ) {
      // Three capitals leading a name are most often the issuer's acronym (CDW, PTC, NXP), which
      // only issuer names can check: an English word read there ("COW") may be a misread of one.
      entry.confidence = Math.min(entry.confidence, UNCHECKED_WORD);
      doubts.push(`"${word.text}" (an acronym no list holds?)`);
    }
  }
  settleUsualSuffix(checked, usualSuffix);
  confirmRepeatedClass(checked);
  if (lexicon?.issuers) settleByIssuer(checked, lexicon.issuers);
  // A split the issuer's name did not settle is served split, and stays doubted.
  for (const entry of checked) if (entry.doubt && entry.split !== undefined) entry.text = entry.split;
  if (lexicon?.issuers) {
    const spelling = nameLettersKey(checked.map((entry) => entry.text).join(' '));
    if (doubts.length === 0 && !spelledOtherwise.has(spelling))
      confirmByIssuer(checked, lexicon.issuers, usualSuffix);
  }
  let confidence = 1;
  checked.forEach((entry, index) => {
    const last = index === checked.length - 1;
    if (entry.doubt) doubts.push(entry.doubt.why);
    const { text } = entry;
    if (/^[A-Za-z]+,$/.test(text) && !last && LEGAL_FORMS.has(text.slice(0, -1).toUpperCase())) {
      // Legal forms are abbreviated with a period ("INC. CMN"); a comma after one inside a name
      // is the likelier misread, the mirror of the case below.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_PUNCTUATION);
      doubts.push(`"${text}" (period?)`);
    }
    if (
      text.endsWith('.') &&
      !last &&
      FULL_WORD.test(text) &&
      !ABBREVIATIONS.has(text.slice(0, -1).toUpperCase())
    ) {
      // A period and a comma differ by a few pixels; after a whole word ("FUNDING.") a comma
      // is the likelier, whatever the engine's confidence.
      entry.confidence = Math.min(entry.confidence, DOUBTFUL_PUNCTUATION);
      doubts.push(`"${text}" (comma?)`);
    }
    confidence = Math.min(confidence, entry.confidence);
  });
  return { text: checked.map((entry) => entry.text).join(' '), confidence, doubts };
}

/** A doubted word settled as the document's usual last word ("CMIN" for CMN). */
const USUAL_SUFFIX_SETTLED = 0.85;

/**
 * The last word, doubted by the lexicon as near the word most of the document's names end with
 * ("CMIN", near CMN), is that word: the filer's software prints it after every name, and the
 * lexicon's own nearest word lands on it.
 */
function settleUsualSuffix(checked: CheckedWord[], usualSuffix: string | null): void {
  const last = checked[checked.length - 1];
  if (!last?.doubt || usualSuffix === null || last.doubt.near !== usualSuffix) return;
  last.text = last.text.replace(/[A-Za-z0-9&']+/, usualSuffix);
  last.confidence = USUAL_SUFFIX_SETTLED;
  last.doubt = null;
}

/** A share class the name gave before, read again at its end: see confirmRepeatedClass. */
const CLASS_REPEATED = 0.85;
/** How surely the class the name gave first must be read to confirm the one at its end. */
const CLASS_READ_FIRST = 0.8;

/** The share class a word or a pair of words gives ("CL B", "CLASS B", "CL-A"), or null. */
function shareClass(first: string | undefined, second: string | undefined): string | null {
  const word = (text: string | undefined) => (text ?? '').toUpperCase().replace(/[.,]$/, '');
  const joined = /^(?:CL|CLASS)-([A-Z])$/.exec(word(first));
  if (joined) return joined[1] ?? null;
  return /^(?:CL|CLASS)$/.test(word(first)) && /^[A-Z]$/.test(word(second)) ? word(second) : null;
}

/**
 * A name ending in the share class it already gave ("UNIVERSAL HEALTH SVC CL B CMN CLASS B": the
 * statement prints the class in the issue's name and again after its type) has its last two
 * words confirmed by the first: two prints of the letter read alike, the first of them surely and
 * without doubt, would both have to be misread into the same other class. The last pair is taken
 * at CLASS_REPEATED at least; a different letter, or a first print read unsurely, leaves both as read.
 */
function confirmRepeatedClass(checked: CheckedWord[]): void {
  const last = checked.length - 1;
  const end = shareClass(checked[last - 1]?.text, checked[last]?.text);
  if (end === null) return;
  const earlier = checked.slice(0, last - 1).some((entry, index) => {
    const next = checked[index + 1];
    const joined = shareClass(entry.text, undefined);
    const words = joined !== null ? [entry] : index + 1 < last - 1 && next ? [entry, next] : [];
    const letter = joined ?? (words.length === 2 ? shareClass(entry.text, next?.text) : null);
    return (
      letter === end && words.every((word) => word.doubt === null && word.confidence >= CLASS_READ_FIRST)
    );
  });
  if (!earlier) return;
  for (const entry of checked.slice(last - 1))
    if (entry.doubt === null) entry.confidence = Math.max(entry.confidence, CLASS_REPEATED);
}

/** `word` written in the case of `read`: "Mamt" settled as MGMT is "Mgmt". */
function inCaseOf(read: string, word: string): string {
  const letters = read.replace(/[^A-Za-z]/g, '');
  if (letters === letters.toLowerCase()) return word.toLowerCase();
  if (letters.slice(1) === letters.slice(1).toLowerCase())
    return (word[0] ?? '') + word.slice(1).toLowerCase();
  return word;
}

/** A doubted word the issuer's whole name settles, with no letter changed. */
const ISSUER_MATCH = 0.9;
/** What each letter the issuer's name changes costs a settled word's confidence. */
const ISSUER_EDIT_COST = 0.03;

/**
 * Doubted words settled by the one issuer name the whole name read begins with (issuer-names.ts):
 * each is replaced by the issuer's word, keeping a comma or period after it, at a confidence
 * that falls with the letters changed. Hyphenated words are matched part by part.
 */
function settleByIssuer(checked: CheckedWord[], issuers: IssuerNames): void {
  const parts: Array<{ entry: number; text: string }> = [];
  const doubted = new Set<number>();
  const suggested = new Map<number, string>();
  checked.forEach((entry, index) => {
    const pieces = entry.text.split('-').filter((piece) => piece !== '');
    for (const piece of pieces) {
      if (entry.doubt) {
        doubted.add(parts.length);
        if (pieces.length === 1) suggested.set(parts.length, entry.doubt.near);
      }
      parts.push({ entry: index, text: piece });
    }
  });
  const corrections = issuers.correct(
    parts.map((part) => part.text),
    doubted,
    suggested,
  );
  if (!corrections) return;
  const byEntry = new Map<number, number>();
  for (const correction of corrections) {
    const part = parts[correction.index];
    if (!part) continue;
    part.text = inCaseOf(part.text, correction.word) + (/[.,]$/.exec(part.text)?.[0] ?? '');
    byEntry.set(part.entry, Math.max(byEntry.get(part.entry) ?? 0, correction.edits));
  }
  for (const [index, edits] of byEntry) {
    const entry = checked[index];
    if (!entry) continue;
    entry.text = parts
      .filter((part) => part.entry === index)
      .map((part) => part.text)
      .join('-');
    entry.confidence = ISSUER_MATCH - ISSUER_EDIT_COST * edits;
    entry.doubt = null;
  }
}

/** A word as printed: letters, digits, "&", an apostrophe or inner stops, a stop after. */
const CLEAN_WORD = /^[A-Za-z0-9&](?:[A-Za-z0-9&'.\- ]*[A-Za-z0-9&.])?[.,]?$/;
/** The words of a name read as one issuer's whole name, with no neighbour near it. */
const ISSUER_CONFIRMED = 0.85;

/**
 * A name read as exactly one issuer's whole name ("MSCI INC. CMN": MSCI Inc.), followed by
 * nothing or by the document's usual last word, and far (in letters) from every other issuer's
 * name: the engine's low score on a word ("MSCI" at 0.53) is outweighed, since a misread would
 * have to land letter for letter on a listed name that no other listed name is near. Its words
 * are taken at ISSUER_CONFIRMED at least; the stops are not checked by this (the checks of
 * periods and commas after still apply), nor is any word after the issuer's name but the usual
 * one ("CLASS A" and "CLASS C" follow the same issuer). A name with a doubted word is not
 * confirmed.
 */
function confirmByIssuer(checked: CheckedWord[], issuers: IssuerNames, usualSuffix: string | null): void {
  // A stray mark on a word ("‘GENERAL") is no letter of the name, and not confirmed by it.
  if (checked.some((entry) => entry.doubt || !CLEAN_WORD.test(entry.text))) return;
  const parts = checked.flatMap((entry, index) =>
    entry.text
      .split(/[\s-]+/)
      .filter((piece) => piece !== '')
      .map((text) => ({ entry: index, text })),
  );
  const count = issuers.confirmedWords(parts.map((part) => part.text));
  if (count === 0) return;
  const rest = parts.slice(count);
  if (rest.length > 1 || (rest.length === 1 && rest[0]?.text !== usualSuffix)) return;
  // A word holding both the issuer's last word and the suffix ("INC CMN", split) is confirmed whole.
  for (const entry of new Set(parts.slice(0, count).map((part) => part.entry))) {
    const word = checked[entry];
    if (word) word.confidence = Math.max(word.confidence, ISSUER_CONFIRMED);
  }
}
