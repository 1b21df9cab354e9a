// How a bill touches a company (docs/analytics.md, GET /legislation/suspicious-timing, rule 3).
import { describe, expect, it } from 'vitest';
import {
  type BillText,
  billNamesCompany,
  billTouchesCompany,
  billTouchesSector,
  companyNamePattern,
  matchableCompanyName,
  POLICY_AREA_SECTORS,
} from './bill-topics.js';

function bill(fields: Partial<BillText>): BillText {
  return { policyArea: null, subjects: [], title: null, titleField: 'title', ...fields };
}

describe('policy areas', () => {
  it.each([
    ['Energy', 'Energy', null],
    ['Energy', 'Utilities', null],
    ['Health', 'Health Care', null],
    ['Finance and Financial Sector', 'Financials', null],
    ['Armed Forces and National Security', 'Industrials', 'Aerospace & Defense'],
    ['Agriculture and Food', 'Consumer Staples', null],
    ['Agriculture and Food', 'Materials', 'Fertilizers & Agricultural Chemicals'],
    ['Commerce', 'Consumer Discretionary', null],
    ['Education', 'Consumer Discretionary', 'Education Services'],
    ['Environmental Protection', 'Materials', null],
    ['Housing and Community Development', 'Real Estate', null],
    ['Public Lands and Natural Resources', 'Energy', null],
    ['Science, Technology, Communications', 'Communication Services', null],
    ['Transportation and Public Works', 'Industrials', null],
    ['Transportation and Public Works', 'Industrials', 'Passenger Airlines'],
    ['Transportation and Public Works', 'Consumer Discretionary', 'Automobile Manufacturers'],
  ])('%s covers %s (%s)', (policyArea, sector, industry) => {
    expect(billTouchesSector(bill({ policyArea }), sector, industry)).toEqual([
      { field: 'policy_area', text: policyArea, basis: 'policy_area' },
    ]);
  });

  it.each([
    ['Energy', 'Financials', null],
    ['Health', null, 'Life & Health Insurance'],
    ['Armed Forces and National Security', 'Industrials', 'Railroads'],
    ['Taxation', 'Financials', 'Banks'],
    ['Economics and Public Finance', 'Financials', null],
    ['Congress', 'Industrials', 'Aerospace & Defense'],
    // Object's own members are no policy area (a TypeError once).
    ['constructor', 'Financials', 'Aerospace & Defense'],
    ['__proto__', 'Financials', 'Aerospace & Defense'],
    ['toString', 'Financials', null],
  ])('%s does not cover %s (%s)', (policyArea, sector, industry) => {
    expect(billTouchesSector(bill({ policyArea }), sector, industry)).toEqual([]);
  });

  it('lists only areas that name an industry, each touching a sector or an industry', () => {
    for (const [area, touch] of Object.entries(POLICY_AREA_SECTORS)) {
      expect(touch.sectors.length > 0 || touch.industries !== undefined, area).toBe(true);
    }
    expect(Object.keys(POLICY_AREA_SECTORS)).not.toContain('Taxation');
  });

  it('matches nothing for a trade whose sector and industry are not known', () => {
    expect(
      billTouchesSector(bill({ policyArea: 'Energy', subjects: ['Oil'], title: 'Oil' }), null, null),
    ).toEqual([]);
  });
});

