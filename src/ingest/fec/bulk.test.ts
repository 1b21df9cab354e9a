import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  cycleOf,
  FEC_COLUMNS,
  fecDate,
  fecFileKind,
  readFecHeader,
  splitFecLine,
  toCandidate,
  toCandidateTotals,
  toCommittee,
  toCommitteeContribution,
  toIndividualContribution,
  toLinkage,
} from './bulk.js';

const dataDir = inject('dataDir');
const fec = join(dataDir ?? '', 'related/fec');
const lines = (path: string) =>
  readFileSync(join(fec, path), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
const cycle2020 = 'fec-bulk-2019-2020-cycle_asof-2019-03';
const cycle2022 = 'fec-bulk-2021-2022-cycle_plus_weball24';

describe.skipIf(!dataDir)('FEC bulk files (real 2019-20 and 2021-22 cycle files)', () => {
  it('uses the layouts the FEC header files give', () => {
    for (const [kind, header] of [
      ['candidates', 'cn_header_file.csv'],
      ['committees', 'cm_header_file.csv'],
      ['linkages', 'ccl_header_file.csv'],
      ['committee_contributions', 'pas2_header_file.csv'],
      ['individual_contributions', 'indiv_header_file.csv'],
    ] as const) {
      expect(readFecHeader(readFileSync(join(fec, cycle2020, header), 'utf8'))).toEqual(FEC_COLUMNS[kind]);
    }
  });

  it('reads candidates (Pelosi, H8CA05035)', () => {
    const rows = lines(`${cycle2022}/cn.txt`);
    expect(rows).toHaveLength(8583);
    const pelosi = rows
      .map((l) => splitFecLine(FEC_COLUMNS.candidates, l))
      .map((f) => (f ? toCandidate(f) : null))
      .find((c) => c?.id === 'H8CA05035');
    expect(pelosi).toMatchObject({ name: 'PELOSI, NANCY', party: 'DEM', office: 'H', officeState: 'CA' });
    const [first] = lines(`${cycle2020}/cn.txt`);
    const carl = toCandidate(splitFecLine(FEC_COLUMNS.candidates, first ?? '') ?? {});
    expect(carl).toEqual({
      id: 'H0AL01055',
      name: 'CARL, JERRY LEE, JR',
      party: 'REP',
      electionYear: 2020,
      officeState: 'AL',
      office: 'H',
      district: '01',
      incumbentChallenger: 'C',
      status: 'N',
      principalCommitteeId: 'C00697789',
    });
  });

  it('reads committees with the connected organization of a corporate PAC', () => {
    const [first] = lines(`${cycle2020}/cm.txt`);
    expect(toCommittee(splitFecLine(FEC_COLUMNS.committees, first ?? '') ?? {})).toEqual({
      id: 'C00000059',
      name: 'HALLMARK CARDS PAC',
      designation: 'U',
      type: 'Q',
      party: 'UNK',
      connectedOrgName: null,
      candidateId: null,
    });
    const ama = lines(`${cycle2020}/cm.txt`)[1] ?? '';
    expect(toCommittee(splitFecLine(FEC_COLUMNS.committees, ama) ?? {})?.connectedOrgName).toBe(
      'DELAWARE MEDICAL PAC',
    );
  });

  it('reads candidate-committee linkages', () => {
    const [first] = lines(`${cycle2020}/ccl.txt`);
    expect(toLinkage(splitFecLine(FEC_COLUMNS.linkages, first ?? '') ?? {})).toEqual({
      linkageId: '225231',
      candidateId: 'C00027466',
      candidateElectionYear: 2018,
      cycle: 2020,
      committeeId: 'C00682112',
      committeeType: 'N',
      designation: 'J',
    });
  });

  it('reads committee-to-candidate contributions with amount, date and cycle', () => {
    const rows = lines(`${cycle2020}/itpas2.txt`);
    expect(rows).toHaveLength(3159);
    expect(
      toCommitteeContribution(splitFecLine(FEC_COLUMNS.committee_contributions, rows[0] ?? '') ?? {}),
    ).toEqual({
      subId: '4021920191640423011',
      committeeId: 'C00567180',
      candidateId: 'H2FL06109',
      recipientCommitteeId: 'C00494583',
      transactionType: '24K',
      entityType: 'PAC',
      name: 'TED YOHO FOR CONGRESS',
      date: '2019-01-08',
      cycle: 2020,
      amount: 1880,
      memo: false,
    });
  });

  it('reads individual contributions, refunds negative', () => {
    const [first, second] = lines(`${cycle2020}/itcont_first20000.txt`);
    expect(
      toIndividualContribution(splitFecLine(FEC_COLUMNS.individual_contributions, first ?? '') ?? {}),
    ).toMatchObject({
      subId: '4021320191639407455',
      committeeId: 'C00432906',
      employer: null,
      date: '2019-01-18',
      cycle: 2020,
      amount: 500,
      transactionType: '22Y',
    });
    expect(
      toIndividualContribution(splitFecLine(FEC_COLUMNS.individual_contributions, second ?? '') ?? {})
        ?.amount,
    ).toBe(-500);
  });

  it('reads candidate cycle totals (weball24: Harris, Peltola)', () => {
    const rows = lines(`${cycle2022}/weball24.txt`).map((l) =>
      toCandidateTotals(splitFecLine(FEC_COLUMNS.candidate_totals, l) ?? {}, 2024),
    );
    expect(rows).toHaveLength(3860);
    expect(rows.find((r) => r?.candidateId === 'P00009423')?.receipts).toBe(1_175_189_102.91);
    expect(rows.find((r) => r?.candidateId === 'H2AK01158')).toEqual({
      candidateId: 'H2AK01158',
      cycle: 2024,
      name: 'PELTOLA, MARY',
      party: 'DEM',
      receipts: 13_443_537.46,
      disbursements: 14_050_828.27,
      cashOnHand: 83_969.49,
      debts: 0,
      individualContributions: 10_800_004.13,
      pacContributions: 1_615_986.3,
      partyContributions: 9969.28,
      candidateContributions: 0,
      coverageEndDate: '2024-12-31',
    });
  });
});

describe('FEC file names and values', () => {
  it('knows the bulk files by name and the cycle of a summary file', () => {
    expect(fecFileKind('weball24.txt')).toEqual({ kind: 'candidate_totals', cycle: 2024 });
    expect(fecFileKind('webl20.txt')).toEqual({ kind: 'candidate_totals', cycle: 2020 });
    expect(fecFileKind('itcont_first20000.txt')?.kind).toBe('individual_contributions');
    expect(fecFileKind('itpas2.txt')?.kind).toBe('committee_contributions');
    expect(fecFileKind('webk20.txt')).toBeNull();
    expect(fecFileKind('cn_header_file.csv')).toBeNull();
  });

  it('reads dates both ways and names cycles by their even year', () => {
    expect(fecDate('01082019')).toBe('2019-01-08');
    expect(fecDate('12/31/2024')).toBe('2024-12-31');
    expect(fecDate('2019')).toBeNull();
    expect(cycleOf('2019-01-08')).toBe(2020);
    expect(cycleOf('2020-11-03')).toBe(2020);
  });

  it('refuses a line with the wrong number of fields', () => {
    expect(splitFecLine(FEC_COLUMNS.linkages, 'a|b|c')).toBeNull();
  });
});
