// Doubted words of asset names settled by whole issuer names: the SEC's list of companies
// (../shared/data, as `dcledger market import-companies` loads it) against names as the engine
// read them off the typed spreadsheet 8220750, each with the words the lexicon doubted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { IssuerNames } from './issuer-names.js';

const dataDir = inject('dataDir');

/** The name's words (hyphenated ones split) and the indexes of those starred as doubted. */
function reading(text: string): { words: string[]; doubted: Set<number> } {
  const words = text.split(/[\s-]+/);
  const doubted = new Set(words.flatMap((word, index) => (word.startsWith('*') ? [index] : [])));
  return { words: words.map((word) => word.replace(/^\*/, '')), doubted };
}

describe('IssuerNames', () => {
  it('replaces a doubted word only with the one issuer name that explains it clearly best', () => {
    const issuers = new IssuerNames(['Acme Widgets Inc', 'Acma Widgets Inc', 'Zenith Gadgets Corp']);
    const tie = reading('*ACMX WIDGETS INC CMN');
    expect(issuers.correct(tie.words, tie.doubted)).toBeNull();
    const clear = reading('*ZENITM GADGETS CORPORATION CMN');
    expect(issuers.correct(clear.words, clear.doubted)).toEqual([{ index: 0, word: 'ZENITH', edits: 1 }]);
  });

  it('needs every word it does not doubt read exactly, and a doubted one near the listed word', () => {
    const issuers = new IssuerNames(['Zenith Gadgets Corp']);
    const other = reading('*ZENITM WIDGETS CORP');
    expect(issuers.correct(other.words, other.doubted)).toBeNull();
    const far = reading('*ZQXTM GADGETS CORP');
    expect(issuers.correct(far.words, far.doubted)).toBeNull();
    const undoubted = reading('ZENITM GADGETS CORP');
    expect(issuers.correct(undoubted.words, undoubted.doubted)).toBeNull();
  });

  it('confirms a name whose legal form is cut short, when the cut begins one long form only', () => {
    const issuers = new IssuerNames(['Zenith Gadgets Corp', 'Acme Widgets Co']);
    expect(issuers.confirmedWords(['ZENITH', 'GADGETS', 'CORPORAT', 'CMN'])).toBe(3);
    // COMPAN begins both COMPANY and COMPANIES; no long form begins CORPS.
    expect(issuers.confirmedWords(['ACME', 'WIDGETS', 'COMPAN'])).toBe(0);
    expect(issuers.confirmedWords(['ACME', 'WIDGETS', 'COMPANY'])).toBe(3);
    expect(issuers.confirmedWords(['ZENITH', 'GADGETS', 'CORPS'])).toBe(0);
  });

  it('knows a ticker in brackets when its issuer is how the name begins, its legal form aside', () => {
    const issuers = new IssuerNames(
      ['GE Vernova Inc.', 'General Electric Co', 'Gray Media, Inc'],
      [
        ['GEV', 'GE Vernova Inc.'],
        ['GE', 'General Electric Co'],
        ['GTN', 'Gray Media, Inc'],
      ],
    );
    // The filer wrote its own legal form; the ticker is GE Vernova's.
    expect(issuers.namesTicker(['GE', 'Vernova', 'LLC'], 'GEV')).toBe(true);
    expect(issuers.namesTicker(['GE', 'Vernova'], 'GEV')).toBe(true);
    expect(issuers.namesTicker(['GE'], 'GEV')).toBe(false);
    // Another issuer's ticker, a symbol no company lists, a name that only starts alike.
    expect(issuers.namesTicker(['GE', 'Vernova', 'LLC'], 'GE')).toBe(false);
    expect(issuers.namesTicker(['GE', 'Vernova', 'LLC'], 'GEY')).toBe(false);
    expect(issuers.namesTicker(['GE', 'Vernovo', 'LLC'], 'GEV')).toBe(false);
    expect(issuers.namesTicker(['Gray', 'Media', 'Incorporated'], 'GTN')).toBe(true);
    expect(issuers.namesTicker([], 'GTN')).toBe(false);
  });
});

