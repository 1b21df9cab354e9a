// The timing rule as properties over generated trades, seats and roll calls (pure; the
// constructed scenario and the real data are tested through the route): every hit satisfies the
// rule and cites only input records, and widening days_before never removes a hit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../domain/dates.js';
import type { RangeTradeRow } from '../storage/repositories/analytics-clusters.js';
import type { MemberSeatRow } from '../storage/repositories/committee-seats.js';
import { type LegislativeAction, matchTiming, type TimingInput } from './suspicious-timing.js';

const START = '2024-01-01';

function trade(id: number, member: number, sector: string, day: number): RangeTradeRow {
  return {
    id,
    politician_id: member,
    politician_name: `Member ${member}`,
    politician_slug: `member-${member}`,
    party: 'D',
    state: 'ZZ',
    chamber: 'House',
    bioguide_id: `M${member}`,
    source: 'house_clerk',
    ticker: sector === 'Energy' ? 'XOM' : 'JPM',
    asset_description: null,
    trade_type: 'Purchase',
    trade_action: 'buy',
    amount_range: null,
    amount_low: 1001,
    amount_high: 15000,
    transaction_date: addDays(START, day),
    disclosure_date: null,
    owner: null,
    filing_url: null,
    sector,
    industry: null,
    price_on_trade_date: null,
    gain_30d: null,
    gain_90d: null,
    alpha_30d: null,
    alpha_90d: null,
  };
}

function action(index: number, kind: 'committee' | 'floor', policyArea: string, day: number) {
  const base: LegislativeAction = {
    kind,
    date: addDays(START, day),
    text: `action ${index}`,
    bill_id: `hr${index}-118`,
    bill_title: null,
    bill_url: null,
    action_seq: kind === 'committee' ? 0 : null,
    action_code: null,
    committee_ids: kind === 'committee' ? ['HSIF'] : [],
    vote_id: kind === 'floor' ? `h118-${index}` : null,
    roll_number: kind === 'floor' ? index : null,
    result: null,
  };
  return { ...base, bill: { policyArea, subjects: [], title: null, titleField: 'title' as const } };
}

/** bioguide id -> vote id -> position, the later entry for a vote winning (as a stored row would). */
function positionsByMember(entries: readonly { member: number; vote: number; position: string }[]) {
  const byMember = new Map<string, Map<string, string>>();
  for (const entry of entries) {
    const member = byMember.get(`M${entry.member}`) ?? new Map<string, string>();
    member.set(`h118-${entry.vote}`, entry.position);
    byMember.set(`M${entry.member}`, member);
  }
  return byMember;
}

const inputArbitrary = fc
  .record({
    trades: fc.array(
      fc.record({
        member: fc.integer({ min: 1, max: 4 }),
        sector: fc.constantFrom('Energy', 'Financials'),
        day: fc.integer({ min: 0, max: 90 }),
      }),
      { maxLength: 30 },
    ),
    actions: fc.array(
      fc.record({
        kind: fc.constantFrom('committee' as const, 'floor' as const),
        area: fc.constantFrom('Energy', 'Finance and Financial Sector', 'Taxation'),
        day: fc.integer({ min: 0, max: 120 }),
      }),
      { maxLength: 12 },
    ),
    seats: fc.array(
      fc.record({
        member: fc.integer({ min: 1, max: 4 }),
        start: fc.integer({ min: 0, max: 60 }),
        length: fc.option(fc.integer({ min: 1, max: 60 })),
      }),
      { maxLength: 4 },
    ),
    positions: fc.array(
      fc.record({
        member: fc.integer({ min: 1, max: 4 }),
        vote: fc.integer({ min: 0, max: 11 }),
        position: fc.constantFrom('yea', 'nay', 'not_voting'),
      }),
      {
        maxLength: 20,
      },
    ),
  })
  .map(({ trades, actions, seats, positions }): TimingInput => {
    const seatRows: MemberSeatRow[] = seats.map((seat) => ({
      committee_id: 'HSIF',
      committee_name: 'Energy and Commerce',
      parent_id: null,
      bioguide_id: `M${seat.member}`,
      side: null,
      title: null,
      start_date: addDays(START, seat.start),
      start_basis: 'observed',
      end_date: seat.length === null ? null : addDays(START, seat.start + seat.length),
    }));
    return {
      trades: trades.map((spec, index) => trade(index + 1, spec.member, spec.sector, spec.day)),
      actions: actions.map((spec, index) => action(index, spec.kind, spec.area, spec.day)),
      seats: seatRows,
      positions: positionsByMember(positions),
      companyNames: new Map(),
      committeeNames: new Map(),
    };
  });

describe('suspicious timing (properties over generated records)', () => {
  it('cites only input records, and each hit satisfies the rule', () => {
    fc.assert(
      fc.property(inputArbitrary, fc.integer({ min: 1, max: 60 }), (input, daysBefore) => {
        const tradeIds = new Set(input.trades.map((row) => row.id));
        const actionKeys = new Set(input.actions.map((row) => `${row.bill_id}|${row.vote_id}|${row.date}`));
        for (const hit of matchTiming(input, { daysBefore, kinds: ['committee', 'floor'] })) {
          expect(tradeIds.has(hit.trade.id)).toBe(true);
          expect(actionKeys.has(`${hit.action.bill_id}|${hit.action.vote_id}|${hit.action.date}`)).toBe(true);
          expect(hit.days_between).toBe(daysBetween(hit.trade.transaction_date, hit.action.date));
          expect(hit.days_between).toBeGreaterThanOrEqual(1);
          expect(hit.days_between).toBeLessThanOrEqual(daysBefore);
          expect(hit.member_roles.length).toBeGreaterThan(0);
          expect(hit.bill_match.length).toBeGreaterThan(0);
          for (const role of hit.member_roles) {
            if (role.kind === 'vote') expect(['yea', 'nay', 'present']).toContain(role.position);
            else {
              expect(role.start_date <= hit.trade.transaction_date).toBe(true);
              expect(role.end_date === null || role.end_date > hit.trade.transaction_date).toBe(true);
            }
          }
        }
      }),
    );
  });

  it('never loses a hit when days_before widens', () => {
    fc.assert(
      fc.property(
        inputArbitrary,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 30 }),
        (input, daysBefore, extra) => {
          const key = (hit: { trade: { id: number }; action: { bill_id: string; kind: string } }) =>
            `${hit.trade.id}|${hit.action.kind}|${hit.action.bill_id}`;
          const kinds = ['committee', 'floor'] as const;
          const narrow = matchTiming(input, { daysBefore, kinds }).map(key);
          const wide = new Set(matchTiming(input, { daysBefore: daysBefore + extra, kinds }).map(key));
          for (const hit of narrow) expect(wide.has(hit)).toBe(true);
        },
      ),
    );
  });
});
