// The replay server's money-and-policy paths: the recorded Senate LDA and USAspending answers
// (`<data dir>/related/lda`, `<data dir>/related/usaspending`) served where the connectors ask:
//   GET  /api/v1/filings/?page=N             the N-th recorded LDA API page; `count` is what the
//                                            recording holds and `next` points at the next recorded
//                                            page (the recorded `next` names lda.gov's page 2, which
//                                            was not recorded), query filters are not applied
//   GET  /downloads/                         an HTML list of the recorded Senate bulk XML files
//   GET  /downloads/<file>.xml               one of them, byte for byte (UTF-16)
//   POST /api/v2/search/spending_by_award/   the N-th recorded contract search answer (body `page`),
//                                            hasNext true until the last; filters are not applied
//   GET  /api/v2/awards/<award key>/         a recorded award detail, else 404
//   GET  /v3/bill[/<congress>[/<type>[/<number>[/<part>]]]]
//                                            the recorded congress.gov API v3 answers (`bill_117_hr_21_
//                                            actions.json` answers /v3/bill/117/hr/21/actions); a list
//                                            holds its one recorded page (`next` null, `count` what it
//                                            holds); query filters are not applied; else 404
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { filesUnder } from '../../files.js';

export interface RelatedAnswer {
  status: number;
  type: string;
  body: string | Uint8Array;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export class RelatedReplay {
  /** Recorded LDA API pages, in file order. */
  readonly ldaPages: Obj[] = [];
  /** Bulk XML files by name. */
  readonly ldaBulk = new Map<string, string>();
  /** Recorded spending_by_award answers holding contract rows, in file order. */
  readonly awardSearches: Array<{ file: string; answer: Obj }> = [];
  /** Recorded award details by award key. */
  readonly awardDetails = new Map<string, Obj>();
  /** Recorded congress.gov API v3 answers by path (`/v3/bill/117/hr/21/actions`). */
  readonly congressAnswers = new Map<string, Obj>();

  constructor(dataDir: string) {
    const lda = join(dataDir, 'related', 'lda');
    const usaspending = join(dataDir, 'related', 'usaspending');
    const congress = join(dataDir, 'related', 'bills', 'congress-gov-api-v3');
    if (existsSync(congress)) {
      for (const file of filesUnder(congress, (name) => /^bill(_[a-z0-9]+)*\.json$/i.test(name))) {
        const path = `/v3/${basename(file, '.json').toLowerCase().split('_').join('/')}`;
        this.congressAnswers.set(path, obj(readJson(file)));
      }
    }
    if (existsSync(lda)) {
      for (const file of filesUnder(lda, (name) => name.endsWith('.json'))) {
        const page = obj(readJson(file));
        if (Array.isArray(page.results) && typeof page.count === 'number') this.ldaPages.push(page);
      }
      for (const file of filesUnder(lda, (name) => name.toLowerCase().endsWith('.xml'))) {
        this.ldaBulk.set(basename(file), file);
      }
    }
    if (existsSync(usaspending)) {
      for (const file of filesUnder(usaspending, (name) => name.endsWith('.json'))) {
        const answer = obj(readJson(file));
        const results = Array.isArray(answer.results) ? answer.results.map(obj) : [];
        const isContractSearch =
          'page_metadata' in answer &&
          results.some((row) => String(row.generated_internal_id ?? '').startsWith('CONT_'));
        if (isContractSearch) this.awardSearches.push({ file: relative(usaspending, file), answer });
        const key = answer.generated_unique_award_id;
        if (typeof key === 'string' && key.startsWith('CONT_')) this.awardDetails.set(key, answer);
      }
    }
  }

  /** The answer for a request, or null when the path is not one of these. */
  handle(
    method: string,
    path: string,
    query: URLSearchParams,
    body: string,
    baseUrl: string,
  ): RelatedAnswer | null {
    if (method === 'GET' && path === '/api/v1/filings/') return this.ldaPage(query, baseUrl);
    if (method === 'GET' && path === '/downloads/') return this.downloadsPage();
    if (method === 'GET' && path.startsWith('/downloads/')) {
      const file = this.ldaBulk.get(path.slice('/downloads/'.length));
      return file ? { status: 200, type: 'application/xml', body: readFileSync(file) } : notFound();
    }
    if (method === 'POST' && path === '/api/v2/search/spending_by_award/') return this.awardSearch(body);
    const detail = /^\/api\/v2\/awards\/([^/]+)\/$/.exec(path);
    if (method === 'GET' && detail) {
      const answer = this.awardDetails.get(detail[1] ?? '');
      return answer ? json(answer) : notFound();
    }
    if (method === 'GET' && (path === '/v3/bill' || path.startsWith('/v3/bill/'))) {
      const answer = this.congressAnswers.get(path.replace(/\/+$/, '').toLowerCase());
      return answer ? json(recordedListPage(answer)) : notFound();
    }
    return null;
  }

  private ldaPage(query: URLSearchParams, baseUrl: string): RelatedAnswer {
    const page = Number(query.get('page') ?? '1');
    const recorded = this.ldaPages[page - 1];
    if (!Number.isInteger(page) || !recorded)
      return { status: 404, type: 'application/json', body: '{"detail":"Invalid page."}' };
    const link = (n: number) => {
      const next = new URLSearchParams(query);
      next.set('page', String(n));
      return `${baseUrl}/api/v1/filings/?${next}`;
    };
    const count = this.ldaPages.reduce(
      (sum, p) => sum + (Array.isArray(p.results) ? p.results.length : 0),
      0,
    );
    return json({
      ...recorded,
      count,
      next: page < this.ldaPages.length ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
    });
  }

  private downloadsPage(): RelatedAnswer {
    const links = [...this.ldaBulk.keys()]
      .sort()
      .map((name) => `<li><a href="/downloads/${encodeURIComponent(name)}">${name}</a></li>`)
      .join('\n');
    return {
      status: 200,
      type: 'text/html; charset=utf-8',
      body: `<!DOCTYPE html><html><head><title>LDA database download</title></head><body><ul>\n${links}\n</ul></body></html>`,
    };
  }

  private awardSearch(body: string): RelatedAnswer {
    let page: number;
    try {
      page = Number(obj(JSON.parse(body)).page ?? 1);
    } catch {
      return { status: 400, type: 'application/json', body: '{"detail":"request body is not JSON"}' };
    }
    const recorded = this.awardSearches[page - 1];
    if (!Number.isInteger(page) || !recorded)
      return json({ results: [], page_metadata: { page, hasNext: false } });
    return json({
      ...recorded.answer,
      page_metadata: {
        ...obj(recorded.answer.page_metadata),
        page,
        hasNext: page < this.awardSearches.length,
      },
    });
  }
}

/** A congress.gov list as recorded: one page, so no `next`, and a count of what it holds. */
function recordedListPage(answer: Obj): Obj {
  if (typeof obj(answer.pagination).next !== 'string') return answer;
  const rows = Object.values(answer).find(Array.isArray);
  return { ...answer, pagination: { count: Array.isArray(rows) ? rows.length : 0, next: null } };
}

function json(value: unknown): RelatedAnswer {
  return { status: 200, type: 'application/json', body: JSON.stringify(value) };
}

function notFound(): RelatedAnswer {
  return { status: 404, type: 'application/json', body: '{"detail":"Not found."}' };
}
