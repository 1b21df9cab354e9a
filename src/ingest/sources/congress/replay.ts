// congress.gov on the replay server, from the recordings under
// `<data dir>/related/bills/congress-gov-api-v3` (`bill_117_hr_21_actions.json` answers
// /v3/bill/117/hr/21/actions):
//   GET /v3/bill[/<congress>[/<type>[/<number>[/<part>]]]]   the recorded answer; a list holds its
//       one recorded page (`next` null, `count` what it holds); query filters are not applied; else 404
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesUnder } from '../../../files.js';
import { type Obj, obj } from '../parsed-values.js';
import { json, notFound, type ReplayAnswer, type ReplayRoutes, type ReplaySite } from '../replay-site.js';

export class CongressReplay implements ReplayRoutes {
  /** Recorded congress.gov API v3 answers by path (`/v3/bill/117/hr/21/actions`). */
  readonly answers = new Map<string, Obj>();

  constructor(folder: string) {
    for (const file of filesUnder(folder, (name) => /^bill(_[a-z0-9]+)*\.json$/i.test(name))) {
      const path = `/v3/${basename(file, '.json').toLowerCase().split('_').join('/')}`;
      try {
        this.answers.set(path, obj(JSON.parse(readFileSync(file, 'utf8'))));
      } catch {
        this.answers.set(path, {});
      }
    }
  }

  get summary(): string {
    return `congress.gov: ${this.answers.size} recorded answers`;
  }

  answer({ method, path }: { method: string; path: string }): ReplayAnswer | undefined {
    if (method !== 'GET' || !(path === '/v3/bill' || path.startsWith('/v3/bill/'))) return undefined;
    const answer = this.answers.get(path.replace(/\/+$/, '').toLowerCase());
    return answer ? json(recordedListPage(answer)) : notFound('application/json');
  }
}

export const congressReplay: ReplaySite = {
  load(dataDir) {
    const folder = join(dataDir, 'related', 'bills', 'congress-gov-api-v3');
    return existsSync(folder) ? new CongressReplay(folder) : null;
  },
};

/** A congress.gov list as recorded: one page, so no `next`, and a count of what it holds. */
function recordedListPage(answer: Obj): Obj {
  if (typeof obj(answer.pagination).next !== 'string') return answer;
  const rows = Object.values(answer).find(Array.isArray);
  return { ...answer, pagination: { count: Array.isArray(rows) ? rows.length : 0, next: null } };
}
