// A scanned 278-T's description judged from its readings. The cell is read at two or three scales
// (readTextCell); where they differ, the words they differ on are what is doubtful, not the whole
// name: a reading that differs only in the marks around its words, or in specks read after a
// bond's maturity (where the grammar ends), says nothing against the others, while one that reads
// a letter or a digit otherwise ("STDNT" against "STONT", a "5" the others lost) leaves the name
// to a person whichever side most readings took; so does a word that is two listed words run
// together ("BELTENERGY": a space that every reading of a crisp print may lose). A bond's maturity
// has a fixed grammar ("Due Sep 1, 2026"): its punctuation is written as the form types it, and a
// word one letter from the grammar's is proposed, and settled when that letter is one the form's
// type face turns into another ("Duo", "Sop", "Doc": its closed "e"; "Auq": its closed "g") or
// when another reading of the cell read the proposed word itself. Two kinds of dissent are settled
// by a second piece of evidence: a word in no list that another reading read as the listed word the
// lexicon would correct it to ("STONT" beside "STDNT"), and listed words run together that another
// description of the document read apart ("BELT ENERGY").
import { distance } from 'fastest-levenshtein';
import { assetField } from './asset-field.js';
import type { CellReading, TextReading } from './house-page.js';
import type { Field } from './judged-fields.js';
import type { Lexicon } from './lexicon.js';
import { REVIEW_THRESHOLD } from './scanned-rows.js';

/** A description whose words fail the checks below. */
const DOUBTFUL_DESCRIPTION = 0.5;
/**
 * What a word with digits keeps of the engine's confidence in a cell read once: no list checks a
 * coupon or a year. Read at two scales, the cell's digits are checked by its readings instead: a
 * digit read otherwise at one of them ("2048" against "2049") doubts the name.
 */
const DIGIT_WORD = 0.9;
/**
 * A word settled by two agreeing pieces of evidence (a reading and the lexicon, or the document's
 * other descriptions): at most this sure, whatever the engine scored the reading it replaces.
 */
const SETTLED_WORD = 0.85;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/**
 * Letters the form's type face reads as another, by what was read: its "e" closes into an "o" or
 * loses its bar to a "c", its "g" closes into a "q". A maturity word one such letter from the only
 * word of the grammar it is near is what was typed; any other letter leaves it a guess.
 */
const FACE_MISREADS: Readonly<Record<string, string>> = { o: 'e', c: 'e', q: 'g' };

type DescriptionField = Field<string> & { ticker: string; tickerConfidence: number };

/**
 * The description's value and confidence: its least sure word's (in a cell read once, a word with
 * digits keeps less of it: a coupon, a maturity or a year misread passes every list), its maturity
 * written as the form types it; doubted where its readings differ in a letter or a digit (but
 * for a word another reading read as the word the lexicon corrects it to: `settledWords`), where a
 * maturity's word had to be proposed from a letter the face does not misread and no reading read
 * it so, where the lexicon would correct a word, and where a word is listed words run together
 * (`Lexicon.runTogether`: two long ones, or any in a word of 12 letters or more) that no other
 * description of the document read apart. Words are not corrected by the lexicon alone here: a
 * bond's abbreviations ("CLLG", "SPLY") are one confusion from other words, and nothing tells
 * which was typed. A cell read without its readings kept is doubted by its share of agreeing
 * readings, as any read cell.
 */
