import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { seatHistory, seatsOnDate, wasOnCommittee } from '../../storage/repositories/committee-seats.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { congressStart, importLegislators } from './import.js';

const dataDir = inject('dataDir');
const legislators = join(dataDir ?? '', 'related/bills/congress-legislators');

describe('the Congress a date falls in', () => {
  it('starts on January 3 of the odd year', () => {
    expect(congressStart('2026-06-01')).toBe('2025-01-03');
    expect(congressStart('2025-01-03')).toBe('2025-01-03');
    expect(congressStart('2025-01-02')).toBe('2023-01-03');
  });
});

describe.skipIf(!dataDir)('committee seats with history (real congress-legislators rosters)', () => {
  let store: TestStore;
  let dir: string;
  beforeEach(async () => {
    store = await openTestStore();
    dir = mkdtempSync(join(tmpdir(), 'dcledger-seats-'));
    for (const file of [
      'legislators-current.json',
      'committees-current.json',
      'committee-membership-current.json',
    ])
      copyFileSync(join(legislators, file), join(dir, file));
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store?.dispose();
  });

  it('opens seats from the roster, closes the ones that leave it, and answers "on the committee on that date"', async () => {
    const first = await importLegislators(store.db, dir, new Date('2026-06-01T12:00:00Z'));
    expect(first.seats?.opened).toBeGreaterThan(3000);
    expect(first.fecIds).toBeGreaterThan(500);
    // John Boozman chairs Senate Agriculture in the real roster; his seat dates from the 119th Congress.
    expect(await wasOnCommittee(store.db, 'SSAF', 'B001236', '2025-02-01')).toBe(true);
    expect(await wasOnCommittee(store.db, 'SSAF', 'B001236', '2024-12-31')).toBe(false);
    const ssaf = await seatsOnDate(store.db, 'SSAF', '2026-01-15');
    expect(ssaf.find((seat) => seat.bioguide_id === 'B001236')).toMatchObject({
      side: 'majority',
      title: 'Chairman',
      rank: 1,
      start_date: '2025-01-03',
      start_basis: 'congress_start',
      end_date: null,
    });

    // A later roster (constructed from the real one): Boozman leaves SSAF, and joins SSBK.
    const roster = JSON.parse(readFileSync(join(dir, 'committee-membership-current.json'), 'utf8')) as Record<
      string,
      { bioguide: string; name: string; party: string; rank: number; title?: string }[]
    >;
    roster.SSAF = (roster.SSAF ?? []).filter((member) => member.bioguide !== 'B001236');
    roster.SSBK = [
      ...(roster.SSBK ?? []),
      { bioguide: 'B001236', name: 'John Boozman', party: 'majority', rank: 99 },
    ];
    writeFileSync(join(dir, 'committee-membership-current.json'), JSON.stringify(roster));
    const second = await importLegislators(store.db, dir, new Date('2026-09-15T12:00:00Z'));
    expect(second.seats).toMatchObject({ opened: 1, closed: 1, updated: 0 });

    expect(await wasOnCommittee(store.db, 'SSAF', 'B001236', '2026-06-01')).toBe(true);
    expect(await wasOnCommittee(store.db, 'SSAF', 'B001236', '2026-09-15')).toBe(false);
    expect(await wasOnCommittee(store.db, 'SSBK', 'B001236', '2026-09-14')).toBe(false);
    expect(await wasOnCommittee(store.db, 'SSBK', 'B001236', '2026-09-15')).toBe(true);
    const history = (await seatHistory(store.db, 'SSAF')).filter((seat) => seat.bioguide_id === 'B001236');
    expect(history).toEqual([expect.objectContaining({ start_date: '2025-01-03', end_date: '2026-09-15' })]);

    const third = await importLegislators(store.db, dir, new Date('2026-09-16T12:00:00Z'));
    expect(third.seats).toMatchObject({ opened: 0, closed: 0, updated: 0 });
    expect(third.fecIds).toBe(0);
  });
});
