// The overlap rules on generated records (CONSTRUCTED: random seats, filings, awards and gifts in
// the tables' shapes): widening the window never removes a link, a narrower window's links are the
// wider one's records within it, every link names a record that was given and lies within the
// window, and committee links need a seat held on the trade date.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../domain/dates.js';
import {
  buildLinkIndex,
  type LinkContract,
  type LinkLobbying,
  type LinkSeat,
  linksOfTrade,
  linksWithin,
  nearestLinkDays,
} from './overlap.js';

const BASE = '2020-01-01';
const day = fc.integer({ min: 0, max: 2000 }).map((offset) => addDays(BASE, offset));
const ENTITIES = [
  'HOUSE OF REPRESENTATIVES',
  'SENATE',
  'Defense, Dept of (DOD)',
  'Treasury, Dept of',
  'Energy, Dept of',
];
const AGENCIES = [
  'Department of Defense',
  'Department of Energy',
  'Department of the Treasury',
  'General Services Administration',
];
const COMMITTEES = ['HSAS', 'HSBA', 'HSIF', 'SSFI', 'SSAS', 'HSAP'];

const seat = fc.record({
  committeeId: fc.constantFrom(...COMMITTEES),
  start: fc.integer({ min: 0, max: 1500 }),
  length: fc.option(fc.integer({ min: 1, max: 800 }), { nil: null }),
});
const filing = fc.record({
  ticker: fc.constantFrom('LMT', 'JPM'),
  filedDate: day,
  entities: fc.subarray(ENTITIES),
  issueCodes: fc.subarray(['DEF', 'BAN', 'TAX', 'ENG', 'HCR']),
});
const award = fc.record({
  ticker: fc.constantFrom('LMT', 'JPM'),
  awardDate: day,
  agency: fc.constantFrom(...AGENCIES),
});
const gift = fc.record({
  ticker: fc.constantFrom('LMT', 'JPM'),
  date: day,
  amount: fc.integer({ min: 1, max: 5000 }),
});

const world = fc.record({
  seats: fc.array(seat, { maxLength: 4 }),
  filings: fc.array(filing, { maxLength: 6 }),
  awards: fc.array(award, { maxLength: 4 }),
  gifts: fc.array(gift, { maxLength: 4 }),
  trade: fc.record({ ticker: fc.constantFrom('LMT', 'JPM'), date: day }),
  narrow: fc.integer({ min: 0, max: 400 }),
  extra: fc.integer({ min: 0, max: 800 }),
});

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function indexOf(generated: World) {
  const seats: LinkSeat[] = generated.seats.map((entry) => ({
    committeeId: entry.committeeId,
    seatCommitteeId: entry.committeeId,
    bioguideId: 'M000001',
    title: null,
    startDate: addDays(BASE, entry.start),
    endDate: entry.length === null ? null : addDays(BASE, entry.start + entry.length),
  }));
  const lobbying: LinkLobbying[] = generated.filings.map((entry, index) => ({
    id: index + 1,
    filingUuid: `uuid-${index + 1}`,
    ticker: entry.ticker,
    clientName: entry.ticker,
    filedDate: entry.filedDate,
    amount: null,
    entities: entry.entities,
    issueCodes: entry.issueCodes,
  }));
  const contracts: LinkContract[] = generated.awards.map((entry, index) => ({
    id: index + 1,
    awardId: `award-${index + 1}`,
    awardKey: `CONT_AWD_${index + 1}`,
    ticker: entry.ticker,
    awardDate: entry.awardDate,
    amount: null,
    agencies: [entry.agency],
  }));
  const contributions = generated.gifts.map((entry, index) => ({
    id: `fec-${index + 1}`,
    ticker: entry.ticker,
    bioguideId: 'M000001',
    committeeId: 'C00000001',
    committeeName: null,
    date: entry.date,
    amount: entry.amount,
  }));
  return {
    index: buildLinkIndex({ seats, lobbying, contracts, contributions }),
    lobbying,
    contracts,
    contributions,
  };
}

const keys = (links: ReturnType<typeof linksOfTrade>) => [
  ...links.lobbying.map((entry) => `lobbying:${entry.lobbying_filing_id}`),
  ...links.contracts.map((entry) => `contract:${entry.contract_id}`),
  ...links.campaign.map((entry) => `campaign:${entry.fec_record_id}`),
];

