// USAspending on the replay server, from the recordings under `<data dir>/related/usaspending`:
//   POST /api/v2/search/spending_by_award/   the N-th recorded contract search answer (body `page`),
//                                            hasNext true until the last; filters are not applied
//   GET  /api/v2/awards/<award key>/         a recorded award detail, else 404
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from '../../../files.js';
import { json, notFound, type ReplayAnswer, type ReplaySite } from '../replay-site.js';

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

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
        'page_metadata' in answer &&
        results.some((row) => String(row.generated_internal_id ?? '').startsWith('CONT_'));
      if (isContractSearch) searches.push({ file: relative(folder, file), answer });
      const key = answer.generated_unique_award_id;
      if (typeof key === 'string' && key.startsWith('CONT_')) details.set(key, answer);
    }
    return {
      summary: `USAspending: ${searches.length} award searches and ${details.size} award details`,
      answer({ method, path, body }): ReplayAnswer | undefined {
        if (method === 'POST' && path === '/api/v2/search/spending_by_award/')
          return awardSearch(searches, body);
        const detail = /^\/api\/v2\/awards\/([^/]+)\/$/.exec(path);
        if (method === 'GET' && detail) {
          const answer = details.get(detail[1] ?? '');
          return answer ? json(answer) : notFound('application/json');
        }
        return undefined;
      },
    };
  },
};

function awardSearch(searches: ReadonlyArray<{ answer: Obj }>, body: string): ReplayAnswer {
  let page: number;
  try {
    page = Number(obj(JSON.parse(body)).page ?? 1);
  } catch {
    return { status: 400, type: 'application/json', body: '{"detail":"request body is not JSON"}' };
  }
  const recorded = searches[page - 1];
  if (!Number.isInteger(page) || !recorded)
    return json({ results: [], page_metadata: { page, hasNext: false } });
  return json({
    ...recorded.answer,
    page_metadata: { ...obj(recorded.answer.page_metadata), page, hasNext: page < searches.length },
  });
}

function readObject(file: string): Obj {
  try {
    return obj(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return {};
  }
}
