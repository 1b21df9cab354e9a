// A scanned 278-T's description judged from constructed readings (what the engine might return for
// the cell at each scale; the dissents are modelled on those the real scan's cells gave): the
// maturity's grammar, and the readings weighed word by word.
import { describe, expect, it } from 'vitest';
import { cell } from '../../test-support/ocr-rows.js';
import type { CellReading } from './house-page.js';
import { Lexicon } from './lexicon.js';
import { descriptionField, wordsReadApart } from './oge-description.js';
import { REVIEW_THRESHOLD } from './scanned-rows.js';

const THRESHOLD = REVIEW_THRESHOLD.asset_description;
const judged = (text: string, confidence = 0.95) => descriptionField(cell(text, confidence), undefined);

/** The cell as read at several scales: the first text is the one chosen, the others dissent or agree. */
function readAt(chosen: string, ...others: string[]): CellReading {
  const texts = [chosen, ...others];
  const alike = texts.filter((text) => text === chosen).length;
  return {
    ...cell(chosen, 0.95),
    agreement: alike / texts.length,
    readings: texts.map((text) => ({ text, words: cell(text, 0.95).words ?? [] })),
  };
}

describe('a scanned 278-T description', () => {
  it('flags a maturity word that reads as neither "Due" nor a month, and a year read at 0.85', () => {
    const sap = judged('ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % Due Sap 1, 2026');
    expect(sap.confidence).toBeLessThan(THRESHOLD);
    expect(sap.why).toMatch(/"Sap" \(a month\?\)/);
    expect(judged('JENISON MI PUB SCHS RFDG B/E 5.00 % Dua May 1, 2026').why).toMatch(/"Dua" \(Due\?\)/);
    // Read once, a word with digits keeps less of the engine's confidence: no list checks a digit.
    expect(judged('BLACK BELT GAS B/E 4.00 % Due Oct 1, 2049', 0.85).confidence).toBeLessThan(THRESHOLD);
  });

  it("takes digits read alike at two scales at the engine's confidence", () => {
    // The real scan's first row: its coupon read "5%" at 0.84 at both scales.
    const american = 'AMERICAN MUN PWR OH ELECT UTIL 5% DUE 02/15/34';
    const words = cell(american, 0.84).words ?? [];
    const twice = descriptionField(
      {
        ...cell(american, 0.84),
        readings: [
          { text: american, words },
          { text: american, words },
        ],
      },
      undefined,
    );
    expect(twice).toMatchObject({ value: american, why: null });
    expect(twice.confidence).toBeCloseTo(0.84);
    expect(twice.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    expect(descriptionField(cell(american, 0.84), undefined).confidence).toBeLessThan(THRESHOLD);
  });

  it('proposes the maturity as the form types it, and keeps the row doubtful', () => {
    const sap = judged('ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % Due Sap 1, 2026');
    expect(sap.value).toBe('ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % Due Sep 1, 2026');
    expect(sap.why).toMatch(/"Sap" \(a month\?\) \(proposed: "ALABAMA .* Due Sep 1, 2026"\)$/);
    expect(judged('JENISON MI PUB SCHS RFDG B/E 5.00 % Duo May 1, 2026').value).toBe(
      'JENISON MI PUB SCHS RFDG B/E 5.00 % Due May 1, 2026',
    );
    expect(judged('ALACHUA CNTY FL B2 B/E 5.00 % Due Doc 1. 2037').value).toBe(
      'ALACHUA CNTY FL B2 B/E 5.00 % Due Dec 1, 2037',
    );
    expect(judged('WILLISTON BASIN B/E CR ENH 5.00 % Due Auq 1 2026').value).toBe(
      'WILLISTON BASIN B/E CR ENH 5.00 % Due Aug 1, 2026',
    );
    // A name that ends at the month: nothing added after it.
    expect(judged('MUNI B/E 5.00 % Duo Sop').value).toBe('MUNI B/E 5.00 % Due Sep');
    // One letter from two months (Jan, Jun): left as read, still doubtful.
    const jen = judged('PAGE CNTY IA JAIL 2024 B B/E 4.00 % Due Jen 1, 2026');
    expect(jen.value).toBe('PAGE CNTY IA JAIL 2024 B B/E 4.00 % Due Jen 1, 2026');
    expect(jen.confidence).toBeLessThan(THRESHOLD);
    expect(jen.why).not.toMatch(/proposed/);
  });

  it("writes the day's comma as the form types it, and doubts a day that is no number", () => {
    for (const read of ['1. 2026', '1 2026', '1.2026', '1,2026', '1, 2026']) {
      const field = judged(`TUPELO MS PUB SCH DIST B/E PTC 4.00 % Due Sep ${read}`);
      expect(field.value).toBe('TUPELO MS PUB SCH DIST B/E PTC 4.00 % Due Sep 1, 2026');
      expect(field.why).toBeNull();
      expect(field.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    }
    const letter = judged('TUPELO MS PUB SCH DIST B/E PTC 4.00 % Due Sep l, 2026');
    expect(letter.why).toMatch(/"l," \(a day\?\)/);
    expect(letter.confidence).toBeLessThan(THRESHOLD);
  });

  it('takes readings that differ only in marks or in specks after the maturity as agreeing', () => {
    const kentucky = 'KENTUCKY INC KY PUB ENERGY AUTH GAS SPLY REV SER A B/E 4.00 % Due Dec 1, 2050';
    const marks = descriptionField(readAt(kentucky, kentucky.replace('1,', '1.'), `'${kentucky}`), undefined);
    expect(marks).toMatchObject({ value: kentucky, why: null });
    expect(marks.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    const gmg = 'GMG CMNTY SCH DIST IA AGI B/E B/Q 5.00 % Due Jun 1, 2026';
    const specks = descriptionField(readAt(gmg, `${gmg} ol`, `${gmg} B`), undefined);
    expect(specks).toMatchObject({ value: gmg, why: null });
    expect(specks.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    // Without the readings kept, a split vote lowers the name as it lowers any read cell.
    const unknown = descriptionField(
      { ...readAt(gmg, `${gmg} ol`, `${gmg} B`), readings: undefined },
      undefined,
    );
    expect(unknown.confidence).toBeLessThan(specks.confidence);
  });

  it('doubts a word its readings read otherwise, whichever side most of them took', () => {
    const stont = 'GWINNETT CLLG STONT CTR PJ B B/E 5.00 % Due Jul 1, 2026';
    const wrong = descriptionField(readAt(stont, stont, stont.replace('STONT', 'STDNT')), undefined);
    expect(wrong.value).toBe(stont);
    expect(wrong.confidence).toBeLessThan(THRESHOLD);
    expect(wrong.why).toMatch(/"STONT" read "STDNT" at another scale/);
    // A word the chosen reading lost, and a digit read otherwise.
    const lost = 'BLACK BELT GAS PREPAY REV PJ SER A 1 B/E 4.00 % Due Oct 1, 2048';
    const other = 'BLACK BELT GAS PREPAY REV PJ 5 SER A 1 B/E 4.00 % Due Oct 1, 2049';
    const digits = descriptionField(readAt(lost, lost, other), undefined);
    expect(digits.confidence).toBeLessThan(THRESHOLD);
    expect(digits.why).toMatch(/another reading has "5" after "PJ"/);
    expect(digits.why).toMatch(/"2048" read "2049" at another scale/);
    // A mark read between two words, all readings alike: ink that was not read as a letter or digit.
    const marked = { ...cell(lost), marks: [{ after: 'PJ', text: '§' }] };
    const mark = descriptionField(marked, undefined);
    expect(mark.confidence).toBeLessThan(THRESHOLD);
    expect(mark.why).toMatch(/"§" after "PJ" \(a letter or digit\?\)/);
    // A mark inside a word is part of it: a coupon's point read as a comma is another number.
    const cleveland = 'CLEVELAND OH CTF PARTN RFDG CLEVELAND STAD PJ REV B/E 5,00 % Due Nov 15, 2026';
    const comma = descriptionField(
      readAt(cleveland, cleveland, cleveland.replace('5,00', '5.00')),
      undefined,
    );
    expect(comma.confidence).toBeLessThan(THRESHOLD);
    expect(comma.why).toMatch(/"5,00" read "5\.00" at another scale/);
    expect(comma.why).toMatch(/"5,00" \(a decimal point\?\)/);
    expect(judged(cleveland).confidence).toBeLessThan(THRESHOLD);
    // The chosen reading's own words after its year are compared as any.
    const tail = 'WAUPUN WI SCH DIST RFDG B/E PTC 4.00 % Due Apr 1, 2026';
    expect(descriptionField(readAt(`${tail} SE`, `${tail} SE`, tail), undefined).why).toMatch(
      /another reading has no "SE"/,
    );
  });

  it('takes each word at the surest confidence a reading that read it alike gave it', () => {
    // The real scan's cell: "BLACK" scored 0.62 at the scale chosen, 0.82 at another.
    const text = 'BLACK BELT ENERGY GAS DIST AL GAS REV PJ 6 SER B B/E 4.00 % Due Oct 1, 2052';
    const scored = (black: number, other = text) => ({
      text: other,
      words: other.split(' ').map((word) => ({ text: word, confidence: word === 'BLACK' ? black : 0.95 })),
    });
    const chosen = scored(0.62);
    const read = (...others: Array<ReturnType<typeof scored>>): CellReading => ({
      text,
      confidence: 0.62,
      inked: true,
      agreement: 1,
      words: chosen.words,
      readings: [chosen, ...others],
    });
    expect(descriptionField(read(scored(0.82)), undefined).confidence).toBeCloseTo(0.82, 2);
    // Unsure at every scale, the word stays so.
    expect(descriptionField(read(scored(0.7)), undefined).confidence).toBeCloseTo(0.7, 2);
    // A reading that read a word otherwise lends its confidence to the words it shares, and its
    // dissent still doubts the name.
    const dissent = descriptionField(read(scored(0.9, text.replace('2052', '2062'))), undefined);
    expect(dissent.why).toMatch(/"2052" read "2062" at another scale/);
    expect(dissent.confidence).toBeLessThan(THRESHOLD);
  });

  it('settles a word in no list that another reading read as the listed word it corrects to', () => {
    // The real scan's cell: two scales read "STONT" (0.89), one "STDNT" (0.46).
    const lexicon = new Lexicon(['GWINNETT', 'CNTY', 'CLLG', 'STDNT', 'CMNTY'], ['college', 'center']);
    const stont = 'GWINNETT CLLG STONT CTR PJ B B/E 5.00 % Due Jul 1, 2026';
    const stdnt = stont.replace('STONT', 'STDNT');
    const settled = descriptionField(readAt(stont, stont, stdnt), lexicon);
    expect(settled).toMatchObject({ value: stdnt, why: null });
    expect(settled.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    expect(settled.confidence).toBeLessThanOrEqual(0.85);
    // Near the listed word by no confusion the lexicon corrects ("G" for "C"): the dissent stands,
    // as it does without issuer names (a name's own word may be a confusion from a listed one).
    const gmnty = 'CLAY SCH GMNTY BLDG CORP B/E 5.00 % Due Jul 15, 2026';
    const cmnty = gmnty.replace('GMNTY', 'CMNTY');
    expect(descriptionField(readAt(gmnty, cmnty, cmnty), lexicon).why).toMatch(
      /"GMNTY" read "CMNTY" at another scale/,
    );
    const withoutIssuers = new Lexicon(['STDNT'], ['college', 'center'], false);
    expect(descriptionField(readAt(stont, stont, stdnt), withoutIssuers).value).toBe(stont);
    // A third reading of the word leaves it to a person; so does a listed word the lexicon does
    // not correct the chosen one to, or a chosen word that is listed itself.
    const third = descriptionField(readAt(stont, stdnt, stont.replace('STONT', 'STQNT')), lexicon);
    expect(third.value).toBe(stont);
    expect(third.why).toMatch(/"STONT" read "STQNT" at another scale/);
    expect(third.confidence).toBeLessThan(THRESHOLD);
    const far = descriptionField(readAt(stont, stont.replace('STONT', 'CMNTY')), lexicon);
    expect(far.why).toMatch(/"STONT" read "CMNTY" at another scale/);
    const listed = descriptionField(readAt(stdnt, stont), lexicon);
    expect(listed.value).toBe(stdnt);
    expect(listed.why).toMatch(/"STDNT" read "STONT" at another scale/);
    // Without a lexicon nothing proposes the word: the dissent stands (see above).
    expect(descriptionField(readAt(stont, stdnt), undefined).why).toMatch(/at another scale/);
  });

  it('splits listed words run together where another description read them apart surely', () => {
    const lexicon = new Lexicon(['BLACK', 'ENERGY', 'GAS'], ['belt', 'district']);
    const typed = 'BLACK BELT ENERGY GAS DIST AL GAS PREPAY REV PJ 5 SER A 1 B/E 4.00 % Due Oct 1, 2049';
    const apart = wordsReadApart([readAt(typed, typed, typed)]);
    expect(apart.has('BELT ENERGY')).toBe(true);
    const lost = 'BLACK BELTENERGY GAS DIST AL GAS REV PJ 6 SER B B/E 4.00 % Due Oct 1, 2052';
    const split = descriptionField(readAt(lost, lost, lost), lexicon, apart);
    expect(split).toMatchObject({ value: lost.replace('BELTENERGY', 'BELT ENERGY'), why: null });
    expect(split.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    // Read apart by only some readings of the other row, or unsurely: no evidence of the space.
    const unsure = {
      ...readAt(typed, typed),
      readings: [cell(typed, 0.95), cell(typed, 0.5)].map((c) => ({ text: typed, words: c.words ?? [] })),
    };
    expect(wordsReadApart([unsure]).has('BELT ENERGY')).toBe(false);
    expect(wordsReadApart([readAt(typed, lost)]).has('BELT ENERGY')).toBe(false);
    expect(descriptionField(readAt(lost, lost), lexicon, new Set(['BELT GAS'])).why).toBe(
      'doubtful: "BELTENERGY" (BELT ENERGY?)',
    );
  });

  it('settles a proposed maturity word only when another reading read it so', () => {
    const alachua = 'ALACHUA CNTY FL HLTH FACS AUTH REV B2 B/E 5.00 % Due Doc 1, 2037';
    const confirmed = descriptionField(readAt(alachua, alachua.replace('Doc', 'Dec'), alachua), undefined);
    expect(confirmed).toMatchObject({ value: alachua.replace('Doc', 'Dec'), why: null });
    expect(confirmed.confidence).toBeGreaterThanOrEqual(THRESHOLD);
    // Every reading says "Sap": an "a" for an "e" is no misread of the face, the proposal stays one.
    const sap = 'ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % Due Sap 1, 2026';
    const unconfirmed = descriptionField(readAt(sap, sap), undefined);
    expect(unconfirmed.value).toBe(sap.replace('Sap', 'Sep'));
    expect(unconfirmed.confidence).toBeLessThan(THRESHOLD);
  });

  it('settles a maturity word one letter the face misreads from the only word it is near', () => {
    // The real scan's closed "e" and "g", read so at every scale.
    for (const [read, typed] of [
      ['Due Sop 1, 2026', 'Due Sep 1, 2026'],
      ['Due Auq 1, 2026', 'Due Aug 1, 2026'],
      ['Duo Doc 1, 2037', 'Due Dec 1, 2037'],
      ['Duc Dec 1, 2041', 'Due Dec 1, 2041'],
    ]) {
      const text = `ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % ${read}`;
      const field = descriptionField(readAt(text, text), undefined);
      expect(field.value).toBe(`ALABAMA CMNTY CLLG 2025 BAM B/E 5.00 % ${typed}`);
      expect(field.confidence).toBeGreaterThanOrEqual(THRESHOLD);
      expect(field.why).toBeNull();
    }
    // Near two months, or more than one letter off: a face's letter settles nothing.
    expect(judged('PAGE CNTY IA JAIL B/E 4.00 % Due Jon 1, 2026').why).toMatch(/"Jon" \(a month\?\)/);
    expect(judged('PAGE CNTY IA JAIL B/E 4.00 % Due Soq 1, 2026').why).toMatch(/"Soq" \(a month\?\)/);
  });

  it('doubts two listed words read as one, however sure the engine was', () => {
    // Every reading of a crisper copy of the real scan lost this space, each word read at 0.95.
    const lexicon = new Lexicon(['BLACK', 'ENERGY', 'GAS'], ['belt', 'district']);
    const lost = 'BLACK BELTENERGY GAS DIST AL GAS REV PJ 6 SER B B/E 4.00 % Due Oct 1, 2052';
    const joined = descriptionField(readAt(lost, lost, lost), lexicon);
    expect(joined.confidence).toBeLessThan(THRESHOLD);
    expect(joined.why).toBe('doubtful: "BELTENERGY" (BELT ENERGY?)');
    expect(joined.value).toBe(lost);
    const typed = lost.replace('BELTENERGY', 'BELT ENERGY');
    expect(descriptionField(readAt(typed, typed, typed), lexicon)).toMatchObject({ value: typed, why: null });
  });

  it('doubts a bar or bracket touching a word, however alike its readings', () => {
    // Both scales of the real scan turned -0.15 degrees read the "I" of "IA" as a bar: tidied as a
    // rule's remnant, the name lost a letter and was served as sure.
    const bar = 'PAGE CNTY |A JAIL 2024 B B/E 4.00 % Due Jun 1, 2026';
    const field = descriptionField(readAt(bar, bar), undefined);
    expect(field.confidence).toBeLessThan(THRESHOLD);
    expect(field.why).toBe('doubtful: "|A" (a letter read as a mark?)');
    for (const glued of ['CNTY] IA', 'C|NTY IA', '(IA'])
      expect(judged(`PAGE ${glued} JAIL B/E 4.00 % Due Jun 1, 2026`).why).toMatch(/a letter read as a mark/);
    // Apart from the words, a bar is what is left of a rule, and a bracket closed is a bracket.
    const typed = 'PAGE CNTY IA JAIL 2024 B B/E 4.00 % Due Jun 1, 2026';
    expect(descriptionField(readAt(typed, `| ${typed}`), undefined).why).toBeNull();
    expect(judged('PAGE CNTY (IA) JAIL B/E 4.00 % Due Jun 1, 2026').why).toBeNull();
  });
});
