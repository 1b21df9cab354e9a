// GET /conflict/{politician_id} reads the links stored by the member refresh (trade_links); this
// checks that what it reads is exactly what computing them now gives, on the real data, and that
// the links follow new lobbying filings and seat changes through the next incremental enrichment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrich } from '../../../analytics/enrich.js';
import { memberConflicts } from '../../../services/conflicts.js';
import { membersWithStaleLinks } from '../../../storage/repositories/trade-links.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';
import { FIXTURE_NOW } from '../../../test-support/real-data.js';

describe.skipIf(!realDataAvailable())(
  'GET /conflict/{politician_id}: stored links equal computed ones',
  () => {
    let ctx: FixtureApp;
    /** Members with the most stored links, a member with links only through money, one with none. */
    let members: { id: number; slug: string }[];
    beforeAll(async () => {
      ctx = await openFixtureApp();
      const db = ctx.store.db;
      const busiest = await db
        .selectFrom('trade_links as l')
        .innerJoin('politicians as p', 'p.id', 'l.politician_id')
        .select(['p.id', 'p.slug', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['p.id', 'p.slug'])
        .orderBy('n', 'desc')
        .orderBy('p.id')
        .limit(4)
        .execute();
      const linked = await db
        .selectFrom('trade_links as l')
        .innerJoin('politicians as p', 'p.id', 'l.politician_id')
        .select(['p.id', 'p.slug'])
        .where('l.link_kinds', '!=', '[]')
        .orderBy('p.id')
        .limit(1)
        .execute();
      const unlinked = await db
        .selectFrom('member_links as m')
        .innerJoin('politicians as p', 'p.id', 'm.politician_id')
        .select(['p.id', 'p.slug'])
        .where('m.seats_known_from', 'is', null)
        .orderBy('p.id')
        .limit(1)
        .execute();
      members = [...busiest, ...linked, ...unlinked].map((row) => ({ id: row.id, slug: row.slug }));
    });
    afterAll(async () => ctx?.close());

    it('stores links for every member with trades, and some carry a money link', async () => {
      expect(await membersWithStaleLinks(ctx.store.db)).toEqual([]);
      expect(members.length).toBeGreaterThanOrEqual(5);
      const kinds = await ctx.store.db.selectFrom('trade_links').select('link_kinds').distinct().execute();
      expect(kinds.map((row) => row.link_kinds).join(' ')).toMatch(/lobbying|contract|campaign/);
    });

    it('answers the same from the stored links as from computing them, whole and paged', async () => {
      for (const member of members) {
        const page = { limit: 1000, offset: 0 };
        const stored = await memberConflicts(ctx.store.db, member.slug, page, FIXTURE_NOW);
        const computed = await memberConflicts(ctx.store.db, member.slug, page, FIXTURE_NOW, {
          computed: true,
        });
        expect(stored, member.slug).toEqual(computed);
        const middle = { limit: 3, offset: 2 };
        expect(await memberConflicts(ctx.store.db, member.slug, middle, FIXTURE_NOW)).toEqual(
          await memberConflicts(ctx.store.db, member.slug, middle, FIXTURE_NOW, { computed: true }),
        );
      }
      // The route serves the stored answer.
      const first = members[0];
      if (!first) throw new Error('no member');
      const { status, body } = await getJson(ctx, `/conflict/${first.slug}?limit=1000`);
      expect(status).toBe(200);
      expect(body).toEqual(
        JSON.parse(
          JSON.stringify(
            await memberConflicts(ctx.store.db, first.slug, { limit: 1000, offset: 0 }, FIXTURE_NOW),
          ),
        ),
      );
    });

    it('answers a member whose links were never stored by computing them, and enrichment stores them', async () => {
      const member = members[0];
      if (!member) throw new Error('no member');
      const db = ctx.store.db;
      const before = await memberConflicts(db, member.slug, { limit: 1000, offset: 0 }, FIXTURE_NOW);
      await db.deleteFrom('trade_links').where('politician_id', '=', member.id).execute();
      await db.deleteFrom('member_links').where('politician_id', '=', member.id).execute();
      expect(await membersWithStaleLinks(db)).toEqual([member.id]);
      expect(await memberConflicts(db, member.slug, { limit: 1000, offset: 0 }, FIXTURE_NOW)).toEqual(before);
      const later = new Date(FIXTURE_NOW.getTime() + 60_000);
      await enrich(db, { now: later });
      expect(await membersWithStaleLinks(db)).toEqual([]);
      const state = await db
        .selectFrom('member_links')
        .select('computed_at')
        .where('politician_id', '=', member.id)
        .executeTakeFirstOrThrow();
      expect(state.computed_at).toBe(later.toISOString());
      expect(await memberConflicts(db, member.slug, { limit: 1000, offset: 0 }, FIXTURE_NOW)).toEqual(before);
    });

    it('marks members stale when a lobbying filing of a ticker they traded, or their seats, change later', async () => {
      const db = ctx.store.db;
      const traded = await db
        .selectFrom('lobbying_filings as l')
        .innerJoin('trades as t', 't.ticker', 'l.ticker')
        .select(['l.id', 't.politician_id'])
        .where('t.superseded_by', 'is', null)
        .orderBy('l.id')
        .limit(1)
        .executeTakeFirstOrThrow();
      const future = new Date(FIXTURE_NOW.getTime() + 3_600_000).toISOString();
      await db
        .updateTable('lobbying_filings')
        .set({ updated_at: future })
        .where('id', '=', traded.id)
        .execute();
      expect(await membersWithStaleLinks(db)).toContain(traded.politician_id);
      const seated = await db
        .selectFrom('committee_seats as s')
        .innerJoin('politicians as p', 'p.bioguide_id', 's.bioguide_id')
        .innerJoin('member_links as m', 'm.politician_id', 'p.id')
        .select(['s.id', 'p.id as politician_id'])
        .orderBy('s.id')
        .limit(1)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('committee_seats')
        .set({ updated_at: future })
        .where('id', '=', seated.id)
        .execute();
      expect(await membersWithStaleLinks(db)).toContain(seated.politician_id);
      await enrich(db, { now: new Date(FIXTURE_NOW.getTime() + 7_200_000) });
      expect(await membersWithStaleLinks(db)).toEqual([]);
    });
  },
);