export function descriptionField(
  cell: CellReading,
  lexicon: Lexicon | undefined,
  /** Pairs of words ("BELT ENERGY") that other descriptions of the document read apart surely. */
  readApart: ReadonlySet<string> = new Set(),
): DescriptionField {
  const readOnce = (cell.readings?.length ?? 0) < 2;
  const read = surestWords(cell).map((word) => ({
    text: word.text,
    confidence: readOnce && /\d/.test(word.text) ? word.confidence * DIGIT_WORD : word.confidence,
  }));
  const chosen = parsed(read.map((word) => word.text));
  const dissenting = (cell.readings ?? []).filter((reading) => reading.text !== cell.text);
  const others = dissenting.map((reading) => parsed(reading.words.map((word) => word.text)));
  const stretches = others.flatMap((other) => differences(chosen, other));
  const settled = settledWords(stretches, chosen, read, dissenting, lexicon);
  const words = read.flatMap((word) => settledWord(word, settled, readApart, lexicon));
  const texts = words.map((word) => word.text);
  // Each stretch said once, however many readings said it otherwise.
  const doubts = [
    ...new Set(
      stretches.filter((stretch) => !settles(stretch, settled)).map((stretch) => described(stretch)),
    ),
  ];
  // Readings alike but for what the comparison forgives: the name is as sure as its words.
  const agreement = cell.readings !== undefined && doubts.length === 0 ? 1 : cell.agreement;
  const field = assetField({ ...cell, words, agreement, readings: undefined }, 1, undefined, null);
  for (const slot of chosen.maturity?.slots ?? []) {
    if (slot.doubt === null) continue;
    const confirmed =
      slot.proposed &&
      others.some((other) =>
        other.maturity?.slots.some(
          (its) =>
            its.name === slot.name && !its.proposed && its.doubt === null && its.written === slot.written,
        ),
      );
    if (!confirmed) doubts.push(`"${slot.read}" (${slot.doubt})`);
  }
  for (const mark of cell.marks ?? [])
    doubts.push(`"${mark.text}" after "${mark.after}" (a letter or digit?)`);
  for (const text of texts) {
    // A coupon's decimal point read as a comma: a comma in a number takes three digits after it.
    if (/^\d+,\d{1,2}$/.test(text)) doubts.push(`"${text}" (a decimal point?)`);
    const verdict = lexicon?.check(text);
    if (verdict?.kind === 'corrected') doubts.push(`"${text}" (${verdict.word}?)`);
    const parts = lexicon?.runTogether(text);
    if (parts) doubts.push(`"${text}" (${parts.join(' ')}?)`);
  }
  const maturity = chosen.maturity;
  let value = field.value;
  if (maturity && maturity.read !== maturity.written) {
    // Served as read, a maturity the grammar writes otherwise would be wrong: never unflagged.
    if (value.includes(maturity.read)) value = value.replace(maturity.read, maturity.written);
    else doubts.push(`"${maturity.read}" (${maturity.written}?)`);
  }
  if (doubts.length === 0) return { ...field, value };
  return {
    ...field,
    value,
    confidence: Math.min(field.confidence, DOUBTFUL_DESCRIPTION),
    tickerConfidence: Math.min(field.tickerConfidence, DOUBTFUL_DESCRIPTION),
    why: `doubtful: ${doubts.join(', ')}${value !== field.value ? ` (proposed: "${value}")` : ''}`,
  };
}

interface Slot {
  name: 'due' | 'month' | 'day' | 'year';
  read: string;
  written: string;
  /** Written otherwise than read in a letter or a digit: a guess until a reading confirms it. */
  proposed: boolean;
  /** Why the word is doubtful ("a month?"), null when it reads as the grammar's. */
  doubt: string | null;
}

interface Maturity {
  /** The words as read, joined ("Duo Sop 1. 2026"), and as the form types them. */
  read: string;
  written: string;
  slots: Slot[];
  /** Whether the maturity runs to its year: nothing of the name follows it. */
  dated: boolean;
}

/** One reading: what its words say with its maturity written out, and that maturity. */
interface Parsed {
  /** Each word in capitals without the marks around it (keyOf); the maturity's as written. */
  keys: string[];
  maturity: Maturity | null;
  /** The keys up to the maturity's year, when it has one. */
  dated: number | null;
}

function parsed(texts: readonly string[]): Parsed {
  const keys: string[] = [];
  let maturity: Maturity | null = null;
  let dated: number | null = null;
  for (let index = 0; index < texts.length; index++) {
    const found: Maturity | null = maturity === null ? maturityOf(texts.slice(index, index + 4)) : null;
    if (found) {
      maturity = found;
      keys.push(...found.written.split(' ').map(keyOf));
      if (found.dated) dated = keys.filter((key) => key !== '').length;
      index += found.read.split(' ').length - 1;
      continue;
    }
    keys.push(keyOf(texts[index] ?? ''));
  }
  return { keys: keys.filter((key) => key !== ''), maturity, dated };
}

