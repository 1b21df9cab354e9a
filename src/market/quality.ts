// Data-quality checks on daily price series. Pure: series in, findings out. What the findings do
// (docs/market-data.md, "Bad prints and gaps"): flagged bars are never used as the start or end of a return
// window (the next source that has clean bars at both ends is used, else the window stays null),
// no window spans an unadjusted split, and a window whose start or end falls on a day the series
// is missing is not computed from that series.
import { lowerBound, type TradingCalendar } from './series.js';

export type FlagKind = 'spike_reversal' | 'source_disagreement' | 'unadjusted_split' | 'gap';

export interface Finding {
  date: string;
  kind: FlagKind;
  detail: string;
}

export interface SeriesData {
  source: string;
  priority: number;
  dates: readonly string[];
  adjClose: ArrayLike<number>;
}

/** A spike must exceed this many robust standard deviations, both into the bar and out of it. */
export const SPIKE_SIGMAS = 5;
/** ... and at least this absolute daily move (quiet series have tiny sigmas). */
export const SPIKE_MIN_MOVE = 0.02;
/** Two sources disagree on a bar when their ratio leaves its local median by more than this. */
export const DISAGREEMENT_THRESHOLD = 0.005;
const LOCAL_WINDOW = 31;
const RATIO_WINDOW = 5;

const pct = (value: number) => `${(value * 100).toFixed(2)}%`;

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * A one-day spike that reverses: the close jumps away and comes straight back, both moves larger
 * than SPIKE_SIGMAS robust sigmas (1.4826 x the median absolute daily return of the surrounding
 * 2 x 31 days) and SPIKE_MIN_MOVE, with the two-day change under a quarter of either move.
 */
export function detectSpikes(series: SeriesData, market?: SeriesData): Finding[] {
  const { dates, adjClose } = series;
  const marketIndex = new Map(market?.dates.map((date, index) => [date, index]));
  const marketMove = (index: number): number | null => {
    if (!market) return null;
    const at = marketIndex.get(dates[index] as string);
    const before = marketIndex.get(dates[index - 1] as string);
    if (at === undefined || before === undefined) return null;
    return (market.adjClose[at] as number) / (market.adjClose[before] as number) - 1;
  };
  const returns: number[] = [];
  for (let index = 1; index < dates.length; index++) {
    returns.push((adjClose[index] as number) / (adjClose[index - 1] as number) - 1);
  }
  const findings: Finding[] = [];
  // returns[i - 1] is the move into bar i, returns[i] the move out of it.
  for (let index = 1; index < dates.length - 1; index++) {
    const into = returns[index - 1] as number;
    const out = returns[index] as number;
    if (Math.sign(into) === Math.sign(out)) continue;
    const smaller = Math.min(Math.abs(into), Math.abs(out));
    if (smaller < SPIKE_MIN_MOVE) continue;
    const twoDay = (adjClose[index + 1] as number) / (adjClose[index - 1] as number) - 1;
    if (Math.abs(twoDay) > smaller / 4) continue;
    const around = [
      ...returns.slice(Math.max(0, index - 1 - LOCAL_WINDOW), index - 1),
      ...returns.slice(index + 1, index + 1 + LOCAL_WINDOW),
    ].map(Math.abs);
    const sigma = 1.4826 * median(around);
    // Half the surrounding days unchanged: an illiquid series whose sigma says nothing.
    if (!(sigma > 0) || !(smaller > SPIKE_SIGMAS * sigma)) continue;
    // The whole market swung the same way on both days (16-17 March 2020): a real move.
    const marketInto = marketMove(index);
    const marketOut = marketMove(index + 1);
    if (
      marketInto !== null &&
      marketOut !== null &&
      Math.sign(marketInto) === Math.sign(into) &&
      Math.sign(marketOut) === Math.sign(out) &&
      Math.abs(marketInto) >= Math.abs(into) / 3 &&
      Math.abs(marketOut) >= Math.abs(out) / 3
    )
      continue;
    findings.push({
      date: dates[index] as string,
      kind: 'spike_reversal',
      detail: `moved ${pct(into)} then ${pct(out)} (robust daily sigma ${pct(sigma)})`,
    });
  }
  return findings;
}

