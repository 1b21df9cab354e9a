import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { readBills } from '../sources/congress/bill-status.js';
import { importBills } from './import.js';

const dataDir = inject('dataDir');
const bills = (path: string) => join(dataDir ?? '', 'related/bills', path);

describe.skipIf(!dataDir)('importing bills', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => store?.dispose());

  it('reads the congress.gov API and BILLSTATUS XML, skipping answers that are not bills', async () => {
    const api = await importBills(store.db, bills('congress-gov-api-v3'));
    // Actions, committees, cosponsors, subjects and related bills are read; these carry nothing stored.
    expect(api.skipped.map((s) => s.file)).toEqual([
      'bill_117_hr_21_amendments.json',
      'bill_117_hr_21_summaries.json',
      'bill_117_hr_21_text.json',
      'bill_117_hr_21_titles.json',
    ]);
    const xml = await importBills(store.db, bills('billstatus-xml'));
    expect(xml.bills).toBe(15);
    const hr21 = await store.db
      .selectFrom('bills')
      .selectAll()
      .where('id', '=', 'hr21-117')
      .executeTakeFirstOrThrow();
    expect(hr21).toMatchObject({
      congress: 117,
      bill_type: 'HR',
      number: 21,
      title: 'FedRAMP Authorization Act',
      introduced_date: '2021-01-04',
      sponsor_bioguide_id: 'C001078',
      policy_area: 'Government Operations and Politics',
      latest_action_date: '2021-01-06',
    });
    const again = await importBills(store.db, bills('billstatus-xml'));
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 15 });
    const apiAgain = await importBills(store.db, bills('congress-gov-api-v3'));
    expect(apiAgain).toMatchObject({ inserted: 0, updated: 0 });
  });

  it('keeps every part: actions with codes, committee referrals with dates, cosponsors, subjects, related bills, recorded votes', async () => {
    await importBills(store.db, bills('congress-gov-api-v3'));
    await importBills(store.db, bills('billstatus-xml'));
    const actions = await store.db
      .selectFrom('bill_actions')
      .selectAll()
      .where('bill_id', '=', 'hr21-117')
      .orderBy('seq')
      .execute();
    expect(actions).toHaveLength(10);
    expect(actions[1]).toMatchObject({
      action_date: '2021-01-05',
      action_code: 'H38310',
      action_time: '12:17:16',
    });
    const referrals = await store.db
      .selectFrom('bill_committee_activities')
      .select(['committee_id', 'activity', 'activity_date'])
      .where('bill_id', '=', 'hr21-117')
      .orderBy('seq')
      .execute();
    expect(referrals).toEqual([
      { committee_id: 'SSGA', activity: 'Referred to', activity_date: '2021-01-07T01:26:34Z' },
      { committee_id: 'HSGO', activity: 'Referred to', activity_date: '2021-01-04T15:11:25Z' },
    ]);
    const sponsors = await store.db
      .selectFrom('bill_sponsors')
      .select(['role', 'bioguide_id'])
      .where('bill_id', '=', 'hr21-117')
      .orderBy('role', 'desc')
      .orderBy('bioguide_id')
      .execute();
    expect(sponsors).toEqual([
      { role: 'sponsor', bioguide_id: 'C001078' },
      { role: 'cosponsor', bioguide_id: 'C001108' },
      { role: 'cosponsor', bioguide_id: 'H001071' },
    ]);
    const count = async (table: 'bill_subjects' | 'bill_related' | 'bill_recorded_votes', id: string) =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('bill_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('bill_subjects', 'hr1-117')).toBe(112);
    expect(await count('bill_related', 'hr1-117')).toBe(61);
    expect(await count('bill_recorded_votes', 'hr1-117')).toBe(2);
  });

  it('names BILLSTATUS bills by their short title', () => {
    const [bill] = readBills(
      'x.xml',
      `<billStatus><bill><billNumber>1531</billNumber><billType>HR</billType><congress>114</congress>
      <title>Land Management Workforce Flexibility Act</title>
      <titles><item><titleType>Short Titles as Introduced</titleType><title>LMWF Act</title></item></titles></bill></billStatus>`,
    );
    expect(bill).toMatchObject({ id: 'hr1531-114', shortTitle: 'LMWF Act' });
  });
});
