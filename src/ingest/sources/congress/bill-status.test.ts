import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  BillFileError,
  committeeIdFromSystemCode,
  mergeBillDetails,
  readBillDetails,
} from './bill-status.js';

const dataDir = inject('dataDir');
const billsDir = join(dataDir ?? '', 'related/bills');
const xml = (name: string) =>
  readBillDetails(name, readFileSync(join(billsDir, 'billstatus-xml', name), 'utf8'));
const api = (name: string) =>
  readBillDetails(name, readFileSync(join(billsDir, 'congress-gov-api-v3', `${name}.json`), 'utf8'));

describe.skipIf(!dataDir)('BILLSTATUS XML (real GovInfo samples)', () => {
  it('reads 117 S. 35: sponsor, dated cosponsors, committee referral and discharge, every action with its code', () => {
    const [bill] = xml('formatChange__current__BILLSTATUS-117s35.xml');
    expect(bill?.record).toMatchObject({
      id: 's35-117',
      billType: 'S',
      introducedDate: '2021-01-22',
      sponsorBioguideId: 'V000128',
      policyArea: 'Congress',
      url: 'https://www.congress.gov/bill/117th-congress/senate-bill/35',
    });
    expect(bill?.sponsors?.filter((s) => s.role === 'cosponsor')).toHaveLength(72);
    expect(bill?.sponsors?.find((s) => s.bioguideId === 'C001088')).toEqual({
      bioguideId: 'C001088',
      role: 'cosponsor',
      fullName: 'Sen. Coons, Christopher A. [D-DE]',
      party: 'D',
      state: 'DE',
      sponsorshipDate: '2021-01-22',
      isOriginalCosponsor: true,
      withdrawnDate: null,
    });
    expect(bill?.committees).toEqual([
      expect.objectContaining({
        committeeId: 'SSBK',
        activity: 'Discharged from',
        date: '2021-02-12T23:28:42Z',
      }),
      expect.objectContaining({ committeeId: 'SSBK', activity: 'Referred to', date: '2021-01-22T22:37:34Z' }),
    ]);
    expect(bill?.actions).toHaveLength(10);
    expect(bill?.actions?.[0]).toEqual({
      date: '2021-02-18',
      time: '12:34:00',
      code: 'H15000',
      type: 'Floor',
      text: 'Held at the desk.',
      sourceSystem: 'House floor actions',
      committeeIds: [],
    });
    expect(bill?.actions?.find((a) => a.code === '14500')?.committeeIds).toEqual(['SSBK']);
    expect(bill?.subjects).toContain('Law enforcement officers');
    expect(bill?.relatedBills).toEqual([
      {
        billId: 'hr305-117',
        title: 'Officer Eugene Goodman Congressional Gold Medal Act',
        relationship: 'Identical bill',
        identifiedBy: 'CRS',
      },
    ]);
  });

  it('reads 117 H.R. 1: subcommittee referrals, 63 actions, 112 subjects and its two recorded House votes', () => {
    const [bill] = xml('formatChange__current__BILLSTATUS-117hr1.xml');
    expect(bill?.actions).toHaveLength(63);
    expect(bill?.subjects).toHaveLength(112);
    expect(bill?.sponsors?.filter((s) => s.role === 'cosponsor')).toHaveLength(222);
    expect(bill?.committees).toContainEqual(
      expect.objectContaining({
        committeeId: 'HSJU03',
        name: 'Courts, Intellectual Property, and the Internet Subcommittee',
        activity: 'Referred to',
        date: '2021-03-01T13:00:09Z',
      }),
    );
    expect(bill?.recordedVotes).toEqual([
      expect.objectContaining({ chamber: 'House', congress: 117, session: 1, clerkRollNumber: 62 }),
      expect.objectContaining({ clerkRollNumber: 61, actionName: 'Motion to Commit/Recommit Results' }),
    ]);
    expect(bill?.relatedBills).toHaveLength(61);
  });

  it('reads the legacy schema (114 H.R. 1531): policy area from the primary subject, "S." related bills', () => {
    const [bill] = xml('legacy__BILLSTATUS-114hr1531.xml');
    expect(bill?.record).toMatchObject({
      policyArea: 'Government Operations and Politics',
      sponsorBioguideId: 'C001078',
    });
    expect(bill?.actions).toHaveLength(30);
    expect(bill?.actions?.at(-1)).toMatchObject({
      date: '2015-03-23',
      code: '1000',
      text: 'Introduced in House',
    });
    expect(
      bill?.committees?.filter((c) => c.activity === 'Referred to').map((c) => [c.committeeId, c.date]),
    ).toEqual([
      ['SSGA', '2015-07-08T16:32:45Z'],
      ['HSGO', '2015-03-23T16:04:00Z'],
    ]);
    expect(bill?.relatedBills?.map((r) => r.billId)).toEqual(['s1522-114', 's1591-114']);
    expect(bill?.subjects).toEqual([
      'Department of the Interior',
      'Government employee pay, benefits, personnel management',
      'Temporary and part-time employment',
    ]);
  });

  it('reads every sample, with the action counts the files hold', () => {
    const counts = Object.fromEntries(
      readdirSync(join(billsDir, 'billstatus-xml'))
        .sort()
        .map((name) => {
          const [bill] = xml(name);
          return [bill?.id, bill?.actions?.length];
        }),
    );
    expect(counts).toEqual({
      's2979-115': 2,
      'hr4907-116': 5,
      'hr5053-116': 3,
      'hr5177-116': 3,
      'hr5183-116': 5,
      'hr5240-116': 3,
      's2902-116': 2,
      's790-116': 3,
      's832-116': 13,
      'hr1-117': 63,
      'hr6658-117': 3,
      's35-117': 10,
      'sconres7-117': 2,
      'hr1531-114': 30,
      'hr2566-114': 10,
    });
  });
});

