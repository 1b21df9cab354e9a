import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../domain/dates.js';
import { buildSeries, type PriceSeries, TradingCalendar } from './series.js';
import { anchorIndex, gainOver, latestIndex, percentChange, priceOn, returnToLatest } from './windows.js';

// A synthetic market: weekdays of 2019-2021 without a few real holidays.
const HOLIDAYS = new Set([
  '2019-07-04',
  '2019-11-28',
  '2019-12-25',
  '2020-01-01',
  '2020-07-03',
  '2020-11-26',
  '2020-12-25',
]);
const FIRST = '2019-01-02';
const DAYS: string[] = [];
for (let day = FIRST; day <= '2021-12-31'; day = addDays(day, 1)) {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(day)) DAYS.push(day);
}
const calendar = new TradingCalendar(DAYS);

function series(options: {
  source?: string;
  priority?: number;
  missing?: string[];
  excluded?: string[];
  breaks?: string[];
  seed?: number;
}): PriceSeries {
  const missing = new Set(options.missing ?? []);
  let price = 100;
  let state = options.seed ?? 7;
  const bars = DAYS.filter((day) => !missing.has(day)).map((date) => {
    state = (state * 48271) % 2147483647;
    price *= 1 + ((state % 2001) - 1000) / 50_000;
    return { date, adjClose: price, close: price * 2 };
  });
  return buildSeries({
    symbol: 'TEST',
    source: options.source ?? 'one',
    priority: options.priority ?? 1,
    closeBasis: 'raw',
    bars,
    excludedDates: options.excluded,
    breakDates: options.breaks,
  });
}

const base = series({});
const closeOn = (one: PriceSeries, day: string) => one.adjClose[one.dates.indexOf(day)] as number;
const dateIn = (from: string, to: string) =>
  fc
    .integer({ min: 0, max: Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) })
    .map((offset) => addDays(from, offset));

describe('window edges', () => {
  it('anchor each end on the first trading day on or after its date (weekends, holidays)', () => {
    fc.assert(
      fc.property(dateIn('2019-01-01', '2020-12-31'), fc.constantFrom(7, 30, 60, 90, 365), (date, days) => {
        const today = '2022-06-01';
        const value = gainOver([base], date, days, calendar, today);
        const from = calendar.firstOnOrAfter(date) as string;
        const to = calendar.firstOnOrAfter(addDays(date, days)) as string;
        expect(value?.fromDate).toBe(from);
        expect(value?.toDate).toBe(to);
        expect(value?.value).toBeCloseTo(percentChange(closeOn(base, from), closeOn(base, to)), 10);
        expect(new Date(`${from}T00:00:00Z`).getUTCDay()).not.toBe(0);
        expect(HOLIDAYS.has(from) || HOLIDAYS.has(to)).toBe(false);
      }),
    );
  });

  it('are null until the end day is over', () => {
    fc.assert(
      fc.property(
        dateIn('2019-01-01', '2021-06-30'),
        fc.constantFrom(7, 30, 90, 180),
        fc.integer({ min: -3, max: 3 }),
        (date, days, shift) => {
          const end = calendar.firstOnOrAfter(addDays(date, days));
          if (end === undefined) return;
          const today = addDays(end, shift);
          const value = gainOver([base], date, days, calendar, today);
          // The end bar's day must be before today; on or after it the window is still open.
          if (end < today) expect(value).not.toBeNull();
          else expect(value).toBeNull();
        },
      ),
    );
  });

  it('a holiday or weekend date of a trade uses the next session (2020-07-03 -> 2020-07-06)', () => {
    expect(base.dates[anchorIndex(base, '2020-07-03', calendar, '2022-01-01') ?? -1]).toBe('2020-07-06');
    expect(base.dates[anchorIndex(base, '2019-11-28', calendar, '2022-01-01') ?? -1]).toBe('2019-11-29');
    expect(base.dates[anchorIndex(base, '2020-12-26', calendar, '2022-01-01') ?? -1]).toBe('2020-12-28');
  });

  it('a series missing the anchor day is not used, and the next source fills the window', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DAYS.slice(100, 600)),
        fc.constantFrom(7, 30, 90),
        (missingDay, days) => {
          const gappy = series({ missing: [missingDay], source: 'gappy', priority: 1, seed: 11 });
          const complete = series({ source: 'complete', priority: 2, seed: 13 });
          const today = '2022-06-01';
          const start = missingDay;
          const alone = gainOver([gappy], start, days, calendar, today);
          expect(alone).toBeNull();
          const both = gainOver([gappy, complete], start, days, calendar, today);
          expect(both?.source).toBe('complete');
          // A window that does not touch the missing day still comes from the preferred source.
          const elsewhere = gainOver([gappy, complete], addDays(start, 400), 7, calendar, today);
          if (elsewhere && !elsewhere.fromDate.startsWith(start)) expect(elsewhere.source).toBe('gappy');
        },
      ),
    );
  });

  it('a flagged bad print is never a window end; an unadjusted split is never spanned', () => {
    const flagged = series({ excluded: ['2020-03-13'] });
    expect(gainOver([flagged], '2020-03-13', 30, calendar, '2022-01-01')).toBeNull();
    expect(gainOver([flagged], '2020-02-12', 30, calendar, '2022-01-01')).toBeNull();
    expect(gainOver([flagged], '2020-02-13', 30, calendar, '2022-01-01')).not.toBeNull();
    const broken = series({ breaks: ['2020-06-01'] });
    expect(gainOver([broken], '2020-05-15', 30, calendar, '2022-01-01')).toBeNull();
    expect(gainOver([broken], '2020-06-01', 30, calendar, '2022-01-01')).not.toBeNull();
  });

  it('past the calendar, anchors may drift at most a week (no silent stretching over a data hole)', () => {
    const short = new TradingCalendar(DAYS.filter((day) => day < '2021-01-01'));
    expect(gainOver([base], '2021-03-01', 30, short, '2022-01-01')).not.toBeNull();
    const holey = series({ missing: DAYS.filter((day) => day >= '2021-04-01' && day < '2021-04-20') });
    expect(gainOver([holey], '2021-03-02', 30, short, '2022-01-01')).toBeNull();
  });

  it('returns to the latest close only when it is fresh, and prices prefer raw closes', () => {
    expect(latestIndex(base, '2022-01-03')).toBe(base.dates.length - 1);
    expect(latestIndex(base, '2022-03-01')).toBeNull();
    const current = returnToLatest([base], '2021-06-01', calendar, '2022-01-03');
    expect(current?.toDate).toBe('2021-12-31');
    expect(priceOn([base], '2020-07-03', calendar, '2022-01-01')).toBeCloseTo(
      closeOn(base, '2020-07-06') * 2,
      10,
    );
  });
});
