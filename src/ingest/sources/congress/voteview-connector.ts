// Fetches Voteview roll-call sets (`/static/data/out/{kind}/{H119}_{kind}.csv`) through the shared
// HTTP client (timeouts, retries, polite interval), keeps every answer in the document archive,
// and hands the texts to the same save as the file import.
import type { DocumentArchive } from '../../fetch/archive.js';
import type { HttpClient } from '../../fetch/http-client.js';
import type { VoteviewSetText } from '../../votes/import.js';

export const VOTEVIEW_BASE_URL = 'https://voteview.com';

/** The Congress sitting on a date: the 1st convened in 1789, a new one every odd year on January 3. */
export function congressOn(date: string): number {
  const year = Number(date.slice(0, 4));
  const odd = year % 2 === 1 ? year : year - 1;
  const start = date < `${odd}-01-03` ? odd - 2 : odd;
  return (start - 1789) / 2 + 1;
}

/** The House and Senate sets of every Congress from `since` to `until`. */
export function voteviewSetNames(since: string, until: string): string[] {
  const names: string[] = [];
  for (let congress = congressOn(since); congress <= congressOn(until); congress++)
    names.push(`H${congress}`, `S${congress}`);
  return names;
}

export interface FetchedSets {
  sets: VoteviewSetText[];
  missing: { name: string; reason: string }[];
}

export async function fetchVoteviewSets(
  http: HttpClient,
  archive: DocumentArchive,
  baseUrl: string,
  names: readonly string[],
  progress?: (done: number, total: number) => void,
): Promise<FetchedSets> {
  const sets: VoteviewSetText[] = [];
  const missing: FetchedSets['missing'] = [];
  let done = 0;
  for (const name of names) {
    const texts: Partial<Record<'rollcalls' | 'members' | 'votes', string>> = {};
    for (const kind of ['rollcalls', 'members', 'votes'] as const) {
      const url = `${baseUrl.replace(/\/$/, '')}/static/data/out/${kind}/${name}_${kind}.csv`;
      const answer = await http.get(url, { acceptStatuses: [404] });
      if (answer.status === 404) break;
      archive.put(answer.body);
      texts[kind] = answer.body.toString('utf8');
    }
    if (texts.rollcalls && texts.members && texts.votes)
      sets.push({ name, rollcalls: texts.rollcalls, members: texts.members, votes: texts.votes });
    else missing.push({ name, reason: 'not published (404)' });
    done += 1;
    progress?.(done, names.length);
  }
  return { sets, missing };
}