describe('overlap links on generated records (constructed)', () => {
  it('never loses a link when the window widens', () => {
    fc.assert(
      fc.property(world, (generated) => {
        const { index } = indexOf(generated);
        const trade = { id: 1, bioguideId: 'M000001', ...generated.trade };
        const narrow = keys(linksOfTrade(trade, index, generated.narrow));
        const wide = new Set(keys(linksOfTrade(trade, index, generated.narrow + generated.extra)));
        for (const key of narrow) expect(wide.has(key), key).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("a narrower window's links are the wider window's records within it (what the stored hits rely on)", () => {
    fc.assert(
      fc.property(world, (generated) => {
        const { index } = indexOf(generated);
        const trade = { id: 1, bioguideId: 'M000001', ...generated.trade };
        const narrow = generated.narrow;
        const wide = linksOfTrade(trade, index, narrow + generated.extra);
        expect(linksWithin(wide, narrow)).toEqual(linksOfTrade(trade, index, narrow));
        // At the boundaries too: a window exactly as wide as a record is far from the trade.
        for (const record of [...wide.lobbying, ...wide.contracts, ...wide.campaign]) {
          const edge = Math.abs(record.days_from_trade);
          expect(linksWithin(wide, edge)).toEqual(linksOfTrade(trade, index, edge));
        }
        // A kind has links at the narrow window exactly when its nearest record is within it.
        const nearest = nearestLinkDays(wide);
        const atNarrow = linksOfTrade(trade, index, narrow);
        expect(nearest.lobbying !== null && nearest.lobbying <= narrow).toBe(atNarrow.lobbying.length > 0);
        expect(nearest.contract !== null && nearest.contract <= narrow).toBe(atNarrow.contracts.length > 0);
        expect(nearest.campaign !== null && nearest.campaign <= narrow).toBe(atNarrow.campaign.length > 0);
      }),
      { numRuns: 500 },
    );
  });

  it('names only given records of the traded company, inside the window, through seats held that day', () => {
    fc.assert(
      fc.property(world, (generated) => {
        const { index, lobbying, contracts, contributions } = indexOf(generated);
        const trade = { id: 1, bioguideId: 'M000001', ...generated.trade };
        const links = linksOfTrade(trade, index, generated.narrow);
        const held = new Set(links.seats.map((entry) => entry.committee_id));
        for (const entry of links.lobbying) {
          const record = lobbying.find((item) => item.id === entry.lobbying_filing_id);
          expect(record?.ticker).toBe(trade.ticker);
          expect(Math.abs(daysBetween(trade.date, record?.filedDate ?? ''))).toBeLessThanOrEqual(
            generated.narrow,
          );
          for (const reach of entry.committees) expect(held.has(reach.committee_id)).toBe(true);
        }
        for (const entry of links.contracts) {
          const record = contracts.find((item) => item.id === entry.contract_id);
          expect(record?.ticker).toBe(trade.ticker);
          for (const reach of entry.committees) expect(held.has(reach.committee_id)).toBe(true);
        }
        for (const entry of links.campaign) {
          const record = contributions.find((item) => item.id === entry.fec_record_id);
          expect(record?.ticker).toBe(trade.ticker);
          expect(entry.days_from_trade).toBe(daysBetween(trade.date, record?.date ?? ''));
        }
        for (const entry of links.seats) {
          expect(entry.start_date <= trade.date).toBe(true);
          expect(entry.end_date === null || entry.end_date > trade.date).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('links nothing through a committee without particular jurisdiction (Appropriations)', () => {
    const { index } = indexOf({
      seats: [{ committeeId: 'HSAP', start: 0, length: null }],
      filings: [
        {
          ticker: 'LMT',
          filedDate: '2021-01-01',
          entities: ['Defense, Dept of (DOD)', 'HOUSE OF REPRESENTATIVES'],
          issueCodes: ['DEF', 'BUD'],
        },
      ],
      awards: [{ ticker: 'LMT', awardDate: '2021-01-01', agency: 'Department of Defense' }],
      gifts: [],
      trade: { ticker: 'LMT', date: '2021-01-02' },
      narrow: 30,
      extra: 0,
    });
    const links = linksOfTrade(
      { id: 1, bioguideId: 'M000001', ticker: 'LMT', date: '2021-01-02' },
      index,
      30,
    );
    expect(links.seats.map((entry) => entry.committee_id)).toEqual(['HSAP']);
    expect(keys(links)).toEqual([]);
  });
});
