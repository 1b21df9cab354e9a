// Voteview roll-call sets (`/static/data/out/{kind}/{H119}_{kind}.csv`) through the shared HTTP
// client (timeouts, retries, polite interval, size limit): one page per Congress and chamber, its
// three files read together and handed to the same save as the file import.
import { todayUtc } from '../../../domain/dates.js';
import type { DocumentArchive } from '../../fetch/archive.js';
import type { HttpClient } from '../../fetch/http-client.js';
import type { VoteviewSetText } from '../../votes/import.js';
import type { RecordConnector, RecordPage } from '../record-connector.js';

export const VOTEVIEW_BASE_URL = 'https://voteview.com';

const KINDS = ['rollcalls', 'members', 'votes'] as const;

/** The Congress sitting on a date: the 1st convened in 1789, a new one every odd year on January 3. */
export function congressOn(date: string): number {
  const year = Number(date.slice(0, 4));
  const odd = year % 2 === 1 ? year : year - 1;
  const start = date < `${odd}-01-03` ? odd - 2 : odd;
  return (start - 1789) / 2 + 1;
}

/** The first day of the Congress sitting on a date (January 3 of its first, odd, year). */
export function congressStart(date: string): string {
  return `${1789 + (congressOn(date) - 1) * 2}-01-03`;
}

/** The House and Senate sets of every Congress from `since` to `until`. */
export function voteviewSetNames(since: string, until: string): string[] {
  const names: string[] = [];
  for (let congress = congressOn(since); congress <= congressOn(until); congress++)
    names.push(`H${congress}`, `S${congress}`);
  return names;
}

/** One set's three files, or null when Voteview does not publish it (404). */
interface FetchedSet {
  text: VoteviewSetText;
  urls: string[];
  bodies: Buffer[];
}

export class VoteviewConnector implements RecordConnector<VoteviewSetText> {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /**
   * One page per set of every Congress from `since` to today: its rollcalls file is the page's
   * bytes (its content address), the other two are read with it. A set not published yet is a
   * page without bytes, its name among the skipped.
   */
  async *pages(since: string, now: Date, signal?: AbortSignal): AsyncIterable<RecordPage<VoteviewSetText>> {
    for (const name of voteviewSetNames(since, todayUtc(now))) {
      const set = await this.fetchSet(name, signal);
      if (!set) {
        yield {
          label: name,
          bytes: Buffer.alloc(0),
          records: [],
          skipped: [{ id: name, reason: 'not published (404)' }],
          total: null,
        };
        continue;
      }
      const [rollcalls = Buffer.alloc(0), ...others] = set.bodies;
      yield {
        label: set.urls[0] ?? name,
        bytes: rollcalls,
        documents: others,
        records: [set.text],
        skipped: [],
        total: null,
      };
    }
  }

  async fetchSet(name: string, signal?: AbortSignal): Promise<FetchedSet | null> {
    const urls: string[] = [];
    const bodies: Buffer[] = [];
    for (const kind of KINDS) {
      const url = `${this.base}/static/data/out/${kind}/${name}_${kind}.csv`;
      const answer = await this.http.get(url, { acceptStatuses: [404], signal });
      if (answer.status === 404) return null;
      urls.push(url);
      bodies.push(answer.body);
    }
    const [rollcalls, members, votes] = bodies.map((body) => body.toString('utf8'));
    if (rollcalls === undefined || members === undefined || votes === undefined) return null;
    return { text: { name, rollcalls, members, votes }, urls, bodies };
  }
}

export interface FetchedSets {
  sets: VoteviewSetText[];
  missing: { name: string; reason: string }[];
}

/** The named sets, each file kept in the archive (for reading sets outside an ingest run). */
export async function fetchVoteviewSets(
  http: HttpClient,
  archive: DocumentArchive,
  baseUrl: string,
  names: readonly string[],
): Promise<FetchedSets> {
  const connector = new VoteviewConnector(http, baseUrl);
  const sets: VoteviewSetText[] = [];
  const missing: FetchedSets['missing'] = [];
  for (const name of names) {
    const set = await connector.fetchSet(name);
    if (!set) {
      missing.push({ name, reason: 'not published (404)' });
      continue;
    }
    for (const body of set.bodies) archive.put(body);
    sets.push(set.text);
  }
  return { sets, missing };
}
