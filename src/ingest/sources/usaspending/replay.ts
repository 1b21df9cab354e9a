// USAspending on the replay server, from the recordings under `<data dir>/related/usaspending`:
//   POST /api/v2/search/spending_by_award/   the N-th recorded contract search answer (body `page`),
//                                            hasNext true until the last, its rows filtered by
//                                            `filters.time_period` as the API documents it (below)
//   GET  /api/v2/awards/<award key>/         a recorded award detail, else 404
// Award keys can be withheld (`--withhold`): left out of every search answer, their detail 404,
// until published, as an award USAspending loads late.
//
// `time_period` is a list of periods, any of which may match (the API ORs them). A period with a
// `date_type` compares that date of the award with both bounds (`new_awards_only`: the date signed);
// without one, the award's latest action must be on or after `start_date` and its signing on or
// before `end_date` (an award active in the period). A recorded row carries these dates:
//   date_signed          its "Base Obligation Date", else its recorded detail's `date_signed`;
//   last_modified_date   its "Last Modified Date", else its detail's period_of_performance one;
//   action_date          (the latest action's) `action_date` where a constructed recording carries
//                        it: the API's rows never show it. Else the last-modified date (the real
//                        recordings' awards were last modified on their latest action's day or a few
//                        days after), else the date signed.
// A bound on a date a row does not carry is not applied: a recording without dates is served as
// it always was. An award recorded more than once is served once, as the version the API held at
// the period's end: the newest "Last Modified Date" not after it.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from '../../../files.js';
import { type Obj, obj } from '../parsed-values.js';
import { json, notFound, type ReplayAnswer, type ReplaySite } from '../replay-site.js';
import { isoDay } from './award.js';

/** The award dates `time_period` compares (YYYY-MM-DD, or null where the recordings do not say). */
interface AwardDates {
  action_date: string | null;
  date_signed: string | null;
  last_modified_date: string | null;
}

interface Period {
  start: string;
  end: string;
  dateType: keyof AwardDates | 'new_awards_only' | null;
}

const DATE_TYPES = ['action_date', 'date_signed', 'last_modified_date', 'new_awards_only'] as const;

export const usaspendingReplay: ReplaySite = {
  load(dataDir) {
    const folder = join(dataDir, 'related', 'usaspending');
    if (!existsSync(folder)) return null;
    const searches: Array<{ file: string; answer: Obj }> = [];
    const details = new Map<string, Obj>();
    for (const file of filesUnder(folder, (name) => name.endsWith('.json'))) {
      const answer = readObject(file);
      const results = Array.isArray(answer.results) ? answer.results.map(obj) : [];
      const isContractSearch =
        'page_metadata' in answer && results.some((row) => awardKey(row).startsWith('CONT_'));
      if (isContractSearch) searches.push({ file: relative(folder, file), answer });
      const key = answer.generated_unique_award_id;
      if (typeof key === 'string' && key.startsWith('CONT_')) details.set(key, answer);
    }
    const datesOf = (row: Obj): AwardDates => awardDates(row, details.get(awardKey(row)));
    return {
      summary: `USAspending: ${searches.length} award searches and ${details.size} award details`,
      answer({ method, path, body, withheld }): ReplayAnswer | undefined {
        if (method === 'POST' && path === '/api/v2/search/spending_by_award/')
          return awardSearch(searches, body, datesOf, withheld);
        const detail = /^\/api\/v2\/awards\/([^/]+)\/$/.exec(path);
        if (method === 'GET' && detail) {
          const key = detail[1] ?? '';
          const answer = withheld(key) ? undefined : details.get(key);
          return answer ? json(answer) : notFound('application/json');
        }
        return undefined;
      },
    };
  },
};

