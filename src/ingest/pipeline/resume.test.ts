// A run stopped part-way (a shutdown, a crash of the PDF reader, a document the site would not
// serve) is finished by the next runs, ending in exactly the state one uninterrupted run reaches:
// no duplicates, no loss.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../storage/schema.js';
import { realDataAvailable } from '../../test-support/app.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { type ReplayRun, replayRunner, startReplay } from '../../test-support/replay.js';
import { PdfTextWorker, PdfWorkerError } from '../pdf-worker.js';
import type { ReplayServer } from '../replay/server.js';
import type { ConnectorName } from '../sources/connector.js';
import type { IngestReport } from './report.js';
import type { IngestProgress } from './run.js';

const dataDir = inject('dataDir');
const SOURCES: ConnectorName[] = ['house', 'senate'];

/** Everything a run stores, keyed by the sources' own ids rather than by row ids. */
async function snapshot(db: Kysely<Database>) {
  const filings = await db
    .selectFrom('filings as f')
    .leftJoin('filings as a', 'a.id', 'f.amends_filing_id')
    .leftJoin('politicians as p', 'p.id', 'f.politician_id')
    .select([
      'f.source',
      'f.source_doc_id',
      'f.parse_status',
      'f.parse_reason',
      'f.trade_count',
      'f.raw_sha256',
      'f.is_amendment',
      'a.source_doc_id as amends',
      'p.slug',
    ])
    .orderBy('f.source')
    .orderBy('f.source_doc_id')
    .execute();
  const keys = new Map<number, string>();
  for (const trade of await db.selectFrom('trades').select(['id', 'source', 'source_key']).execute()) {
    keys.set(trade.id, `${trade.source}:${trade.source_key}`);
  }
  const trades = (
    await db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select([
        't.id',
        't.source',
        't.source_key',
        't.origin',
        'p.slug',
        't.ticker',
        't.asset_description',
        't.trade_type',
        't.amount_range',
        't.transaction_date',
        't.disclosure_date',
        't.owner',
        't.comment',
        't.superseded_by',
      ])
      .execute()
  )
    .map(({ id: _id, superseded_by, ...trade }) => ({
      ...trade,
      superseded_by: superseded_by === null ? null : (keys.get(superseded_by) ?? '?'),
    }))
    .sort((a, b) => `${a.source}:${a.source_key}`.localeCompare(`${b.source}:${b.source_key}`));
  const aliases = (await db.selectFrom('trade_aliases').selectAll().execute())
    .map((alias) => `${alias.source}:${alias.source_key} -> ${keys.get(alias.trade_id)} (${alias.origin})`)
    .sort();
  const events = (await db.selectFrom('events').select(['type', 'subject_key']).execute())
    .map((event) => {
      const trade = /^trade:(\d+)$/.exec(event.subject_key);
      return `${event.type} ${trade ? keys.get(Number(trade[1])) : event.subject_key}`;
    })
    .sort();
  const documents = await db
    .selectFrom('ingest_documents')
    .select(['source', 'source_doc_id', 'status', 'pending_amendment'])
    .orderBy('source')
    .orderBy('source_doc_id')
    .execute();
  return { filings, trades, aliases, events, documents };
}