/**
 * A word in capitals without the marks around it ("'WAUPUN", "1,"): those inside it stay, since
 * they are part of what was typed ("B/E", "IN-MLTI", the point of "5.00" that a comma would change).
 */
function keyOf(word: string): string {
  return word.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '').toUpperCase();
}

/**
 * What another reading says otherwise than the chosen one, word by word. What it reads after its
 * maturity's year, when the chosen reading ends at its own, is not the name: specks at the cell's
 * edge. The chosen reading's own words after its year are compared as any.
 */
function differences(chosen: Parsed, other: Parsed): Gap[] {
  const endsAtYear = chosen.dated !== null && chosen.dated === chosen.keys.length;
  const theirs = endsAtYear && other.dated !== null ? other.keys.slice(0, other.dated) : other.keys;
  return alignment(chosen.keys, theirs).gaps;
}

/**
 * The chosen reading's words, each at the surest confidence a reading of the cell that read the
 * same word there gave it (aligned on the words the readings share): the engine scores one print
 * differently at each scale, and the scale it reads best says most of it, as the surest of a
 * House name's agreeing readings does. What the readings read otherwise is weighed apart.
 */
function surestWords(cell: CellReading): Array<{ text: string; confidence: number }> {
  const words = (cell.words ?? []).map((word) => ({ ...word }));
  const keys = words.map((word) => keyOf(word.text));
  for (const reading of cell.readings ?? []) {
    const { matches } = alignment(
      keys,
      reading.words.map((word) => keyOf(word.text)),
    );
    for (const [ours, theirs] of matches) {
      const word = words[ours];
      const other = reading.words[theirs];
      if (word && other && keys[ours] !== '') word.confidence = Math.max(word.confidence, other.confidence);
    }
  }
  return words;
}

function described({ onlyOurs, onlyTheirs, after }: Gap): string {
  if (onlyOurs.length === 0)
    return `another reading has ${quoted(onlyTheirs)}${after ? ` after "${after}"` : ''}`;
  if (onlyTheirs.length === 0) return `another reading has no ${quoted(onlyOurs)}`;
  return `${quoted(onlyOurs)} read ${quoted(onlyTheirs)} at another scale`;
}

/**
 * The chosen reading's words that other readings read as a listed word, each with that word and
 * the surer of the two readings' confidences: a word in no list, once in the description, that
 * every reading dissenting on it read as one same listed word, the very word the lexicon would
 * correct it to (`readAsListed`: "STONT", STDNT with its D closed). Either alone is a guess: the
 * lexicon proposes, a reading of the print confirms (the engine may score the reading that saw the
 * letter right below the one that misread it). Never a word with a digit (no list checks one).
 */
function settledWords(
  stretches: readonly Gap[],
  chosen: Parsed,
  chosenWords: ReadonlyArray<{ text: string; confidence: number }>,
  dissenting: readonly TextReading[],
  lexicon: Lexicon | undefined,
): Map<string, { word: string; confidence: number }> {
  const proposed = new Map<string, string | null>();
  for (const { onlyOurs, onlyTheirs } of stretches) {
    const [ours] = onlyOurs;
    const [theirs] = onlyTheirs;
    const listedOver =
      lexicon !== undefined &&
      ours !== undefined &&
      theirs !== undefined &&
      onlyOurs.length === 1 &&
      onlyTheirs.length === 1 &&
      readAsListed(ours, theirs, lexicon);
    if (!listedOver) {
      for (const key of onlyOurs) proposed.set(key, null);
      continue;
    }
    const before = proposed.get(ours);
    proposed.set(ours, before === undefined || before === theirs ? theirs : null);
  }
  const settled = new Map<string, { word: string; confidence: number }>();
  for (const [ours, theirs] of proposed) {
    if (theirs === null || chosen.keys.filter((key) => key === ours).length !== 1) continue;
    const read = [...chosenWords, ...dissenting.flatMap((reading) => reading.words)].filter((word) =>
      [ours, theirs].includes(keyOf(word.text)),
    );
    const surest = Math.max(0, ...read.map((word) => word.confidence));
    settled.set(ours, { word: theirs, confidence: Math.min(surest, SETTLED_WORD) });
  }
  return settled;
}