describe.skipIf(!dataDir)('congress.gov API v3 answers (real Library of Congress samples)', () => {
  it('reads the bill and each sub-resource of 117 H.R. 21, and merges them into one record', () => {
    const parts = [
      'bill_117_hr_21',
      'bill_117_hr_21_actions',
      'bill_117_hr_21_committees',
      'bill_117_hr_21_cosponsors',
      'bill_117_hr_21_subjects',
      'bill_117_hr_21_relatedbills',
    ].flatMap(api);
    expect(parts.map((p) => p.id)).toEqual(Array(6).fill('hr21-117'));
    const [first, ...rest] = parts;
    if (!first) throw new Error('no parts');
    const bill = rest.reduce(mergeBillDetails, first);
    expect(bill.record).toMatchObject({ title: 'FedRAMP Authorization Act', sponsorBioguideId: 'C001078' });
    expect(bill.sponsors?.map((s) => [s.role, s.bioguideId, s.sponsorshipDate])).toEqual([
      ['sponsor', 'C001078', null],
      ['cosponsor', 'C001108', '2021-01-04'],
      ['cosponsor', 'H001071', '2021-01-04'],
    ]);
    expect(bill.actions).toHaveLength(10);
    expect(bill.actions?.[1]).toMatchObject({
      date: '2021-01-05',
      time: '12:17:16',
      code: 'H38310',
      text: 'Motion to reconsider laid on the table Agreed to without objection.',
    });
    expect(bill.committees).toEqual([
      expect.objectContaining({ committeeId: 'SSGA', activity: 'Referred to', date: '2021-01-07T01:26:34Z' }),
      expect.objectContaining({ committeeId: 'HSGO', activity: 'Referred to', date: '2021-01-04T15:11:25Z' }),
    ]);
    expect(bill.subjects).toHaveLength(13);
    expect(bill.subjects).toContain('Computer security and identity theft');
    expect(bill.relatedBills).toEqual([
      {
        billId: 's3099-117',
        title: 'Federal Secure Cloud Improvement and Jobs Act of 2021',
        relationship: 'Related bill',
        identifiedBy: 'CRS',
      },
    ]);
  });

  it('says which answers carry no bill records (titles, text, summaries, amendments)', () => {
    for (const name of ['bill_117_hr_21_titles', 'bill_117_hr_21_text', 'bill_117_hr_21_summaries'])
      expect(() => api(name)).toThrow(BillFileError);
  });

  it('keeps list entries to the bill fields (a list never carries sponsors)', () => {
    const [listed] = api('bill_117_hr');
    expect(listed).toMatchObject({ id: 'hr3617-117', sponsors: null, actions: null });
  });
});

describe('committee codes', () => {
  it('maps Library of Congress system codes to thomas ids', () => {
    expect(committeeIdFromSystemCode('hsgo00')).toBe('HSGO');
    expect(committeeIdFromSystemCode('hsju03')).toBe('HSJU03');
    expect(committeeIdFromSystemCode('ssbk00')).toBe('SSBK');
  });
});
