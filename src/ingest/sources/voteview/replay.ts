// Voteview on the replay server: the download files recorded under `<data dir>/related/votes/voteview`.
//   GET /static/data/out/{rollcalls|members|votes}/{H119}_{kind}.csv
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound, type ReplayAnswer, type ReplaySite } from '../replay-site.js';

const SET_FILE =
  /^\/static\/data\/out\/(rollcalls|members|votes)\/([HS]\d{2,3})_(rollcalls|members|votes)\.csv$/;

export const voteviewReplay: ReplaySite = {
  load(dataDir) {
    const folder = join(dataDir, 'related', 'votes', 'voteview');
    if (!existsSync(folder)) return null;
    const files = readdirSync(folder).filter((name) => name.endsWith('.csv'));
    return {
      summary: `Voteview: ${files.length} roll-call files`,
      answer({ method, path }): ReplayAnswer | undefined {
        const match = method === 'GET' ? SET_FILE.exec(path) : null;
        if (!match || match[1] !== match[3]) return undefined;
        const file = join(folder, `${match[2]}_${match[3]}.csv`);
        return existsSync(file) ? { status: 200, type: 'text/csv', body: readFileSync(file) } : notFound();
      },
    };
  },
};
