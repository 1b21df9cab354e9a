import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloseBasis } from '../domain/close-basis.js';
import { addDays } from '../domain/dates.js';
import { buildSeries, type PriceSeries, TradingCalendar } from './series.js';
import {
  anchorIndex,
  bestWindow,
  byPriority,
  gainOver,
  latestIndex,
  MAX_ANCHOR_DRIFT_DAYS,
  MAX_CURRENT_STALENESS_DAYS,
  percentChange,
  priceOn,
  returnToLatest,
  windowBetweenBars,
} from './windows.js';

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

// A hand-written week (Monday 2021-01-04 to Friday 2021-01-08) with round closes, for golden values.
const WEEK = ['2021-01-04', '2021-01-05', '2021-01-06', '2021-01-07', '2021-01-08'];
const weekCalendar = new TradingCalendar(WEEK);

function week(options: {
  source: string;
  priority?: number;
  closeBasis?: CloseBasis;
  adjClose?: number[];
  close?: (number | null)[];
  missing?: string[];
  excluded?: string[];
  breaks?: string[];
}): PriceSeries {
  const adjClose = options.adjClose ?? [100, 110, 121, 99, 100];
  const bars = WEEK.map((date, index) => ({
    date,
    adjClose: adjClose[index] as number,
    close: options.close === undefined ? (adjClose[index] as number) * 2 : (options.close[index] ?? null),
  })).filter((bar) => !(options.missing ?? []).includes(bar.date));
  return buildSeries({
    symbol: 'SPY',
    source: options.source,
    priority: options.priority ?? 1,
    closeBasis: options.closeBasis ?? 'raw',
    bars,
    excludedDates: options.excluded,
    breakDates: options.breaks,
  });
}

describe('percent change', () => {
  it('is the change of the second close over the first, in percent', () => {
    expect(percentChange(100, 110)).toBeCloseTo(10, 12);
    expect(percentChange(110, 99)).toBeCloseTo(-10, 12);
    expect(percentChange(80, 80)).toBe(0);
    expect(percentChange(50, 150)).toBeCloseTo(200, 12);
  });
});

describe("the benchmark over exactly the stock window's bars (windowBetweenBars)", () => {
  it('measures the adjusted close between the two bars named, not the next sessions', () => {
    const spy = week({ source: 'a' });
    expect(windowBetweenBars([spy], '2021-01-04', '2021-01-06')).toBeCloseTo(21, 10);
    expect(windowBetweenBars([spy], '2021-01-06', '2021-01-07')).toBeCloseTo((99 / 121 - 1) * 100, 10);
    expect(windowBetweenBars([spy], '2021-01-05', '2021-01-05')).toBe(0);
    // A date that is not a bar of the series (a weekend, a gap, past the end) is not stretched.
    expect(windowBetweenBars([spy], '2021-01-03', '2021-01-06')).toBeNull();
    expect(windowBetweenBars([spy], '2021-01-04', '2021-01-09')).toBeNull();
    expect(
      windowBetweenBars([week({ source: 'a', missing: ['2021-01-06'] })], '2021-01-04', '2021-01-06'),
    ).toBeNull();
    expect(
      windowBetweenBars([week({ source: 'a', missing: ['2021-01-04'] })], '2021-01-04', '2021-01-06'),
    ).toBeNull();
    expect(windowBetweenBars([], '2021-01-04', '2021-01-06')).toBeNull();
  });

  it('takes the highest-priority series that has both bars, then the source name on a tie', () => {
    const first = week({ source: 'first', priority: 1, adjClose: [100, 100, 150, 100, 100] });
    const second = week({ source: 'second', priority: 2, adjClose: [100, 100, 120, 100, 100] });
    expect(windowBetweenBars([second, first], '2021-01-04', '2021-01-06')).toBeCloseTo(50, 10);
    const gappy = week({ source: 'first', priority: 1, missing: ['2021-01-06'] });
    expect(windowBetweenBars([gappy, second], '2021-01-04', '2021-01-06')).toBeCloseTo(20, 10);
    const alpha = week({ source: 'alpha', priority: 3, adjClose: [100, 100, 130, 100, 100] });
    const beta = week({ source: 'beta', priority: 3, adjClose: [100, 100, 140, 100, 100] });
    expect(windowBetweenBars([beta, alpha], '2021-01-04', '2021-01-06')).toBeCloseTo(30, 10);
    expect(byPriority([beta, alpha, second, first]).map((one) => one.source)).toEqual([
      'first',
      'second',
      'alpha',
      'beta',
    ]);
  });

  it('never ends on a bad print or spans an unadjusted split: the next series answers', () => {
    const fallback = week({ source: 'fallback', priority: 2, adjClose: [100, 100, 125, 100, 100] });
    const answer = (series: PriceSeries) => windowBetweenBars([series, fallback], '2021-01-04', '2021-01-06');
    expect(answer(week({ source: 'main', excluded: ['2021-01-04'] }))).toBeCloseTo(25, 10);
    expect(answer(week({ source: 'main', excluded: ['2021-01-06'] }))).toBeCloseTo(25, 10);
    expect(answer(week({ source: 'main', breaks: ['2021-01-05'] }))).toBeCloseTo(25, 10);
    expect(answer(week({ source: 'main', breaks: ['2021-01-06'] }))).toBeCloseTo(25, 10);
    // A bad print inside the window, or a split on its first day or after it, is no reason to leave.
    expect(answer(week({ source: 'main', excluded: ['2021-01-05'] }))).toBeCloseTo(21, 10);
    expect(answer(week({ source: 'main', breaks: ['2021-01-04'] }))).toBeCloseTo(21, 10);
    expect(answer(week({ source: 'main', breaks: ['2021-01-07'] }))).toBeCloseTo(21, 10);
    expect(
      windowBetweenBars([week({ source: 'main', breaks: ['2021-01-05'] })], '2021-01-04', '2021-01-06'),
    ).toBeNull();
  });
});