function awardSearch(
  searches: ReadonlyArray<{ answer: Obj }>,
  body: string,
  datesOf: (row: Obj) => AwardDates,
  withheld: (id: string) => boolean,
): ReplayAnswer {
  let request: Obj;
  try {
    request = obj(JSON.parse(body));
  } catch {
    return badRequest('request body is not JSON');
  }
  const periods = timePeriods(obj(request.filters).time_period);
  if (typeof periods === 'string') return badRequest(periods);
  const page = Number(request.page ?? 1);
  const recorded = searches[page - 1];
  if (!Number.isInteger(page) || !recorded)
    return json({ results: [], page_metadata: { page, hasNext: false } });
  const end = periods.reduce<string | null>((latest, p) => (latest && latest > p.end ? latest : p.end), null);
  const current = currentVersions(searches, datesOf, end);
  const rows = (Array.isArray(recorded.answer.results) ? recorded.answer.results : []).map(obj);
  const results = rows.filter(
    (row) =>
      !withheld(awardKey(row)) &&
      (!awardKey(row) || current.get(awardKey(row)) === row) &&
      (periods.length === 0 || periods.some((period) => inPeriod(datesOf(row), period))),
  );
  return json({
    ...recorded.answer,
    results,
    page_metadata: { ...obj(recorded.answer.page_metadata), page, hasNext: page < searches.length },
  });
}

/** The periods of `filters.time_period`, or what is wrong with them (the API refuses a bad one). */
function timePeriods(value: unknown): Period[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'filters.time_period must be a list';
  const periods: Period[] = [];
  for (const raw of value) {
    const period = obj(raw);
    const start = isoDay(period.start_date);
    const end = isoDay(period.end_date);
    if (!start || !end) return 'each time_period needs start_date and end_date (YYYY-MM-DD)';
    const dateType = period.date_type ?? null;
    if (dateType !== null && !DATE_TYPES.includes(dateType as (typeof DATE_TYPES)[number]))
      return `time_period date_type must be one of ${DATE_TYPES.join(', ')}`;
    periods.push({ start, end, dateType: dateType as Period['dateType'] });
  }
  return periods;
}

function inPeriod(dates: AwardDates, period: Period): boolean {
  const onOrAfter = (date: string | null) => date === null || date >= period.start;
  const onOrBefore = (date: string | null) => date === null || date <= period.end;
  if (period.dateType === null) return onOrAfter(dates.action_date) && onOrBefore(dates.date_signed);
  const date = dates[period.dateType === 'new_awards_only' ? 'date_signed' : period.dateType];
  return onOrAfter(date) && onOrBefore(date);
}

/**
 * Per award key: the row of the version the API held on `end` (the newest modified on or before
 * it; a row without a modification date counts as such). When every version is newer, the oldest.
 */
function currentVersions(
  searches: ReadonlyArray<{ answer: Obj }>,
  datesOf: (row: Obj) => AwardDates,
  end: string | null,
): Map<string, Obj> {
  const versions = new Map<string, Obj[]>();
  for (const { answer } of searches) {
    for (const row of (Array.isArray(answer.results) ? answer.results : []).map(obj)) {
      versions.set(awardKey(row), [...(versions.get(awardKey(row)) ?? []), row]);
    }
  }
  const modified = (row: Obj) => datesOf(row).last_modified_date ?? '';
  const current = new Map<string, Obj>();
  for (const [key, rows] of versions) {
    const byAge = [...rows].sort((a, b) => modified(a).localeCompare(modified(b)));
    const held = byAge.filter((row) => end === null || modified(row) <= end).at(-1);
    current.set(key, held ?? (byAge[0] as Obj));
  }
  return current;
}

function awardDates(row: Obj, detail: Obj | undefined): AwardDates {
  const signed = isoDay(row['Base Obligation Date']) ?? isoDay(detail?.date_signed);
  const modified =
    isoDay(row['Last Modified Date']) ?? isoDay(obj(detail?.period_of_performance).last_modified_date);
  return {
    action_date: isoDay(row.action_date) ?? modified ?? signed,
    date_signed: signed,
    last_modified_date: modified,
  };
}

function awardKey(row: Obj): string {
  return String(row.generated_internal_id ?? '');
}

function badRequest(detail: string): ReplayAnswer {
  return { status: 400, type: 'application/json', body: JSON.stringify({ detail }) };
}

function readObject(file: string): Obj {
  try {
    return obj(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return {};
  }
}
