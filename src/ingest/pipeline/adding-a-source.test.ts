// docs/adding-a-source.md, followed: a small constructed source ("notices", a JSON API of public
// notices, served from constructed answers on 127.0.0.1) is written as a manifest and a definition,
// registered, and nothing else is touched. The one loop runs it end to end (list → fetch → parse
// → store, archived by content address, the cursor kept, a second run storing nothing), the
// replay server answers its paths and `dcledger parse`'s sniffer recognises its files. Its store
// keeps records in memory: a real source writes its tables through storage/ (the guide says how).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIngest } from '../../config.js';
import { namesOfContent } from '../../storage/repositories/document-names.js';
import { readIngestState } from '../../storage/repositories/ingest.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { ReplayServer } from '../replay/server.js';
import type { LooseFileReader } from '../sources/loose-file.js';
import type { RecordsManifest } from '../sources/manifest.js';
import { parseDocument } from '../sources/parse-document.js';
import { RecordSourceError, type RecordStore, type StoredRecord } from '../sources/record-connector.js';
import { REGISTRY, registeredSource, SourceRegistry } from '../sources/registry.js';
import { json, notFound, type ReplaySite } from '../sources/replay-site.js';
import { recordsSource } from '../sources/source-definition.js';
import { chooseSources, ingestSources, SourceSetupError } from './setup.js';

// ---- ingest/sources/notices/manifest.ts (constructed) ----
const noticesManifest = {
  name: 'notices',
  title: 'Public notices (a constructed JSON API)',
  kind: 'records',
  stateKey: 'notices',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_NOTICES_BASE_URL',
      default: 'https://notices.invalid',
      description: 'the notices API',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 1,
  events: [],
} as const satisfies RecordsManifest;

// ---- ingest/sources/notices/parse.ts (constructed): the parser the connector calls directly ----
interface Notice {
  id: string;
  title: string;
  posted: string;
}

interface NoticesPage {
  notices: Notice[];
  next: number | null;
}

function parseNoticesPage(text: string): NoticesPage {
  const value = JSON.parse(text) as Partial<NoticesPage>;
  if (!Array.isArray(value.notices)) throw new RecordSourceError('not a notices page: no "notices" array');
  return { notices: value.notices, next: typeof value.next === 'number' ? value.next : null };
}

// ---- ingest/sources/notices/replay.ts (constructed answers) ----
const PAGES: Record<string, NoticesPage> = {
  '1': {
    notices: [
      { id: 'N-1', title: 'Hearing on port security', posted: '2026-03-02' },
      { id: 'N-2', title: 'Comment period opens', posted: '2026-03-04' },
    ],
    next: 2,
  },
  '2': { notices: [{ id: 'N-3', title: 'Rule published', posted: '2026-03-09' }], next: null },
};

const noticesReplay: ReplaySite = {
  load: () => ({
    summary: `notices: ${Object.keys(PAGES).length} constructed pages`,
    answer({ method, path, query }) {
      if (method !== 'GET') return undefined;
      // The site's "latest" page repeats its last page, byte for byte.
      if (path === '/api/notices/latest') return json(PAGES['2']);
      if (path !== '/api/notices') return undefined;
      const page = PAGES[query.get('page') ?? ''];
      return page ? json(page) : notFound('application/json');
    },
  }),
};

// ---- ingest/sources/notices/source.ts (constructed) ----
const stored = new Map<string, Notice>();

class NoticeStore implements RecordStore<Notice> {
  async store(_db: unknown, notice: Notice): Promise<StoredRecord> {
    const before = stored.get(notice.id);
    stored.set(notice.id, notice);
    const outcome = !before
      ? 'new'
      : JSON.stringify(before) === JSON.stringify(notice)
        ? 'unchanged'
        : 'updated';
    return { outcome, emitted: outcome === 'new', unmatchedName: null };
  }
}