describe('the share price on a date (priceOn)', () => {
  const today = '2021-02-01';

  it('is the reported close of the first session on or after the date', () => {
    const raw = week({ source: 'raw', close: [10, 11, 12, 13, 14] });
    expect(priceOn([raw], '2021-01-06', weekCalendar, today)).toBe(12);
    expect(priceOn([raw], '2021-01-02', new TradingCalendar(['2020-12-31', ...WEEK]), today)).toBe(10);
    expect(priceOn([raw], '2021-01-09', weekCalendar, today)).toBeNull();
    expect(priceOn([], '2021-01-06', weekCalendar, today)).toBeNull();
    // A day not yet over has no price.
    expect(priceOn([raw], '2021-01-08', weekCalendar, '2021-01-08')).toBeNull();
    expect(priceOn([raw], '2021-01-08', weekCalendar, '2021-01-09')).toBe(14);
  });

  it('prefers the least adjusted close: raw, then split-adjusted, then adjusted, then none', () => {
    const bases: CloseBasis[] = ['none', 'adjusted', 'split-adjusted', 'raw'];
    // Priorities run against the basis order, so only the basis can pick the winner.
    const all = bases.map((closeBasis, index) =>
      week({ source: closeBasis, priority: index + 1, closeBasis, close: WEEK.map(() => 1000 + index) }),
    );
    const on = (series: PriceSeries[]) => priceOn(series, '2021-01-05', weekCalendar, today);
    expect(on(all)).toBe(1003);
    expect(on(all.slice(0, 3))).toBe(1002);
    expect(on(all.slice(0, 2))).toBe(1001);
    expect(on([...all.slice(0, 2)].reverse())).toBe(1001);
    expect(on(all.slice(0, 1))).toBe(1000);
    // Within one basis, the priority decides.
    const low = week({ source: 'low', priority: 5, close: WEEK.map(() => 7) });
    const high = week({ source: 'high', priority: 2, close: WEEK.map(() => 8) });
    expect(on([low, high])).toBe(8);
    expect(on([high, low])).toBe(8);
  });

  it('falls back to the adjusted close where the source has no close, and to the next series where it cannot anchor', () => {
    const closeless = week({
      source: 'closeless',
      adjClose: [50, 51, 52, 53, 54],
      close: [null, null, null, null, null],
    });
    expect(priceOn([closeless], '2021-01-07', weekCalendar, today)).toBe(53);
    const gappy = week({ source: 'gappy', priority: 1, missing: ['2021-01-07'], close: [1, 2, 3, 4, 5] });
    const flagged = week({
      source: 'flagged',
      priority: 2,
      excluded: ['2021-01-07'],
      close: [6, 7, 8, 9, 10],
    });
    const whole = week({ source: 'whole', priority: 3, close: [11, 12, 13, 14, 15] });
    expect(priceOn([gappy, flagged, whole], '2021-01-07', weekCalendar, today)).toBe(14);
    expect(priceOn([gappy, flagged], '2021-01-07', weekCalendar, today)).toBeNull();
  });
});