const CLEAN_RATIOS = [2, 3, 4, 5, 7, 8, 10, 15, 20];

/** Sources whose files carry split coefficients: a move they do not call a split is a market move. */
const RECORDS_SPLITS = new Set(['alphavantage', 'tiingo']);

/**
 * A day-over-day change equal to a split ratio (1/2, 1/3, ... 1/20 or the reverse) within 1.5%,
 * in a series that claims to be adjusted, that does not reverse the next day: the source missed a
 * split. Returns the bars after the jump; no window may span them.
 */
export function detectUnadjustedSplits(series: SeriesData): Finding[] {
  const { dates, adjClose } = series;
  const findings: Finding[] = [];
  for (let index = 1; index < dates.length; index++) {
    const ratio = (adjClose[index] as number) / (adjClose[index - 1] as number);
    const next = adjClose[index + 1];
    // A bad print that comes straight back is a spike, not a split.
    if (next !== undefined && Math.abs(next / (adjClose[index - 1] as number) - 1) < 0.25) continue;
    const clean = CLEAN_RATIOS.find(
      (n) => Math.abs(ratio * n - 1) <= 0.015 || Math.abs(ratio / n - 1) <= 0.015,
    );
    if (clean === undefined) continue;
    const reverse = ratio > 1;
    findings.push({
      date: dates[index] as string,
      kind: 'unadjusted_split',
      detail: `close changed by a factor of ${ratio.toFixed(4)} (a ${reverse ? `1:${clean} reverse` : `${clean}:1`} split left unadjusted?)`,
    });
  }
  return findings;
}

/**
 * Bars on which two sources of one symbol disagree: the ratio of their adjusted closes leaves its
 * median over the surrounding ±5 common days by more than DISAGREEMENT_THRESHOLD. (Different
 * dividend adjustments only step that ratio; a bad print makes it jump and come back.) The bar is
 * flagged in the source that disagrees with the majority of the others that have the day; with
 * two sources, in the lower-priority one.
 */
export function detectDisagreements(all: readonly SeriesData[]): Map<string, Finding[]> {
  const findings = new Map<string, Finding[]>();
  if (all.length < 2) return findings;
  // votes[source][date] = sources it disagrees with on that date
  const disagreements = new Map<string, Map<string, { with: string[]; deviation: number }>>();
  const present = new Map<string, Set<string>>();
  for (const one of all) present.set(one.source, new Set(one.dates));
  for (let a = 0; a < all.length; a++) {
    for (let b = a + 1; b < all.length; b++) {
      const first = all[a] as SeriesData;
      const second = all[b] as SeriesData;
      for (const [date, deviation] of pairDeviations(first, second)) {
        for (const [mine, theirs] of [
          [first, second],
          [second, first],
        ] as const) {
          const byDate = disagreements.get(mine.source) ?? new Map();
          const entry = byDate.get(date) ?? { with: [], deviation };
          entry.with.push(theirs.source);
          byDate.set(date, entry);
          disagreements.set(mine.source, byDate);
        }
      }
    }
  }
  const bySource = new Map(all.map((one) => [one.source, one]));
  for (const [source, byDate] of disagreements) {
    const mine = bySource.get(source) as SeriesData;
    for (const [date, entry] of byDate) {
      const others = all.filter((one) => one.source !== source && present.get(one.source)?.has(date));
      let guilty: boolean;
      if (others.length >= 2) guilty = entry.with.length > others.length / 2;
      else {
        const other = others[0];
        guilty =
          other !== undefined &&
          (mine.priority > other.priority || (mine.priority === other.priority && source > other.source));
      }
      if (!guilty) continue;
      const list = findings.get(source) ?? [];
      list.push({
        date,
        kind: 'source_disagreement',
        detail: `${pct(entry.deviation)} off ${entry.with.join(', ')}`,
      });
      findings.set(source, list);
    }
  }
  for (const list of findings.values()) list.sort((x, y) => x.date.localeCompare(y.date));
  return findings;
}

