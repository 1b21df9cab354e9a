import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadRoster } from '../storage/repositories/politicians.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { importLegislators } from './legislators/import.js';
import { MemberMatcher } from './members.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('matching filers to members on the real roster', () => {
  let store: TestStore;
  let matcher: MemberMatcher;
  const bioguideOf = new Map<number, string | null>();
  beforeAll(async () => {
    store = await openTestStore();
    const report = await importLegislators(store.db, join(dataDir ?? '', 'congress/legislators'));
    expect(report.people).toBe(12781);
    expect(report.committees).toBe(230);
    const roster = await loadRoster(store.db);
    for (const member of roster) bioguideOf.set(member.id, member.bioguideId);
    matcher = new MemberMatcher(roster);
    return () => store.dispose();
  });

  it.each([
    ['A. Mitchell Mcconnell, Jr.', 'Senate', null, 'M000355'],
    ['Ron L Wyden', 'Senate', null, 'W000779'],
    ['Collins, Susan M. (Senator)', 'Senate', null, 'C001035'],
    ['Shelley M Capito', 'Senate', null, 'C001047'],
    ['Hon. Mark Dr Green', 'House', 'TN07', 'G000590'],
    ['Scott Scott Franklin', 'House', 'FL18', 'F000472'],
    ['Earl Leroy Carter', 'House', 'GA01', 'C001103'],
    ['Thomas H. Kean', 'House', 'NJ07', 'K000398'],
    ['Nancy Pelosi', 'House', 'CA11', 'P000197'],
    ['Donald Sternoff Beyer', 'House', 'VA08', 'B001292'],
  ] as const)('%s (%s %s) -> %s', (name, chamber, seat, bioguide) => {
    const result = matcher.match({ name, chamber, seat });
    expect(result.matched).toBe(true);
    if (result.matched) expect(bioguideOf.get(result.id)).toBe(bioguide);
  });

  it('does not guess between namesakes', () => {
    expect(matcher.match({ name: 'John Smith', chamber: 'House' }).matched).toBe(false);
    expect(matcher.match({ name: 'Zaphod Beeblebrox', chamber: 'Senate' }).matched).toBe(false);
  });

  it('matches by bioguide id first, when the name agrees with it', () => {
    const result = matcher.match({ name: 'Ron Wyden', chamber: 'Senate', bioguideId: 'W000779' });
    expect(result).toMatchObject({ matched: true, by: 'bioguide' });
    // A data set's id is a hint: under another name it does not put the trade on that member.
    const other = matcher.match({ name: 'Anybody', chamber: 'Senate', bioguideId: 'W000779' });
    expect(other.matched).toBe(false);
  });
});