/**
 * Whether the lexicon would correct `ours` to the listed word `theirs` (one cheap confusion, the
 * only listed word so near, five letters or more), knowing issuer names: what a House name is
 * corrected on by the lexicon alone. Near only by an edit ("GMNTY" for CMNTY), or without issuer
 * names (an issuer's own word may be one confusion from a listed one, and a reading may misread it
 * so), the dissent stands.
 */
function readAsListed(ours: string, theirs: string, lexicon: Lexicon): boolean {
  if (!lexicon.knowsIssuers || /\d/.test(ours + theirs) || !lexicon.has(theirs)) return false;
  const verdict = lexicon.check(ours);
  return verdict.kind === 'corrected' && verdict.word === theirs;
}

/** Whether a stretch one reading read otherwise is the word `settledWords` settled. */
function settles({ onlyOurs, onlyTheirs }: Gap, settled: ReadonlyMap<string, { word: string }>): boolean {
  const [ours] = onlyOurs;
  return onlyOurs.length === 1 && onlyTheirs.length === 1 && settled.get(ours ?? '')?.word === onlyTheirs[0];
}

/**
 * A word of the chosen reading as served: as settled by another reading, or split where it runs
 * together two listed words that another description of the document read apart, every reading
 * of it sure of both (a filer's bonds of one issuer share its name: "BLACK BELT ENERGY GAS DIST").
 * The marks around the word stay around what replaces it.
 */
function settledWord(
  word: { text: string; confidence: number },
  settled: ReadonlyMap<string, { word: string; confidence: number }>,
  readApart: ReadonlySet<string>,
  lexicon: Lexicon | undefined,
): Array<{ text: string; confidence: number }> {
  const [, lead = '', core = '', trail = ''] = /^([^A-Za-z0-9]*)(.*?)([^A-Za-z0-9]*)$/.exec(word.text) ?? [];
  const by = settled.get(keyOf(word.text));
  if (by) return [{ text: `${lead}${by.word}${trail}`, confidence: by.confidence }];
  const parts = lexicon?.runTogether(core);
  if (parts?.length !== 2 || !readApart.has(parts.join(' '))) return [word];
  const confidence = Math.min(word.confidence, SETTLED_WORD);
  return [
    { text: `${lead}${parts[0]}`, confidence },
    { text: `${parts[1]}${trail}`, confidence },
  ];
}

/**
 * Pairs of adjacent words ("BELT ENERGY") read apart by every reading of a description, each word
 * of them read at the review threshold or above in each: what `descriptionField` splits a word of
 * another row by.
 */
export function wordsReadApart(cells: readonly CellReading[]): Set<string> {
  const apart = new Set<string>();
  for (const cell of cells) {
    const readings = cell.readings?.length
      ? cell.readings.map((reading) => reading.words)
      : [cell.words ?? []];
    const [first, ...rest] = readings.map((words) => surePairs(words));
    for (const pair of first ?? []) if (rest.every((pairs) => pairs.has(pair))) apart.add(pair);
  }
  return apart;
}

function surePairs(words: ReadonlyArray<{ text: string; confidence: number }>): Set<string> {
  const pairs = new Set<string>();
  const sure = (word: { text: string; confidence: number } | undefined) =>
    word !== undefined &&
    word.confidence >= REVIEW_THRESHOLD.asset_description &&
    /^[A-Z]+$/.test(keyOf(word.text));
  words.forEach((word, index) => {
    const next = words[index + 1];
    if (sure(word) && sure(next)) pairs.add(`${keyOf(word.text)} ${keyOf(next?.text ?? '')}`);
  });
  return pairs;
}

function quoted(keys: readonly string[]): string {
  return `"${keys.join(' ')}"`;
}

/** A stretch of words one reading has and the other has not, or has otherwise. */
interface Gap {
  onlyOurs: string[];
  onlyTheirs: string[];
  /** The word both have before it, if any. */
  after: string | undefined;
}

/**
 * Two sequences of words aligned on their longest common subsequence: the pairs of positions that
 * hold the same word, and where they part, each stretch between two words both have.
 */
