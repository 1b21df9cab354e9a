// A PAC contribution stored after a member's links were computed reaches the member's campaign
// links at the next incremental `enrich` (migration 0022 gave contributions a write time), and
// storing the same contribution again changes nothing. CONSTRUCTED records on the constructed
// analytics scenario (src/test-support/analytics-scenario.ts): a JPMorgan Chase PAC, its name
// linked to JPM, and a gift to Alice's campaign 10 days after her JPM buy of 2024-03-15.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveFecCommitteeContributions } from '../storage/repositories/campaign-finance.js';
import { membersWithStaleLinks } from '../storage/repositories/trade-links.js';
import { loadAnalyticsScenario, type Scenario } from '../test-support/analytics-scenario.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { enrich } from './enrich.js';

const GIFT = {
  id: 'CONSTRUCTED-X1',
  committee_id: 'C90000001',
  candidate_id: 'H0ZZ00001',
  recipient_committee_id: null,
  transaction_type: '24K',
  entity_type: 'PAC',
  name: 'ALICE TEST FOR CONGRESS',
  contribution_date: '2024-03-25',
  cycle: 2024,
  amount: 5000,
  memo: 0,
};

const at = (hours: number) => new Date(FIXTURE_NOW.getTime() + hours * 3_600_000);

describe('campaign links follow newly stored PAC contributions (constructed)', () => {
  let store: TestStore;
  let scenario: Scenario;
  beforeAll(async () => {
    store = await openTestStore();
    scenario = await loadAnalyticsScenario(store.db);
    const db = store.db;
    await db
      .insertInto('politician_fec_ids')
      .values({ fec_id: GIFT.candidate_id, bioguide_id: 'T000001' })
      .execute();
    await db
      .insertInto('fec_committees')
      .values({
        id: GIFT.committee_id,
        name: 'JPMORGAN CHASE PAC',
        designation: 'B',
        type: 'Q',
        party: null,
        connected_org_name: 'JPMorgan Chase',
        connected_org_key: 'jpmorgan chase',
        candidate_id: null,
      })
      .execute();
    await db
      .insertInto('company_links')
      .values({
        identifier_kind: 'name',
        identifier_value: 'jpmorgan chase',
        ticker: 'JPM',
        display_name: 'JPMorgan Chase',
        method: 'manual',
        confidence: 1,
        source: 'test',
        updated_at: FIXTURE_NOW.toISOString(),
      })
      .execute();
    // Every member's links computed before the contribution is stored.
    await enrich(db, { now: at(0) });
  });
  afterAll(async () => store?.dispose());

  const campaignLinks = async () => {
    const row = await store.db
      .selectFrom('trade_links')
      .select('evidence')
      .where('trade_id', '=', scenario.tradeIds.aliceJpm)
      .executeTakeFirst();
    const evidence: unknown = row ? JSON.parse(row.evidence) : null;
    const campaign =
      evidence !== null && typeof evidence === 'object' && 'campaign' in evidence ? evidence.campaign : [];
    return Array.isArray(campaign) ? campaign : [];
  };

  it('marks the receiving member stale and links the gift at the next incremental enrich', async () => {
    expect(await membersWithStaleLinks(store.db)).toEqual([]);
    expect(await campaignLinks()).toEqual([]);
    const saved = await saveFecCommitteeContributions(store.db, [GIFT], at(1).toISOString());
    expect(saved).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    const stored = await store.db
      .selectFrom('fec_committee_contributions')
      .select('updated_at')
      .where('id', '=', GIFT.id)
      .executeTakeFirstOrThrow();
    expect(stored.updated_at).toBe(at(1).toISOString());
    expect(await membersWithStaleLinks(store.db)).toEqual([scenario.politicianIds.alice]);

    await enrich(store.db, { now: at(2) });
    expect(await membersWithStaleLinks(store.db)).toEqual([]);
    expect(await campaignLinks()).toEqual([
      expect.objectContaining({
        fec_record_id: GIFT.id,
        fec_committee_id: GIFT.committee_id,
        days_from_trade: 10,
      }),
    ]);
  });

  it('keeps the write time of a contribution stored again unchanged, and stamps a changed one', async () => {
    const again = await saveFecCommitteeContributions(store.db, [GIFT], at(3).toISOString());
    expect(again).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect(await membersWithStaleLinks(store.db)).toEqual([]);
    const changed = await saveFecCommitteeContributions(
      store.db,
      [{ ...GIFT, amount: 2500 }],
      at(4).toISOString(),
    );
    expect(changed).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const stored = await store.db
      .selectFrom('fec_committee_contributions')
      .select(['updated_at', 'amount'])
      .where('id', '=', GIFT.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ updated_at: at(4).toISOString(), amount: 2500 });
    expect(await membersWithStaleLinks(store.db)).toEqual([scenario.politicianIds.alice]);
  });
});
