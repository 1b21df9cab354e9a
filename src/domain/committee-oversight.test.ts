// Which committees oversee which agencies and LDA issue areas (docs/analytics-links.md): the basis
// of the lobbying and contract links of GET /overlap and /conflict/{politician_id}.
import { describe, expect, it } from 'vitest';
import {
  CHAMBER_ENTITIES,
  COMMITTEE_OVERSIGHT,
  committeeChamber,
  lobbyingReach,
  overseenAgencies,
} from './committee-oversight.js';
import { LDA_ISSUE_CODES } from './lda.js';

// Each committee with agencies it oversees, in the LDA's spelling and in USAspending's, and
// agencies it does not.
const AGENCIES: readonly [committee: string, overseen: string[], notOverseen: string[]][] = [
  [
    'HSAG',
    ['Agriculture, Dept of (USDA)', 'Forest Service', 'Commodity Futures Trading Commission (CFTC)'],
    ['Department of Defense'],
  ],
  [
    'SSAF',
    ['Department of Agriculture', 'Food Safety and Inspection Service'],
    ['Department of the Treasury'],
  ],
  [
    'HSAS',
    [
      'Defense, Dept of (DOD)',
      'Department of the Army',
      'Department of the Navy',
      'Department of the Air Force',
      'U.S. Marine Corps',
      'Defense Advanced Research Projects Agency (DARPA)',
      'Missile Defense Agency',
    ],
    ['Department of Energy'],
  ],
  ['SSAS', ['Department of Defense', 'DOD'], ['Armyworm Research Institute', 'Navya Foods']],
  [
    'HSBA',
    [
      'Securities & Exchange Commission (SEC)',
      'Federal Reserve System',
      'Federal Deposit Insurance Corporation',
      'Comptroller of the Currency',
      'Consumer Financial Protection Bureau',
      'Housing & Urban Development, Dept of (HUD)',
      'Federal Housing Finance Agency',
      'Export-Import Bank of the United States',
    ],
    ['Internal Revenue Service'],
  ],
  [
    'SSBK',
    ['Securities and Exchange Commission', 'Department of Housing and Urban Development', 'FDIC', 'CFPB'],
    ['Department of Labor'],
  ],
  [
    'HSED',
    [
      'Education, Dept of',
      'Department of Labor',
      'Occupational Safety & Health Administration (OSHA)',
      'National Labor Relations Board (NLRB)',
      'Employee Benefits Security Administration',
      'Pension Benefit Guaranty Corporation',
      'DOL',
    ],
    ['Department of Veterans Affairs'],
  ],
  [
    'HSHM',
    [
      'Homeland Security, Dept of (DHS)',
      'U.S. Customs and Border Protection',
      'Transportation Security Administration (TSA)',
      'Federal Emergency Management Agency',
      'Cybersecurity and Infrastructure Security Agency',
      'U.S. Secret Service',
    ],
    ['Department of Agriculture'],
  ],
  ['SSGA', ['Department of Homeland Security', 'FEMA', 'CISA'], ['Department of Defense']],
  [
    'HSIF',
    [
      'Energy, Dept of',
      'Federal Energy Regulatory Commission (FERC)',
      'Nuclear Regulatory Commission',
      'Health & Human Services, Dept of (HHS)',
      'Food & Drug Administration (FDA)',
      'Centers for Medicare and Medicaid Services (CMS)',
      'National Institutes of Health (NIH)',
      'Centers For Disease Control & Prevention',
      'Federal Communications Commission (FCC)',
      'Federal Trade Commission (FTC)',
      'Environmental Protection Agency (EPA)',
      'Consumer Product Safety Commission',
      'DOE',
    ],
    ['Department of Defense', 'Energyworks Inc'],
  ],
  [
    'HSII',
    [
      'Interior, Dept of (DOI)',
      'Bureau of Land Management (BLM)',
      'Fish & Wildlife Service',
      'National Park Service',
      'U.S. Geological Survey',
      'Bureau of Reclamation',
      'Bureau of Indian Affairs',
      'Bureau of Ocean Energy Management',
      'Bureau of Safety and Environmental Enforcement',
    ],
    ['Department of Education'],
  ],
  [
    'SSEG',
    [
      'Department of Energy',
      'FERC',
      'Nuclear Regulatory Commission',
      'Department of the Interior',
      'Bureau of Land Management',
      'U.S. Geological Survey',
      'National Park Service',
      'Forest Service',
    ],
    ['Department of Labor'],
  ],
  [
    'HSPW',
    [
      'Transportation, Dept of (DOT)',
      'Federal Aviation Administration (FAA)',
      'Federal Highway Administration',
      'Federal Transit Administration',
      'Federal Railroad Administration',
      'Maritime Administration',
      'U.S. Army Corps of Engineers',
      'U.S. Coast Guard',
      'General Services Administration (GSA)',
    ],
    ['Department of Energy'],
  ],
  [
    'SSCM',
    [
      'Commerce, Dept of (DOC)',
      'Federal Communications Commission',
      'FTC',
      'Department of Transportation',
      'FAA',
      'National Aeronautics & Space Administration (NASA)',
      'National Oceanic and Atmospheric Administration',
      'National Institute of Standards & Technology (NIST)',
      'Consumer Product Safety Commission',
    ],
    ['Department of Defense'],
  ],
  [
    'HSSY',
    [
      'National Aeronautics and Space Administration',
      'National Science Foundation (NSF)',
      'National Institute of Standards and Technology',
      'NOAA',
      'Energy, Dept of',
      'DOE',
    ],
    ['Department of Agriculture'],
  ],
  [
    'SSEV',
    [
      'Environmental Protection Agency',
      'EPA',
      'Army Corps of Engineers',
      'Fish and Wildlife Service',
      'Federal Highway Administration',
      'Nuclear Regulatory Commission',
    ],
    ['Federal Aviation Administration'],
  ],
  ['HSVR', ['Veterans Affairs, Dept of (VA)'], ['Department of Defense']],
  ['SSVA', ['Department of Veterans Affairs'], ['Department of Defense']],
  [
    'HSWM',
    [
      'Treasury, Dept of',
      'Internal Revenue Service (IRS)',
      'Social Security Administration (SSA)',
      'Centers for Medicare & Medicaid Services (CMS)',
      'U.S. Customs & Border Protection',
      'U.S. Trade Representative (USTR)',
    ],
    ['Department of Defense'],
  ],
  ['SSFI', ['Department of the Treasury', 'IRS', 'Medicare'], ['Department of Energy']],
  [
    'SSHR',
    [
      'Department of Health and Human Services',
      'Food and Drug Administration',
      'National Institutes of Health',
      'Centers for Disease Control',
      'Department of Education',
      'Department of Labor',
      'OSHA',
      'National Labor Relations Board',
    ],
    ['Department of Defense'],
  ],
  [
    'HLIG',
    [
      'Office of the Director of National Intelligence',
      'National Security Agency (NSA)',
      'Central Intelligence Agency (CIA)',
    ],
    ['Department of Energy'],
  ],
  ['SLIN', ['Central Intelligence Agency', 'NSA'], ['Department of Energy']],
  [
    'SPAG',
    ['Social Security Administration', 'Administration for Community Living', 'Administration on Aging'],
    ['Department of Defense'],
  ],
];