function alignment(
  a: readonly string[],
  b: readonly string[],
): { gaps: Gap[]; matches: Array<[number, number]> } {
  // common[i][j]: the longest common subsequence of a from i and b from j.
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = common[i] as number[];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        a[i] === b[j]
          ? (common[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(common[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const found: Gap[] = [];
  const matches: Array<[number, number]> = [];
  let open: Gap | null = null;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      matches.push([i, j]);
      open = null;
      i++;
      j++;
      continue;
    }
    if (!open) {
      open = { onlyOurs: [], onlyTheirs: [], after: a[i - 1] };
      found.push(open);
    }
    if (j >= b.length || (i < a.length && (common[i + 1]?.[j] ?? 0) >= (common[i]?.[j + 1] ?? 0)))
      open.onlyOurs.push(a[i++] ?? '');
    else open.onlyTheirs.push(b[j++] ?? '');
  }
  return { gaps: found, matches };
}

/**
 * A bond's maturity as read ("Duo Sop 1. 2026": up to four words from a "Due"-like word on) and as
 * the form types it ("Due Sep 1, 2026"); null when the words are no maturity. Its grammar is fixed:
 * the day's comma is the form's, whatever mark was read; a word one letter from "Due" or from a
 * single month ("Sop", "Doc", "Auq", "Fab") is proposed as that word, settled when the letter is one
 * the face misreads (FACE_MISREADS); "Jen" (Jan or Jun?) stays as read.
 */
function maturityOf(words: readonly string[]): Maturity | null {
  const [due = '', month = '', ...rest] = words;
  if (!/^d[uo][eoac]$/i.test(due) || !/^[a-z]{3}\.?$/i.test(month)) return null;
  const caps = due === due.toUpperCase();
  const cased = (word: string) => (caps ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1));
  const slots: Slot[] = [
    /^due$/i.test(due)
      ? { name: 'due', read: due, written: due, proposed: false, doubt: null }
      : {
          name: 'due',
          read: due,
          written: cased('due'),
          proposed: true,
          doubt: faceMisread(due, 'due') ? null : 'Due?',
        },
    monthSlot(month, cased),
  ];
  // "Sep 1, 2026", also read as "1. 2026", "1 2026" or "1,2026" (one word).
  const joined = /^(\d{1,2})[.,](\d{4})$/.exec(rest[0] ?? '');
  const [day = '', year = ''] = joined ? [`${joined[1]},`, joined[2] ?? ''] : rest;
  const dated = /^\d{4}$/.test(year);
  const count = joined ? 3 : dated ? 4 : Math.min(words.length, 3);
  const dayRead = joined ? (rest[0] ?? '') : day;
  if (count >= 3) {
    const digits = /^(\d{1,2})[.,]?$/.exec(day)?.[1];
    if (dated && digits !== undefined)
      slots.push({ name: 'day', read: dayRead, written: `${digits},`, proposed: false, doubt: null });
    else
      slots.push({
        name: 'day',
        read: dayRead,
        written: day,
        proposed: false,
        doubt: dated ? 'a day?' : null,
      });
  }
  if (dated)
    slots.push({ name: 'year', read: joined ? '' : year, written: year, proposed: false, doubt: null });
  const read = words.slice(0, count).join(' ');
  return { read, written: slots.map((slot) => slot.written).join(' '), slots, dated };
}

function monthSlot(month: string, cased: (word: string) => string): Slot {
  const bare = month.replace('.', '').toLowerCase();
  if (MONTHS.includes(bare))
    return { name: 'month', read: month, written: month, proposed: false, doubt: null };
  const near = MONTHS.filter((name) => distance(bare, name) === 1);
  const named = near.length === 1 ? near[0] : undefined;
  if (named === undefined)
    return { name: 'month', read: month, written: month, proposed: false, doubt: 'a month?' };
  const doubt = faceMisread(bare, named) ? null : 'a month?';
  return { name: 'month', read: month, written: cased(named), proposed: true, doubt };
}

/** Whether `read` is `word` with one letter read as the type face misreads it (FACE_MISREADS). */
function faceMisread(read: string, word: string): boolean {
  const lower = read.toLowerCase();
  if (lower.length !== word.length) return false;
  const differing = [...lower].flatMap((letter, index) => (letter === word[index] ? [] : [index]));
  const [at] = differing;
  return differing.length === 1 && at !== undefined && FACE_MISREADS[lower[at] ?? ''] === word[at];
}