describe('topic words in subjects', () => {
  it.each([
    [
      'energy',
      ['Oil', 'Natural gas', 'Pipelines', 'Coal', 'Electric utilities', 'Petroleum'],
      'Energy',
      null,
    ],
    ['energy', ['Electricity'], 'Utilities', null],
    [
      'health',
      ['Medicare', 'Prescription drugs', 'Hospitals', 'Health care', 'Pharmaceuticals'],
      'Health Care',
      null,
    ],
    [
      'finance',
      ['Banks', 'Banking', 'Mortgages', 'Digital assets', 'Cryptocurrencies', 'Stablecoins', 'Securities'],
      'Financials',
      null,
    ],
    ['defense', ['National defense', 'Weapons systems', 'Armed forces'], null, 'Aerospace & Defense'],
    [
      'technology',
      ['Broadband', 'Semiconductors', 'Artificial intelligence', 'Telecommunication', 'Social media'],
      'Information Technology',
      null,
    ],
    ['technology', ['Internet'], 'Communication Services', null],
    ['agriculture', ['Agriculture', 'Farm bill', 'Crop insurance', 'Food safety'], 'Consumer Staples', null],
    ['agriculture', ['Agricultural'], null, 'Farm Machinery'],
    [
      'transportation',
      ['Aviation', 'Airlines', 'Railroads', 'Highways', 'Motor vehicles'],
      'Industrials',
      null,
    ],
    ['transportation', ['Motor vehicle'], null, 'Auto Parts & Equipment'],
    ['housing', ['Housing', 'Real estate'], 'Real Estate', null],
    ['mining', ['Mining', 'Critical minerals', 'Steel'], 'Materials', null],
  ])('reads %s words %j for %s (%s)', (topic, subjects, sector, industry) => {
    for (const subject of subjects) {
      const matches = billTouchesSector(bill({ subjects: [subject] }), sector, industry);
      expect(matches, subject).toEqual([{ field: 'subject', text: subject, basis: topic }]);
    }
  });

  it('reads whole words only, in any case, and reports the words that matched', () => {
    expect(
      billTouchesSector(
        bill({ subjects: ['Boiled peanuts', 'Toiling', 'Coalition building'] }),
        'Energy',
        null,
      ),
    ).toEqual([]);
    expect(
      billTouchesSector(bill({ subjects: ['Banksy exhibits', 'Steelworkers'] }), 'Financials', null),
    ).toEqual([]);
    expect(billTouchesSector(bill({ subjects: ['Offshore OIL leasing'] }), 'Energy', null)).toEqual([
      { field: 'subject', text: 'OIL', basis: 'energy' },
    ]);
    expect(billTouchesSector(bill({ subjects: ['Community banks lending'] }), 'Financials', null)).toEqual([
      { field: 'subject', text: 'banks', basis: 'finance' },
    ]);
  });

  it('reports every subject and every topic that matches, policy area first', () => {
    const matches = billTouchesSector(
      bill({ policyArea: 'Energy', subjects: ['Oil', 'Taxation', 'Electric utilities and housing'] }),
      'Utilities',
      null,
    );
    expect(matches).toEqual([
      { field: 'policy_area', text: 'Energy', basis: 'policy_area' },
      { field: 'subject', text: 'Oil', basis: 'energy' },
      { field: 'subject', text: 'Electric utilities', basis: 'energy' },
    ]);
    expect(
      billTouchesSector(bill({ subjects: ['Health insurance for mining towns'] }), 'Materials', null),
    ).toEqual([{ field: 'subject', text: 'mining', basis: 'mining' }]);
  });

  it("does not touch another sector's company", () => {
    expect(billTouchesSector(bill({ subjects: ['Oil', 'Medicare'] }), 'Financials', 'Banks')).toEqual([]);
  });
});

describe('topic words in singular and plural', () => {
  it.each([
    ['Health Care', ['Prescription drug', 'Hospital']],
    ['Financials', ['Bank', 'Financial institution', 'Mortgage', 'Digital asset', 'Stablecoin']],
    ['Information Technology', ['Telecommunication', 'Semiconductor']],
    ['Industrials', ['Airline', 'Railroad', 'Highway', 'Motor vehicle']],
    ['Materials', ['Critical mineral']],
  ])('reads each %s word in the singular too: %j', (sector, words) => {
    for (const word of words) {
      expect(billTouchesSector(bill({ subjects: [word] }), sector, null), word).toHaveLength(1);
    }
  });

  it('reads weapon and system in either number', () => {
    for (const words of ['Weapon system', 'Weapons systems', 'Weapon systems']) {
      expect(billTouchesSector(bill({ subjects: [words] }), null, 'Aerospace & Defense'), words).toHaveLength(
        1,
      );
    }
  });
});

