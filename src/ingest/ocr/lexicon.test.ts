// The asset-name lexicon with the stored trades' descriptions beside the SEC's issuer names: the
// House trade set in ../shared/data (what `dcledger import` stores), against words as the engine
// read them off the typed scans 8220750 and 8220834.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readTradeSet } from '../trade-sets/read.js';
import {
  assetLexicon,
  DESCRIPTION_WORD_LENGTH,
  Lexicon,
  PLACE_WORD_LENGTH,
  placeWords,
  wordsOfDescriptions,
} from './lexicon.js';

const dataDir = inject('dataDir');

describe('wordsOfDescriptions', () => {
  it('keeps the longer words of a description, not its codes and abbreviations', () => {
    expect(wordsOfDescriptions(['Safran S.A. Unsponsored ADR', 'PROSUS NV SP/ADR', "MOODY'S CORP"])).toEqual([
      'SAFRAN',
      'UNSPONSORED',
      'PROSUS',
      "MOODY'S",
    ]);
    expect(wordsOfDescriptions(['AB CD EFG HIJK'])).toEqual([]);
    expect(DESCRIPTION_WORD_LENGTH).toBeGreaterThan(4);
  });
});

describe('placeWords', () => {
  it("holds the words of US places' names, none shorter than an abbreviation", () => {
    const places = new Set(placeWords());
    // Municipal bonds of the real 278-T scan are named after them.
    for (const place of ['SPRINGFIELD', 'FAIRFIELD', 'ANDOVER', 'KENDALL', 'MIAMI'])
      expect(places).toContain(place);
    expect([...places].every((word) => /^[A-Z]+$/.test(word) && word.length >= PLACE_WORD_LENGTH)).toBe(true);
    expect(places).not.toContain('LIMA');
    expect(PLACE_WORD_LENGTH).toBeGreaterThan(4);
  });
});

describe('a word the filer printed with a comma and no space', () => {
  it('is checked part by part, as a hyphenated one is', () => {
    const lexicon = new Lexicon(['MARTIN', 'MATERIALS', 'METLIFE', 'INC']);
    expect(lexicon.check('MATERIALS,INC')).toEqual({ kind: 'known' });
    // A misread part is corrected with the comma kept where it was printed.
    expect(lexicon.check('METUFE,INC')).toEqual({ kind: 'corrected', word: 'METLIFE,INC', cost: 0.3 });
    expect(lexicon.check('MATERIALS,XQZT').kind).toBe('unknown');
  });
});

describe.skipIf(!dataDir)("the lexicon with the trade set's descriptions", () => {
  let issuers: string[];
  let withDescriptions: Lexicon;
  let withoutDescriptions: Lexicon;
  beforeAll(async () => {
    const root = dataDir as string;
    const companies = JSON.parse(
      readFileSync(join(root, 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
    ) as Record<string, { title: string }>;
    issuers = Object.values(companies).map((company) => company.title);
    const file = join(
      root,
      'congress/trades-house/tattooedhead-house-stock-watcher/all_transactions_2026-05-29_early.json',
    );
    const descriptions = readTradeSet(file, readFileSync(file, 'utf8')).rows.flatMap((row) =>
      row.assetDescription ? [row.assetDescription] : [],
    );
    withDescriptions = await assetLexicon(issuers, descriptions);
    withoutDescriptions = await assetLexicon(issuers);
  });

  it('knows names no issuer list holds that filers wrote on stored trades', () => {
    // "SAFRAN SA" and "PROSUS NV" on 8220834 page 2: SAFRAN is near the English SARAN, PROSUS
    // splits into PROS and US; a filer wrote both on an electronic PTR.
    expect(withoutDescriptions.check('SAFRAN').kind).toBe('doubtful');
    expect(withoutDescriptions.check('PROSUS')).toEqual({ kind: 'split', words: ['PROS', 'US'] });
    expect(withDescriptions.check('SAFRAN')).toEqual({ kind: 'known' });
    expect(withDescriptions.check('PROSUS')).toEqual({ kind: 'known' });
  });

  it('still doubts what the engine misread, and short description words split nothing', () => {
    // "METUFE" (METLIFE) and "UNKED" (LINKED) on 8220750 page 2; "CMIN" for CMN on page 8.
    expect(withDescriptions.check('METUFE')).toEqual(withoutDescriptions.check('METUFE'));
    expect(withDescriptions.check('UNKED').kind).toBe('doubtful');
    expect(withDescriptions.check('CMIN')).toEqual(withoutDescriptions.check('CMIN'));
    expect(withDescriptions.check('CMIN').kind).not.toBe('split');
  });

  it('finds two words read as one, not the abbreviations of a bond', () => {
    // "BELTENERGY": the 278-T scan's "BLACK BELT ENERGY" as read off a crisper copy of its page.
    expect(withoutDescriptions.runTogether('BELTENERGY')).toEqual(['BELT', 'ENERGY']);
    expect(withoutDescriptions.runTogether('BELTENERGY,')).toEqual(['BELT', 'ENERGY']);
    // Abbreviations and codes on the same scan cut into parts of two or three letters, or none.
    for (const word of ['CLLG', 'IMPT', 'STDNT', 'MLTIFAM', 'REVLVG', 'COLLTZD', 'B/E', '5.00'])
      expect(withoutDescriptions.runTogether(word)).toBeNull();
    // A listed word is one word, whatever it is made of (the 278-T's places SPRINGFIELD and
    // FAIRFIELD are listed); a word in no list made of two is two.
    expect(withoutDescriptions.runTogether('ENERGY')).toBeNull();
    expect(withoutDescriptions.runTogether('SPRINGFIELD')).toBeNull();
    expect(withoutDescriptions.runTogether('FAIRFIELD')).toBeNull();
    expect(withoutDescriptions.runTogether('ENERGYFIELD')).toEqual(['ENERGY', 'FIELD']);
  });

  it('takes a long word in no list for a name with every space lost, cut into the fewest words', () => {
    // 8220834 page 3's "CACI INTL INC CL A" as read off a blurred copy of the page.
    expect(withoutDescriptions.runTogether('CACIINTLINCCLA')).toEqual(['CACI', 'INTL', 'INC', 'CL', 'A']);
    // Any such word can be cut (single letters at worst): none is taken as read.
    expect(withoutDescriptions.runTogether('XQZWVPLKJHGFD')?.length).toBeGreaterThan(1);
    // A listed word is one word however long, and a shorter one in no list is not cut so finely.
    expect(withoutDescriptions.runTogether('COMMUNICATIONS')).toBeNull();
    expect(withoutDescriptions.runTogether('KNOXVILLE')).toBeNull();
  });
});