describe('committee oversight', () => {
  it('covers the top-level committees with a jurisdiction of their own', () => {
    expect(Object.keys(COMMITTEE_OVERSIGHT).sort()).toEqual(AGENCIES.map(([committee]) => committee).sort());
  });

  it.each(AGENCIES)('%s oversees %j and not %j', (committee, overseen, notOverseen) => {
    expect(overseenAgencies(committee, overseen)).toEqual(overseen);
    expect(
      overseenAgencies(committee, [...overseen.map((name) => name.toUpperCase()), ...notOverseen]),
    ).toEqual(overseen.map((name) => name.toUpperCase()));
  });

  it('names only LDA general issue codes, at least one per committee, each once', () => {
    for (const [committee, oversight] of Object.entries(COMMITTEE_OVERSIGHT)) {
      expect(oversight.issueCodes.length, committee).toBeGreaterThan(0);
      expect(new Set(oversight.issueCodes).size, committee).toBe(oversight.issueCodes.length);
      for (const code of oversight.issueCodes)
        expect(Object.keys(LDA_ISSUE_CODES), `${committee} ${code}`).toContain(code);
    }
  });

  it('gives committees whose reach is every agency no link (Appropriations, Budget, Rules, Oversight, joint)', () => {
    for (const committee of [
      'HSAP',
      'SSAP',
      'HSBU',
      'SSBU',
      'HSRU',
      'SSRA',
      'HSGO',
      'JSEC',
      'constructor',
      '__proto__',
      'toString',
    ]) {
      expect(overseenAgencies(committee, ['Department of Defense', 'Department of Energy'])).toEqual([]);
      expect(
        lobbyingReach(
          committee,
          ['Department of Defense', 'SENATE', 'HOUSE OF REPRESENTATIVES'],
          ['DEF', 'ENG'],
        ),
      ).toEqual({
        agencies: [],
        issueCodes: [],
      });
    }
  });

  it('does not count a chamber contacted as an agency overseen', () => {
    // The chambers are listed among the entities contacted; they are never an agency overseen.
    expect(
      overseenAgencies('SSHR', ['Senate', '  HOUSE OF REPRESENTATIVES ', 'Department of Labor']),
    ).toEqual(['Department of Labor']);
    expect(overseenAgencies('HSED', ['US Senate Committee on Education'])).toEqual([
      'US Senate Committee on Education',
    ]);
  });
});

