import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  candidateIdsOf,
  committeeIdsOf,
  cycleTotals,
  pacContributionsByCompany,
  topEmployers,
} from '../../storage/repositories/campaign-finance.js';
import { saveCompanyLinks } from '../../storage/repositories/company-links.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { importLegislators } from '../legislators/import.js';
import { FecInputError, importFec } from './import.js';

const dataDir = inject('dataDir');
const fec = join(dataDir ?? '', 'related/fec');

describe.skipIf(!dataDir)('importing the FEC bulk files (real 2019-20 and 2021-22 cycle files)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => store?.dispose());

  it('stores candidates, committees, linkages, PAC contributions, employer sums and cycle totals, once', async () => {
    await importLegislators(
      store.db,
      join(dataDir ?? '', 'related/bills/congress-legislators'),
      new Date('2026-06-01T12:00:00Z'),
    );
    const first = await importFec(store.db, fec, { now: new Date('2026-06-01T12:00:00Z') });
    const byFile = Object.fromEntries(first.files.map((f) => [f.file, f]));
    expect(byFile['fec-bulk-2019-2020-cycle_asof-2019-03/cn.txt']).toMatchObject({
      kind: 'candidates',
      rows: 3937,
    });
    expect(byFile['fec-bulk-2021-2022-cycle_plus_weball24/weball24.txt']).toMatchObject({
      kind: 'candidate_totals',
      rows: 3860,
    });
    // Both cycles' masters list many of the same candidates: one row each.
    expect(first.saved.candidates?.inserted).toBeLessThan(3937 + 8583);
    // 98 rows name only the receiving committee: the candidate comes from the committee master or linkages.
    const itpas2 = byFile['fec-bulk-2019-2020-cycle_asof-2019-03/itpas2.txt'];
    const pacRows = first.saved.committee_contributions?.inserted ?? 0;
    expect(pacRows + Object.values(itpas2?.skipped ?? {}).reduce((a, b) => a + b, 0)).toBe(3159);
    expect(pacRows).toBeGreaterThan(3061);
    const itcont = byFile['fec-bulk-2019-2020-cycle_asof-2019-03/itcont_first20000.txt'];
    expect(itcont?.rows).toBe(20_000);
    expect(Object.keys(itcont?.skipped ?? {})).toEqual(expect.arrayContaining(['no employer given']));
    expect(first.ignored).toContainEqual({
      file: 'fec-bulk-2019-2020-cycle_asof-2019-03/webk20.txt',
      reason: 'not an FEC bulk file this import reads',
    });
    expect(first.candidatesLinkedToMembers).toBeGreaterThan(400);
    expect(first.unmatchedEmployerCount).toBeGreaterThan(100);

    // Pelosi: her FEC id from congress-legislators reaches her 2022 and 2024 totals.
    const pelosiIds = await candidateIdsOf(store.db, 'P000197');
    expect(pelosiIds).toContain('H8CA05035');
    const totals = await cycleTotals(store.db, pelosiIds);
    expect(totals.map((t) => t.cycle)).toEqual(expect.arrayContaining([2024, 2022]));

    const second = await importFec(store.db, fec, { now: new Date('2026-06-02T12:00:00Z') });
    expect(second.totals).toMatchObject({ inserted: 0, updated: 0, unchanged: first.totals.inserted });
  });

  it('sums individual contributions by employer and names the company through the identity table', async () => {
    await importFec(store.db, fec);
    // The biggest employer sum to one committee in the slice, then a link for it (as the matching list would add).
    const top = await store.db
      .selectFrom('fec_employer_totals')
      .selectAll()
      .orderBy('amount', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await saveCompanyLinks(
      store.db,
      [
        {
          identifier_kind: 'name',
          identifier_value: top.employer_key,
          ticker: 'TEST',
          display_name: top.employer_name,
          method: 'manual',
          confidence: 1,
          source: 'test',
        },
      ],
      new Date().toISOString(),
    );
    const employers = await topEmployers(store.db, [top.committee_id], { limit: 5 });
    expect(employers[0]).toMatchObject({ employer_key: top.employer_key, ticker: 'TEST' });
    expect(Number(employers[0]?.amount)).toBeCloseTo(top.amount, 2);
  });

  it('finds a candidate committee and the PAC money given to the candidate', async () => {
    await importFec(store.db, fec);
    // H2FL06109 (Ted Yoho) received 1,880 from C00567180 on 2019-01-08 in itpas2.
    const committees = await committeeIdsOf(store.db, ['H2FL06109']);
    expect(committees.length).toBeGreaterThan(0);
    const pacs = await pacContributionsByCompany(store.db, ['H2FL06109'], { limit: 50 });
    expect(pacs.find((p) => p.committee_id === 'C00567180')).toBeDefined();
  });

  it('refuses a directory without FEC files', async () => {
    await expect(importFec(store.db, join(dataDir ?? '', 'related/votes'))).rejects.toThrow(FecInputError);
  });
});