describe.skipIf(!realDataAvailable() || !dataDir)('an interrupted ingest resumes', () => {
  let interrupted: TestStore;
  let clean: TestStore;
  let server: ReplayServer;
  let runner: ReplayRun;
  const worker = new PdfTextWorker();
  const reports: IngestReport[] = [];
  let uninterrupted: IngestReport;

  beforeAll(async () => {
    const fixture = inject('fixture') ?? undefined;
    interrupted = await openTestStore(fixture);
    clean = await openTestStore(fixture);
    server = await startReplay(dataDir ?? '');
    runner = replayRunner(server.url);
    const db = interrupted.db;

    // 1. Shut down after 15 documents.
    const controller = new AbortController();
    const stopAfter15: IngestProgress = {
      start: () => undefined,
      advance: (_connector, done) => {
        if (done === 15) controller.abort();
      },
      finish: () => undefined,
    };
    reports.push(
      await runner.run(db, { sources: SOURCES, signal: controller.signal, progress: stopAfter15 }),
    );
    // 2. The PDF worker dies on the 5th PDF of the next run.
    let pdfs = 0;
    const dying = (bytes: Uint8Array) => {
      pdfs += 1;
      return pdfs === 5
        ? Promise.reject(new PdfWorkerError('PDF worker exited with code 1'))
        : worker.extract(bytes);
    };
    reports.push(await runner.run(db, { sources: SOURCES, pdfText: dying }));
    // 3. The site fails that document longer than the client retries.
    const crashed = reports[1]?.sources[0]?.failures[0]?.url ?? '';
    server.failNext(new URL(crashed).pathname, 3, 500);
    reports.push(await runner.run(db, { sources: SOURCES }));
    // 4. Everything left.
    reports.push(await runner.run(db, { sources: SOURCES }));

    uninterrupted = await runner.run(clean.db, { sources: SOURCES });
  });
  afterAll(async () => {
    await worker.close();
    await server?.close();
    runner?.dispose();
    await interrupted?.dispose();
    await clean?.dispose();
  });

  it('stops between documents and leaves the rest listed', () => {
    const [house, ...others] = reports[0]?.sources ?? [];
    expect(house).toMatchObject({
      connector: 'house',
      status: 'aborted',
      documents: { stored: 15, remaining: 44 },
    });
    // An aborted run does not go on to the next source.
    expect(others).toEqual([]);
  });

  it('a crash of the PDF reader fails that document for this run only: the run goes on, the document is read again next run', () => {
    const house = reports[1]?.sources[0];
    expect(house).toMatchObject({
      connector: 'house',
      status: 'completed',
      error: null,
      documents: { stored: 43, failed: 1, remaining: 1 },
    });
    expect(house?.failures).toEqual([
      {
        docId: expect.any(String),
        url: expect.any(String),
        reason: 'PDF worker exited with code 1',
        attempts: 1,
      },
    ]);
    expect(reports[1]?.sources[1]).toMatchObject({ connector: 'senate', status: 'completed' });
  });

  it('records a document the site will not serve, and stores it on the next run', () => {
    const house = reports[2]?.sources.find((report) => report.connector === 'house');
    const crashed = reports[1]?.sources[0]?.failures[0];
    expect(house?.status).toBe('completed');
    expect(house?.failures).toEqual([
      { docId: crashed?.docId, url: crashed?.url, reason: `${crashed?.url} answered 500`, attempts: 2 },
    ]);
    expect(house?.documents.remaining).toBe(1);
    const last = reports[3]?.sources.find((report) => report.connector === 'house');
    expect(last).toMatchObject({ documents: { stored: 1, failed: 0, remaining: 0 }, newFilings: 0 });
  });

  it('ends in the same state as one uninterrupted run, without duplicates', async () => {
    for (const report of uninterrupted.sources) expect(report.status).toBe('completed');
    const resumed = await snapshot(interrupted.db);
    const reference = await snapshot(clean.db);
    expect(resumed.trades.length).toBe(reference.trades.length);
    expect(resumed.filings).toEqual(reference.filings);
    expect(resumed.trades).toEqual(reference.trades);
    expect(resumed.aliases).toEqual(reference.aliases);
    expect(resumed.events).toEqual(reference.events);
    expect(resumed.documents).toEqual(reference.documents);
    expect(new Set(resumed.events).size).toBe(resumed.events.length);
    const total = (pick: (report: IngestReport['sources'][number]) => number) =>
      reports.flatMap((report) => report.sources).reduce((sum, report) => sum + pick(report), 0);
    const cleanTotal = (pick: (report: IngestReport['sources'][number]) => number) =>
      uninterrupted.sources.reduce((sum, report) => sum + pick(report), 0);
    expect(total((r) => r.trades.created)).toBe(cleanTotal((r) => r.trades.created));
    expect(total((r) => r.newFilings)).toBe(cleanTotal((r) => r.newFilings));
  });
});
