import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { importBills } from './import.js';
import { readBills } from './read.js';

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
    expect(api.skipped.map((s) => s.file)).toEqual(expect.arrayContaining(['bill_117_hr_21_actions.json']));
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
    expect(again).toMatchObject({ inserted: 0, updated: 0 });
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