describe.skipIf(!dataDir)("IssuerNames over the SEC's companies", () => {
  let issuers: IssuerNames;
  beforeAll(() => {
    const companies = JSON.parse(
      readFileSync(join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
    ) as Record<string, { title: string }>;
    issuers = new IssuerNames(Object.values(companies).map((company) => company.title));
  });

  const settle = (text: string, suggested: ReadonlyMap<number, string> = new Map()) => {
    const { words, doubted } = reading(text);
    const corrections = issuers.correct(words, doubted, suggested);
    if (!corrections) return null;
    const out = [...words];
    for (const correction of corrections) out[correction.index] = correction.word;
    return out.join(' ');
  };

  it('settles misread words of names the SEC lists, the rest of the name as read', () => {
    expect(settle('DELTA AIR *UNES, INC. CMN')).toBe('DELTA AIR LINES INC. CMN');
    expect(settle('*CROWODSTRIKE HOLDINGS, INC. CMN')).toBe('CROWDSTRIKE HOLDINGS, INC. CMN');
    expect(settle('*/IATRIS INC CMN')).toBe('VIATRIS INC CMN');
    expect(settle('PARKER *HANNIAIN CORP. CMN')).toBe('PARKER HANNIFIN CORP. CMN');
    expect(settle('*VIC) PROPERTIES INC. CMIN')).toBe('VICI PROPERTIES INC. CMIN');
    // "Chubb Ltd" is CHUBB LIMITED on a statement: the long form is what the misread is near.
    expect(settle('CHUBB *UMITED CMN')).toBe('CHUBB LIMITED CMN');
  });

  it('takes a short word with only a legal form beside it when the lexicon suggests the same word', () => {
    expect(settle('*COW CORPORATION CMN')).toBeNull();
    expect(settle('*COW CORPORATION CMN', new Map([[0, 'CDW']]))).toBe('CDW CORPORATION CMN');
    expect(settle('*COW CORPORATION CMN', new Map([[0, 'COWL']]))).toBeNull();
  });

  it("confirms a name read as one issuer's whole name only when no other issuer's name is near", () => {
    const confirmed = (text: string) => issuers.confirmedWords(text.split(/[\s-]+/));
    // Names as read off 8220750 at a low engine score, each exactly an SEC issuer's name.
    expect(confirmed('MSCI INC. CMN')).toBe(2);
    expect(confirmed('AUTODESK, INC. CMN')).toBe(2);
    expect(confirmed('RAYMOND JAMES FINANCIAL, INC. CMN')).toBe(4);
    // CSX and CDW both file with the SEC: a letter misread lands on the other.
    expect(confirmed('CSX CORPORATION CMN')).toBe(0);
    // One word short of an issuer's name; the words after a whole one are the caller's to judge.
    expect(confirmed('RAYMOND JAMES CMN')).toBe(0);
    expect(confirmed('ROYAL BANK OF CANADA LINKED TO BASKET OF INDICES')).toBe(4);
    // The filer's software cuts a long name at its column: the start of one issuer's name, cut
    // inside a word, confirms the words read.
    expect(confirmed('EXPEDITORS INTERNATIONAL OF WA CMN')).toBe(4);
    // A letter off the cut name, or a cut too short to anchor anything, confirms nothing.
    expect(confirmed('EXPEDITORS INTERNATIONAL OF WB CMN')).toBe(0);
    expect(confirmed('EXPEDITORS INTERNAT CMN')).toBe(0);
    // A legal form cut at the statement's column (30 letters) is the issuer's own.
    expect(confirmed('MICROCHIP TECHNOLOGY INCORPORA CMN')).toBe(3);
    expect(confirmed('MICROCHIP TECHNOLOGY INCO CMN')).toBe(0);
  });

  it('leaves a doubted word no issuer name reaches', () => {
    // The issuer's name (Royal Bank of Canada) ends before the doubted word.
    expect(settle('ROYAL BANK OF CANADA *UNKED TO BASKET OF INDICES')).toBeNull();
    expect(settle('*LAJVILAD I LURK')).toBeNull();
  });
});