describe('anchors and the latest close at their limits', () => {
  it(`past the calendar an anchor may lie ${MAX_ANCHOR_DRIFT_DAYS} days after its date, not one more`, () => {
    // The calendar ends on Monday 2021-01-04; the series goes on to Friday.
    const shortCalendar = new TradingCalendar(['2021-01-04']);
    const lone = week({ source: 'a', missing: ['2021-01-05', '2021-01-06', '2021-01-07'] });
    expect(lone.dates[anchorIndex(lone, '2021-01-01', shortCalendar, '2021-02-01') ?? -1]).toBe('2021-01-04');
    const late = buildSeries({
      symbol: 'X',
      source: 'a',
      priority: 1,
      closeBasis: 'raw',
      bars: [
        { date: '2021-01-04', adjClose: 1, close: 1 },
        { date: '2021-01-12', adjClose: 2, close: 2 },
        { date: '2021-01-20', adjClose: 3, close: 3 },
      ],
    });
    expect(late.dates[anchorIndex(late, '2021-01-05', shortCalendar, '2021-02-01') ?? -1]).toBe('2021-01-12');
    expect(anchorIndex(late, '2021-01-13', shortCalendar, '2021-02-01')).toBe(2);
    expect(anchorIndex(late, '2021-01-12', shortCalendar, '2021-02-01')).toBe(1);
    expect(anchorIndex(late, '2021-01-04', weekCalendar, '2021-02-01')).toBe(0);
    // Inside the calendar's reach the session itself is asked for; past it, only the drift counts.
    expect(anchorIndex(late, '2021-01-12', weekCalendar, '2021-02-01')).toBe(1);
    const far = buildSeries({
      symbol: 'X',
      source: 'a',
      priority: 1,
      closeBasis: 'raw',
      bars: [{ date: '2021-01-13', adjClose: 1, close: 1 }],
    });
    // Eight days after 2021-01-05 is one too many; seven after 2021-01-06 is not.
    expect(anchorIndex(far, '2021-01-05', shortCalendar, '2021-02-01')).toBeNull();
    expect(anchorIndex(far, '2021-01-06', shortCalendar, '2021-02-01')).toBe(0);
  });

  it(`the latest close is current for ${MAX_CURRENT_STALENESS_DAYS} days, and never a bad print or today's`, () => {
    const spy = week({ source: 'a' });
    expect(latestIndex(spy, '2021-01-22')).toBe(4);
    expect(latestIndex(spy, '2021-01-23')).toBeNull();
    expect(latestIndex(spy, '2021-01-08')).toBe(3);
    expect(latestIndex(spy, '2021-01-04')).toBeNull();
    expect(latestIndex(spy, '2021-01-05')).toBe(0);
    expect(latestIndex(week({ source: 'a', excluded: ['2021-01-08'] }), '2021-01-12')).toBe(3);
    // Thursday's close is 15 days old on 2021-01-22, so a bad print on Friday leaves nothing current.
    expect(latestIndex(week({ source: 'a', excluded: ['2021-01-08'] }), '2021-01-22')).toBeNull();
    expect(latestIndex(week({ source: 'a', excluded: ['2021-01-08'] }), '2021-01-21')).toBe(3);
  });

  it('current return runs from the anchor to the newest latest close of the series that have both', () => {
    const stale = buildSeries({
      symbol: 'SPY',
      source: 'stale',
      priority: 1,
      closeBasis: 'raw',
      bars: [
        { date: '2021-01-04', adjClose: 10, close: 10 },
        { date: '2021-01-05', adjClose: 20, close: 20 },
      ],
    });
    const fresh = week({ source: 'fresh', priority: 2 });
    const current = returnToLatest([stale, fresh], '2021-01-04', weekCalendar, '2021-01-21');
    expect(current).toEqual({ value: 0, source: 'fresh', fromDate: '2021-01-04', toDate: '2021-01-08' });
    expect(returnToLatest([stale, fresh], '2021-01-04', weekCalendar, '2021-01-06')).toEqual({
      value: 100,
      source: 'stale',
      fromDate: '2021-01-04',
      toDate: '2021-01-05',
    });
    // A higher-priority series that ends a few days earlier is current, but not the latest close.
    const endsTuesday = buildSeries({
      symbol: 'SPY',
      source: 'files',
      priority: 1,
      closeBasis: 'raw',
      bars: [
        { date: '2021-01-04', adjClose: 10, close: 10 },
        { date: '2021-01-05', adjClose: 20, close: 20 },
      ],
    });
    expect(returnToLatest([endsTuesday, fresh], '2021-01-04', weekCalendar, '2021-01-09')).toMatchObject({
      source: 'fresh',
      toDate: '2021-01-08',
    });
    expect(returnToLatest([fresh], '2021-01-06', weekCalendar, '2021-01-10')?.value).toBeCloseTo(
      (100 / 121 - 1) * 100,
      10,
    );
    // A trade on the latest session's day has moved nothing yet.
    expect(returnToLatest([fresh], '2021-01-08', weekCalendar, '2021-01-10')).toEqual({
      value: 0,
      source: 'fresh',
      fromDate: '2021-01-08',
      toDate: '2021-01-08',
    });
    // An unadjusted split between the trade and the latest close: that series cannot say.
    const split = week({ source: 'split', priority: 1, breaks: ['2021-01-08'] });
    expect(returnToLatest([split], '2021-01-06', weekCalendar, '2021-01-10')).toBeNull();
    expect(returnToLatest([split, fresh], '2021-01-06', weekCalendar, '2021-01-10')?.source).toBe('fresh');
    expect(returnToLatest([split], '2021-01-08', weekCalendar, '2021-01-10')?.value).toBe(0);
    expect(returnToLatest([], '2021-01-06', weekCalendar, '2021-01-10')).toBeNull();
    // A series that cannot anchor the trade's day is no answer, however fresh its latest close.
    const holed = week({ source: 'holed', priority: 1, missing: ['2021-01-06'] });
    expect(returnToLatest([holed], '2021-01-06', weekCalendar, '2021-01-10')).toBeNull();
    expect(returnToLatest([holed, fresh], '2021-01-06', weekCalendar, '2021-01-10')?.source).toBe('fresh');
  });

  it('a window takes both ends from one series, the first by priority that has them', () => {
    const gappy = week({
      source: 'gappy',
      priority: 1,
      missing: ['2021-01-07'],
      adjClose: [100, 100, 100, 100, 300],
    });
    const other = week({ source: 'other', priority: 2, adjClose: [100, 100, 100, 150, 100] });
    expect(bestWindow([other, gappy], '2021-01-04', '2021-01-07', weekCalendar, '2021-01-10')).toEqual({
      value: 50,
      source: 'other',
      fromDate: '2021-01-04',
      toDate: '2021-01-07',
    });
    expect(bestWindow([other, gappy], '2021-01-04', '2021-01-08', weekCalendar, '2021-01-10')).toEqual({
      value: 200,
      source: 'gappy',
      fromDate: '2021-01-04',
      toDate: '2021-01-08',
    });
    expect(bestWindow([gappy], '2021-01-04', '2021-01-07', weekCalendar, '2021-01-10')).toBeNull();
  });
});
