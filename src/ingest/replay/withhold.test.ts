// The replay server holds documents back and publishes them on request, as a site adds a filing:
// a withheld House DocID, eFD report and OGE file are absent from what the connectors list and
// answer 404, then appear once POST /_replay/publish names them.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listReplay, replayConnectors } from '../../test-support/replay.js';
import type { ListedDocument } from '../sources/connector.js';
import { PUBLISH_PATH, ReplayServer } from './server.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-06-01T12:00:00Z');
const SINCE = '2016-01-01';

async function publish(url: string, body: string, method = 'POST') {
  const response = await fetch(`${url}${PUBLISH_PATH}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'POST' ? body : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.skipIf(!dataDir)('withheld documents on the replay server', () => {
  let open: ReplayServer;
  let held: ReplayServer;
  let all: Record<string, ListedDocument[]>;
  let chosen: Record<string, ListedDocument>;

  beforeAll(async () => {
    open = new ReplayServer({ dataDir: dataDir ?? '' });
    await open.start();
    all = await listReplay(open.url, SINCE, NOW);
    // An e-filed document of each source (one with a URL: eFD paper filings have no page).
    chosen = Object.fromEntries(
      Object.entries(all).map(([name, documents]) => {
        const document = documents.find((candidate) => candidate.url !== null && !candidate.isPaper);
        if (!document) throw new Error(`the replay server lists no e-filed ${name} document`);
        return [name, document];
      }),
    );
    const ids = Object.values(chosen).map((document) => document.docId);
    // eFD report ids are matched whatever their case, as the site does.
    held = new ReplayServer({
      dataDir: dataDir ?? '',
      withhold: ids.map((id, i) => (i === 1 ? id.toUpperCase() : id)),
    });
    await held.start();
  });
  afterAll(async () => {
    await open?.close();
    await held?.close();
  });

  it('leaves each withheld document out of its listing and answers 404 for it, and serves the rest', async () => {
    const before = await listReplay(held.url, SINCE, NOW);
    for (const [name, document] of Object.entries(chosen)) {
      const ids = (before[name] ?? []).map((candidate) => candidate.docId);
      expect(ids, name).not.toContain(document.docId);
      expect(ids.length, name).toBe((all[name] ?? []).length - 1);
      const response = await fetch((document.url ?? '').replace(open.url, held.url));
      expect(response.status, name).toBe(404);
    }
  });

  it('publishes on POST /_replay/publish: the documents are listed and served from then on', async () => {
    const ids = Object.values(chosen).map((document) => document.docId);
    const answer = await publish(held.url, JSON.stringify({ ids: [...ids, 'no-such-document'] }));
    expect(answer).toEqual({
      status: 200,
      body: { published: ids, not_withheld: ['no-such-document'], still_withheld: 0 },
    });
    const after = await listReplay(held.url, SINCE, NOW);
    for (const [name, document] of Object.entries(chosen)) {
      expect((after[name] ?? []).map((candidate) => candidate.docId)).toEqual(
        (all[name] ?? []).map((candidate) => candidate.docId),
      );
      // eFD report pages need the site's session: the connector's own fetch agrees to the terms.
      const fetched = await replayConnectors(held.url)[name as 'house']?.fetchDocument({
        ...document,
        url: (document.url ?? '').replace(open.url, held.url),
      });
      expect(fetched?.body.length, name).toBeGreaterThan(1000);
    }
    // Published once: a second request publishes nothing.
    expect((await publish(held.url, JSON.stringify({ ids }))).body).toMatchObject({
      published: [],
      not_withheld: ids,
    });
  });

  it('refuses a publish request that is not POST {"ids": [strings]}, with a detail', async () => {
    expect(await publish(held.url, 'not json')).toMatchObject({ status: 400, body: { detail: /JSON/ } });
    expect(await publish(held.url, '{"ids": [1]}')).toMatchObject({
      status: 400,
      body: { detail: /strings/ },
    });
    expect(await publish(held.url, '', 'GET')).toMatchObject({ status: 405, body: { detail: /POST/ } });
  });
});