function pairDeviations(first: SeriesData, second: SeriesData): Array<[string, number]> {
  const secondIndex = new Map(second.dates.map((date, index) => [date, index]));
  const common: Array<{ date: string; ratio: number }> = [];
  first.dates.forEach((date, index) => {
    const other = secondIndex.get(date);
    if (other !== undefined) {
      common.push({ date, ratio: (second.adjClose[other] as number) / (first.adjClose[index] as number) });
    }
  });
  const result: Array<[string, number]> = [];
  for (let index = 0; index < common.length; index++) {
    const around = common
      .slice(Math.max(0, index - RATIO_WINDOW), index + RATIO_WINDOW + 1)
      .map((entry) => entry.ratio);
    if (around.length < RATIO_WINDOW + 1) continue;
    const deviation = (common[index] as { ratio: number }).ratio / median(around) - 1;
    if (Math.abs(deviation) > DISAGREEMENT_THRESHOLD)
      result.push([(common[index] as { date: string }).date, deviation]);
  }
  return result;
}

/** Market days missing inside a series' span, one finding per run of consecutive missing days. */
export function detectGaps(series: SeriesData, calendar: TradingCalendar): Finding[] {
  const first = series.dates[0];
  const last = series.dates[series.dates.length - 1];
  if (first === undefined || last === undefined) return [];
  const missing = calendar.missingBetween(series.dates, first, last);
  const findings: Finding[] = [];
  let runStart: string | undefined;
  let runLength = 0;
  let previous: string | undefined;
  const flush = () => {
    if (runStart === undefined || previous === undefined) return;
    findings.push({
      date: runStart,
      kind: 'gap',
      detail:
        runLength === 1 ? '1 market day missing' : `${runLength} market days missing through ${previous}`,
    });
  };
  for (const day of missing) {
    const consecutive =
      previous !== undefined && calendar.days[lowerBound(calendar.days, previous) + 1] === day;
    if (!consecutive) {
      flush();
      runStart = day;
      runLength = 0;
    }
    runLength += 1;
    previous = day;
  }
  flush();
  return findings;
}

export interface SymbolSeries extends SeriesData {
  /** Days on which the source itself records a split or other share adjustment. */
  actionDates?: ReadonlySet<string>;
}

/**
 * Every finding for one symbol across its sources, with the exclusion policy applied:
 *  - a source disagreeing with the others on a bar (detectDisagreements) is flagged there;
 *  - a spike that another source confirms (it has the same day and does not disagree) is a real
 *    move and not flagged; an unconfirmed one is;
 *  - an apparent unadjusted split is flagged unless the source records its own split
 *    coefficients, or another source shows the same jump;
 *  - gaps are reported per series.
 */
export function assessSymbol(
  all: readonly SymbolSeries[],
  calendar: TradingCalendar,
  market?: SeriesData,
): Map<string, Finding[]> {
  const result = new Map<string, Finding[]>();
  const add = (source: string, finding: Finding) => {
    const list = result.get(source) ?? [];
    list.push(finding);
    result.set(source, list);
  };
  const disagreements = detectDisagreements(all);
  const disagreeing = new Map<string, Set<string>>();
  for (const [source, findings] of disagreements) {
    disagreeing.set(source, new Set(findings.map((finding) => finding.date)));
    for (const finding of findings) add(source, finding);
  }
  const confirmedBy = (series: SymbolSeries, date: string) =>
    all.some(
      (other) =>
        other.source !== series.source &&
        other.dates.includes(date) &&
        !disagreeing.get(other.source)?.has(date),
    );
  for (const series of all) {
    const flagged = disagreeing.get(series.source) ?? new Set<string>();
    for (const spike of detectSpikes(series, market === series ? undefined : market)) {
      if (flagged.has(spike.date) || confirmedBy(series, spike.date)) continue;
      add(series.source, spike);
    }
    if (!RECORDS_SPLITS.has(series.source)) {
      for (const jump of detectUnadjustedSplits(series)) {
        if (series.actionDates?.has(jump.date)) continue;
        const shownElsewhere = all.some(
          (other) => other !== series && detectUnadjustedSplits(other).some((own) => own.date === jump.date),
        );
        if (!shownElsewhere) add(series.source, jump);
      }
    }
    for (const gap of detectGaps(series, calendar)) add(series.source, gap);
  }
  for (const list of result.values())
    list.sort((x, y) => x.date.localeCompare(y.date) || x.kind.localeCompare(y.kind));
  return result;
}
