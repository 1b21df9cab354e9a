// The Senate LDA on the replay server, from the recordings under `<data dir>/related/lda`:
//   GET /api/v1/filings/?page=N   the N-th recorded API page; `count` is what the recording holds
//                                 and `next` points at the next recorded page (the recorded `next`
//                                 names lda.gov's page 2, which was not recorded); query filters
//                                 are not applied
//   GET /downloads/               an HTML list of the recorded Senate bulk XML files
//   GET /downloads/<file>.xml     one of them, byte for byte (UTF-16)
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesUnder } from '../../../files.js';
import { type Obj, obj } from '../parsed-values.js';
import { json, notFound, type ReplayAnswer, type ReplaySite } from '../replay-site.js';

export const ldaReplay: ReplaySite = {
  load(dataDir) {
    const folder = join(dataDir, 'related', 'lda');
    if (!existsSync(folder)) return null;
    const pages: Obj[] = [];
    const bulk = new Map<string, string>();
    for (const file of filesUnder(folder, (name) => name.endsWith('.json'))) {
      const page = readObject(file);
      if (Array.isArray(page.results) && typeof page.count === 'number') pages.push(page);
    }
    for (const file of filesUnder(folder, (name) => name.toLowerCase().endsWith('.xml'))) {
      bulk.set(basename(file), file);
    }
    return {
      summary: `LDA: ${pages.length} API pages and ${bulk.size} bulk files`,
      answer({ method, path, query, baseUrl }): ReplayAnswer | undefined {
        if (method !== 'GET') return undefined;
        if (path === '/api/v1/filings/') return apiPage(pages, query, baseUrl);
        if (path === '/downloads/') return downloadsPage(bulk);
        if (path.startsWith('/downloads/')) {
          const file = bulk.get(path.slice('/downloads/'.length));
          return file
            ? { status: 200, type: 'application/xml', body: readFileSync(file) }
            : notFound('application/json');
        }
        return undefined;
      },
    };
  },
};

function apiPage(pages: readonly Obj[], query: URLSearchParams, baseUrl: string): ReplayAnswer {
  const page = Number(query.get('page') ?? '1');
  const recorded = pages[page - 1];
  if (!Number.isInteger(page) || !recorded)
    return { status: 404, type: 'application/json', body: '{"detail":"Invalid page."}' };
  const link = (n: number) => {
    const next = new URLSearchParams(query);
    next.set('page', String(n));
    return `${baseUrl}/api/v1/filings/?${next}`;
  };
  const count = pages.reduce((sum, p) => sum + (Array.isArray(p.results) ? p.results.length : 0), 0);
  return json({
    ...recorded,
    count,
    next: page < pages.length ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
  });
}

function downloadsPage(bulk: ReadonlyMap<string, string>): ReplayAnswer {
  const links = [...bulk.keys()]
    .sort()
    .map((name) => `<li><a href="/downloads/${encodeURIComponent(name)}">${name}</a></li>`)
    .join('\n');
  return {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: `<!DOCTYPE html><html><head><title>LDA database download</title></head><body><ul>\n${links}\n</ul></body></html>`,
  };
}

function readObject(file: string): Obj {
  try {
    return obj(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return {};
  }
}