describe('topic words in the title', () => {
  it('reads the title (or the roll call description) only when the bill has neither policy area nor subjects', () => {
    expect(billTouchesSector(bill({ title: 'Pipeline Safety Act' }), 'Energy', null)).toEqual([
      { field: 'title', text: 'Pipeline', basis: 'energy' },
    ]);
    expect(
      billTouchesSector(
        bill({ title: 'On passage: Pipeline Safety Act', titleField: 'vote_description' }),
        'Energy',
        null,
      ),
    ).toEqual([{ field: 'vote_description', text: 'Pipeline', basis: 'energy' }]);
    expect(
      billTouchesSector(bill({ subjects: ['Congress'], title: 'Pipeline Safety Act' }), 'Energy', null),
    ).toEqual([]);
    expect(
      billTouchesSector(bill({ policyArea: 'Congress', title: 'Pipeline Safety Act' }), 'Energy', null),
    ).toEqual([]);
  });
});

describe('company names', () => {
  it.each([
    ['Apple Inc.', 'Apple'],
    ['Lockheed Martin Corporation', 'Lockheed Martin'],
    ['Alliance Resource Partners, L.P.', 'Alliance Resource Partners, L.P.'],
    ['Berkshire Hathaway Inc', 'Berkshire Hathaway'],
    ['The Boeing Company', 'The Boeing'],
    ['Acme Holdings Group, Inc.', 'Acme'],
    ['Acme Co., Ltd.', 'Acme'],
    ['Vodafone Group PLC', 'Vodafone'],
    ['  Deere & Company  ', 'Deere &'],
    ['Visa Inc.', 'Visa'],
    ['Acme , Inc', 'Acme'],
    ['Acme  Inc', 'Acme'],
    ['Acme Holding', 'Acme'],
  ])('matches %j by %j', (name, core) => {
    expect(matchableCompanyName(name)).toBe(core);
  });

  it.each([null, '', 'GE', 'IBM Corp', '3M Company'])(
    'does not match %j (too short to match safely)',
    (name) => {
      expect(matchableCompanyName(name)).toBeNull();
      expect(companyNamePattern(name)).toBeNull();
    },
  );

  it('finds the name as a whole word, as the company writes it, with its punctuation taken literally', () => {
    const visa = companyNamePattern('Visa Inc.');
    expect(visa?.test('Visa and Mastercard fees')).toBe(true);
    expect(visa?.test('Student visa reform')).toBe(false);
    expect(visa?.test('Visas for workers')).toBe(false);
    expect(visa?.test('Revisa')).toBe(false);
    const dotted = companyNamePattern('A.B.C.D Inc');
    expect(dotted?.test('A.B.C.D merger')).toBe(true);
    expect(dotted?.test('AxBxCxD merger')).toBe(false);
  });

  it('names the company in each subject and in the title, whatever the policy area', () => {
    const named = companyNamePattern('Lockheed Martin Corporation');
    const text = bill({
      policyArea: 'Taxation',
      subjects: ['Lockheed Martin contracts', 'Taxation'],
      title: 'A bill concerning Lockheed Martin',
      titleField: 'vote_description',
    });
    expect(billNamesCompany(text, named)).toEqual([
      { field: 'subject', text: 'Lockheed Martin', basis: 'company_name' },
      { field: 'vote_description', text: 'Lockheed Martin', basis: 'company_name' },
    ]);
    expect(billNamesCompany(bill({ title: 'A bill' }), named)).toEqual([]);
    expect(billNamesCompany(text, null)).toEqual([]);
  });

  it('combines both halves, sector matches first', () => {
    const text = bill({ subjects: ['Lockheed Martin weapons systems'] });
    expect(
      billTouchesCompany(text, {
        sector: 'Industrials',
        industry: 'Aerospace & Defense',
        name: 'Lockheed Martin Corp.',
      }),
    ).toEqual([
      { field: 'subject', text: 'weapons systems', basis: 'defense' },
      { field: 'subject', text: 'Lockheed Martin', basis: 'company_name' },
    ]);
    expect(billTouchesCompany(text, { sector: null, industry: null, name: 'Lockheed Martin' })).toEqual([
      { field: 'subject', text: 'Lockheed Martin', basis: 'company_name' },
    ]);
    expect(billTouchesCompany(text, { sector: 'Financials', industry: null, name: null })).toEqual([]);
  });
});