describe('committeeChamber', () => {
  it.each([
    ['HSAS', 'House'],
    ['HLIG', 'House'],
    ['SSAS', 'Senate'],
    ['SLIN', 'Senate'],
    ['SPAG', 'Senate'],
    ['JSEC', null],
    ['', null],
    ['hsas', null],
  ])('places %j in the %s', (committee, chamber) => {
    expect(committeeChamber(committee)).toBe(chamber);
  });
});

describe('lobbyingReach', () => {
  it('links by the overseen agencies contacted, whether or not the chamber was', () => {
    expect(lobbyingReach('HSAS', ['Defense, Dept of (DOD)', 'Treasury, Dept of'], ['DEF'])).toEqual({
      agencies: ['Defense, Dept of (DOD)'],
      issueCodes: [],
    });
  });

  it("links by the committee's issue codes only when the filing contacted the committee's own chamber", () => {
    expect(lobbyingReach('HSAS', ['HOUSE OF REPRESENTATIVES'], ['DEF', 'TAX', 'AER', 'DEF'])).toEqual({
      agencies: [],
      issueCodes: ['DEF', 'AER'],
    });
    expect(lobbyingReach('HSAS', [' house of representatives '], ['INT'])).toEqual({
      agencies: [],
      issueCodes: ['INT'],
    });
    expect(lobbyingReach('HSAS', ['SENATE'], ['DEF'])).toEqual({ agencies: [], issueCodes: [] });
    expect(lobbyingReach('SSAS', ['SENATE', 'Department of the Navy'], ['DEF', 'HCR'])).toEqual({
      agencies: ['Department of the Navy'],
      issueCodes: ['DEF'],
    });
    expect(lobbyingReach('SSAS', ['Senate Armed Services Committee'], ['DEF'])).toEqual({
      agencies: [],
      issueCodes: [],
    });
    expect(lobbyingReach('SSAS', ['HOUSE OF REPRESENTATIVES'], ['DEF'])).toEqual({
      agencies: [],
      issueCodes: [],
    });
    expect(lobbyingReach('HSAS', ['Representatives House of'], ['DEF'])).toEqual({
      agencies: [],
      issueCodes: [],
    });
  });

  it('names the two chambers as the LDA lists them', () => {
    expect(CHAMBER_ENTITIES.House?.test('HOUSE OF REPRESENTATIVES')).toBe(true);
    expect(CHAMBER_ENTITIES.Senate?.test('SENATE')).toBe(true);
    expect(CHAMBER_ENTITIES.Senate?.test('SENATE OF THE UNITED STATES')).toBe(false);
    expect(CHAMBER_ENTITIES.House?.test('THE HOUSE OF REPRESENTATIVES')).toBe(false);
    expect(CHAMBER_ENTITIES.House?.test('HOUSE OF REPRESENTATIVES COMMITTEE ON RULES')).toBe(false);
    expect(CHAMBER_ENTITIES.Senate?.test('US SENATE')).toBe(false);
  });

  it('links nothing when neither an agency nor the chamber was contacted', () => {
    expect(lobbyingReach('HSAS', [], ['DEF'])).toEqual({ agencies: [], issueCodes: [] });
  });
});
