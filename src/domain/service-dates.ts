// An executive-branch filer's dates of service, as OGE 278e reports state them: a day
// ("01/25/2017") or only a month ("08/2025", termination reports' header). Kept at the precision
// the report gives (YYYY-MM-DD or YYYY-MM) and widened to whole days only for comparisons.

export interface ServiceDates {
  /** Date of appointment, YYYY-MM-DD or YYYY-MM; null when no report stated it. */
  start: string | null;
  /** Date of termination, YYYY-MM-DD or YYYY-MM; null while serving or when no report stated it. */
  end: string | null;
}

/** The first day a partial date can mean: "2025-08" -> "2025-08-01". */
export function earliestDay(date: string): string {
  return date.length === 7 ? `${date}-01` : date;
}

/** The last day a partial date can mean: "2026-02" -> "2026-02-28". */
export function latestDay(date: string): string {
  if (date.length !== 7) return date;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${date}-${String(last).padStart(2, '0')}`;
}

function shiftYears(date: string, years: number): string {
  return `${String(Number(date.slice(0, 4)) + years).padStart(4, '0')}${date.slice(4, 10)}`;
}

/**
 * Does the service, widened by the grace years, cover the date? A side no report stated is open
 * (no appointment date: any time before; no termination: still serving).
 */
export function serviceCovers(
  service: ServiceDates,
  date: string,
  grace: { beforeYears: number; afterYears: number },
): boolean {
  if (service.start !== null && date < shiftYears(earliestDay(service.start), -grace.beforeYears))
    return false;
  if (service.end !== null && date > shiftYears(latestDay(service.end), grace.afterYears)) return false;
  return true;
}

/**
 * Does one statement of a date refine the other (the same day, or a day within the stated month)?
 * Then the more precise one is kept.
 */
function refines(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

function morePrecise(a: string, b: string): string {
  return a.length >= b.length ? a : b;
}

/**
 * What a record holds after one more report stated dates of service: a statement that refines the
 * recorded one makes it more precise; otherwise the record spans every stated service (earliest
 * appointment, latest termination), and an appointment after the recorded termination (the filer
 * serves again) reopens it.
 */
export function mergeServiceDates(recorded: ServiceDates, stated: ServiceDates): ServiceDates {
  let start = recorded.start;
  if (stated.start !== null) {
    if (start === null) start = stated.start;
    else if (refines(start, stated.start)) start = morePrecise(start, stated.start);
    else if (earliestDay(stated.start) < earliestDay(start)) start = stated.start;
  }
  let end = recorded.end;
  if (
    stated.start !== null &&
    stated.end === null &&
    end !== null &&
    earliestDay(stated.start) > latestDay(end)
  ) {
    end = null;
  } else if (stated.end !== null) {
    if (end === null) end = stated.end;
    else if (refines(end, stated.end)) end = morePrecise(end, stated.end);
    else if (latestDay(stated.end) > latestDay(end)) end = stated.end;
  }
  return { start, end };
}

export function sameServiceDates(a: ServiceDates, b: ServiceDates): boolean {
  return a.start === b.start && a.end === b.end;
}