const noticesFiles: LooseFileReader = {
  formats: { json: 'a notices page' },
  async recognise(file) {
    return /^\s*\{\s*"notices"\s*:/.test(file.text) ? 'certain' : 'no';
  },
  async read(file) {
    const page = parseNoticesPage(file.text);
    return {
      kind: 'listing',
      source: 'notices',
      format: 'notices-json',
      what: 'a notices page',
      rows: page.notices,
      summary: { notices: page.notices.length },
    };
  },
};

const definition = recordsSource<typeof noticesManifest, Notice, { id: string; url: string | null }>({
  manifest: noticesManifest,
  feed: ({ http, settings }) => ({
    async *pages(_since, _now, signal) {
      const urls: string[] = [];
      for (let page: number | null = 1; page !== null; ) {
        const url: string = `${settings.baseUrl}/api/notices?page=${page}`;
        const answer = await http.get(url, { signal });
        const parsed = parseNoticesPage(answer.body.toString('utf8'));
        urls.push(url);
        yield { label: url, bytes: answer.body, records: parsed.notices, skipped: [], total: null };
        page = parsed.next;
      }
      const latest = await http.get(`${settings.baseUrl}/api/notices/latest`, { signal });
      const parsed = parseNoticesPage(latest.body.toString('utf8'));
      yield { label: latest.url, bytes: latest.body, records: parsed.notices, skipped: [], total: null };
    },
  }),
  store: () => new NoticeStore(),
  matchesCompanies: false,
  looseFiles: noticesFiles,
  replay: noticesReplay,
});

// ---- ingest/sources/registry.ts: the one line a new source adds ----
const registry = REGISTRY.with(registeredSource(definition));

describe('a source added as its folder and one registry line (constructed "notices")', () => {
  let store: TestStore;
  let replay: ReplayServer;
  let archiveDir: string;
  const now = new Date('2026-03-10T12:00:00Z');
  const run = (since?: string) =>
    ingestSources(
      store.db,
      { ...readIngest({}), archiveDir, minIntervalMs: 0, retries: 0 },
      { registry, sources: ['notices'], baseUrl: replay.url, since, clock: () => now },
    );

  beforeAll(async () => {
    store = await openTestStore();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-notices-'));
    // Only the constructed source: the registered ones would load the shared recordings.
    replay = new ReplayServer({
      dataDir: archiveDir,
      registry: new SourceRegistry([registeredSource(definition)]),
    });
    await replay.start();
  });

  afterAll(async () => {
    await replay?.close();
    await store?.dispose();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  it('is chosen by name like a registered source, and unknown names list it', async () => {
    expect(registry.names).toEqual([...REGISTRY.names, 'notices']);
    await expect(chooseSources(readIngest({}), { registry, sources: ['nope'] })).rejects.toThrow(
      new SourceSetupError(`unknown source "nope": use ${[...REGISTRY.names, 'notices'].join(', ')}`),
    );
  });

  it('runs through the one loop: pages archived by content, records stored, the cursor kept', async () => {
    const report = await run('2026-03-01');
    const [notices] = report.records ?? [];
    expect(notices).toMatchObject({
      source: 'notices',
      status: 'completed',
      since: '2026-03-01',
      sinceFrom: 'option',
      pages: 3,
      records: 4,
      new: 3,
      unchanged: 1,
      events: 3,
      error: null,
    });
    // The "latest" page is the second page's bytes under another name: archived once, reported.
    expect(notices?.duplicates).toEqual([
      { name: `${replay.url}/api/notices/latest`, sameAs: `${replay.url}/api/notices?page=2` },
    ]);
    expect([...stored.keys()].sort()).toEqual(['N-1', 'N-2', 'N-3']);
    const state = await readIngestState(store.db, 'notices');
    expect(state?.last_status).toBe('completed');
    expect(state?.cursor).toBe('2026-03-03');
    // No trade documents ran: no enrichment job is asked for, and no trade-document report.
    expect(report.sources).toEqual([]);

    const page2 = Buffer.from(JSON.stringify(PAGES['2']));
    const sha = createHash('sha256').update(page2).digest('hex');
    expect(existsSync(join(archiveDir, sha.slice(0, 2), sha))).toBe(true);
    // Both names of the bytes are kept (the run's fixed clock gives them one first-seen time).
    expect((await namesOfContent(store.db, 'notices', sha)).map((name) => name.name).sort()).toEqual([
      `${replay.url}/api/notices/latest`,
      `${replay.url}/api/notices?page=2`,
    ]);
  });

  it('stores nothing new on a second run, which starts from the cursor', async () => {
    const [notices] = (await run()).records ?? [];
    expect(notices).toMatchObject({
      status: 'completed',
      since: '2026-03-03',
      sinceFrom: 'cursor',
      new: 0,
      unchanged: 4,
      events: 0,
    });
  });

  it('is recognised by `dcledger parse`, through its own reader', async () => {
    const parsed = await parseDocument(Buffer.from(JSON.stringify(PAGES['1'])), { registry });
    expect(parsed).toMatchObject({ kind: 'listing', source: 'notices', summary: { notices: 2 } });
    // Without the registry line the same bytes belong to no source.
    expect((await parseDocument(Buffer.from(JSON.stringify(PAGES['1'])))).kind).toBe('unreadable');
  });
});
