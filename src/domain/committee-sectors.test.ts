// The committee jurisdictions docs/market-data.md ("Member statistics") publishes: the basis of
// conflict_score and of conviction_score's committee relevance.
import { describe, expect, it } from 'vitest';
import { COMMITTEE_JURISDICTIONS, underJurisdiction } from './committee-sectors.js';

const GICS_SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
];

// Industry names as the directories write them, one or more per documented industry word.
const INDUSTRIES: Readonly<Record<string, readonly string[]>> = {
  agriculture: [
    'Agricultural Products & Services',
    'Fertilizers & Agricultural Chemicals',
    'Farm Machinery',
    'Packaged Foods & Meats',
  ],
  defense: ['Aerospace & Defense', 'Defence Electronics'],
  'water utilities': ['Water Utilities'],
  construction: ['Construction & Engineering', 'Construction Materials'],
  insurance: ['Life & Health Insurance', 'Property & Casualty Insurance'],
  education: ['Education Services'],
};
const UNRELATED_INDUSTRY = 'Semiconductors';

// The table of docs/market-data.md, row by row.
const DOCUMENTED: readonly [committees: string[], sectors: string[], industries: string[]][] = [
  [['HSAG', 'SSAF'], ['Consumer Staples'], ['agriculture']],
  [['HSAS', 'SSAS', 'HLIG', 'SLIN', 'HSHM', 'SSGA'], [], ['defense']],
  [['HSBA', 'SSBK'], ['Financials', 'Real Estate'], []],
  [['HSIF'], ['Energy', 'Utilities', 'Health Care', 'Communication Services'], []],
  [['HSII'], ['Energy', 'Materials'], []],
  [['SSEG'], ['Energy', 'Utilities', 'Materials'], []],
  [['HSPW'], ['Industrials'], ['water utilities']],
  [['HSSY'], ['Information Technology'], ['defense']],
  [
    ['SSCM'],
    ['Communication Services', 'Information Technology', 'Industrials', 'Consumer Discretionary'],
    [],
  ],
  [['SSEV'], ['Utilities', 'Materials'], ['construction']],
  [['HSWM', 'SSFI'], ['Health Care'], ['insurance']],
  [['SSHR'], ['Health Care'], ['education']],
  [['HSED'], [], ['education']],
  [['HSVR', 'SSVA', 'SPAG'], ['Health Care'], []],
];

describe('committee jurisdictions', () => {
  it('covers exactly the committees the documentation lists', () => {
    expect(Object.keys(COMMITTEE_JURISDICTIONS).sort()).toEqual(DOCUMENTED.flatMap(([ids]) => ids).sort());
  });

  it('names GICS sectors only', () => {
    for (const [committee, jurisdiction] of Object.entries(COMMITTEE_JURISDICTIONS)) {
      for (const sector of jurisdiction.sectors) expect(GICS_SECTORS, committee).toContain(sector);
    }
  });

  describe.each(DOCUMENTED)('%j', (committees, sectors, industries) => {
    it.each(committees)('%s covers its sectors and no other', (committee) => {
      for (const sector of GICS_SECTORS) {
        expect(underJurisdiction([committee], sector, null), sector).toBe(sectors.includes(sector));
      }
    });

    it.each(committees)('%s covers its industries by name, in any case, and no other', (committee) => {
      const covered = industries.flatMap((word) => INDUSTRIES[word] ?? []);
      for (const industry of covered) {
        expect(underJurisdiction([committee], null, industry), industry).toBe(true);
        expect(underJurisdiction([committee], null, industry.toUpperCase()), industry).toBe(true);
      }
      for (const [word, names] of Object.entries(INDUSTRIES)) {
        if (industries.includes(word)) continue;
        for (const industry of names.filter((name) => !covered.includes(name))) {
          expect(underJurisdiction([committee], null, industry), industry).toBe(false);
        }
      }
      expect(underJurisdiction([committee], null, UNRELATED_INDUSTRY)).toBe(false);
    });
  });

  it('maps committees whose reach is everything to nothing (Appropriations, Budget, Rules, Judiciary, joint)', () => {
    for (const committee of ['HSAP', 'SSAP', 'HSBU', 'SSBU', 'HSRU', 'HSJU', 'SSJU', 'HSGO', 'JSEC']) {
      for (const sector of GICS_SECTORS)
        expect(underJurisdiction([committee], sector, 'Aerospace & Defense')).toBe(false);
    }
  });

  it('falls under the jurisdiction when any one of the committees covers it', () => {
    expect(underJurisdiction(['HSAP', 'HSBA'], 'Financials', null)).toBe(true);
    expect(underJurisdiction(['HSBA', 'HSAP'], 'Financials', null)).toBe(true);
    expect(underJurisdiction(['HSBA', 'HSAS'], 'Energy', 'Aerospace & Defense')).toBe(true);
    expect(underJurisdiction(['HSBA', 'HSAS'], 'Energy', 'Oil & Gas Drilling')).toBe(false);
    expect(underJurisdiction([], 'Financials', 'Aerospace & Defense')).toBe(false);
  });

  it('reads a sector and an industry each on its own (either suffices)', () => {
    expect(underJurisdiction(['HSPW'], 'Industrials', 'Semiconductors')).toBe(true);
    expect(underJurisdiction(['HSPW'], 'Utilities', 'Water Utilities')).toBe(true);
    expect(underJurisdiction(['HSPW'], null, null)).toBe(false);
    expect(underJurisdiction(['HSBA'], null, 'Financials')).toBe(false);
  });

  it("matches a sector's name exactly as GICS writes it", () => {
    expect(underJurisdiction(['HSBA'], 'financials', null)).toBe(false);
    expect(underJurisdiction(['HSBA'], 'Financial', null)).toBe(false);
  });

  // Regression: an id such as "constructor" found Object's own member and threw a TypeError.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'knows no committee %j (a TypeError once)',
    (committee) => {
      expect(underJurisdiction([committee], 'Financials', 'Aerospace & Defense')).toBe(false);
    },
  );
});
