// A real scan ingested before any company is in the database (as a first start from the official
// sites reads them), read again by `dcledger review reread` once `dcledger companies import` has
// run: the typed Clerk form 8220747, whose one row names "GE Vernova LLC", a word only the issuers
// list. The row waits for review at first; read again, it is accepted as a trade, announced by
// trade.created, and the decision says who read it again and what changed. The next ingest run
// after the import reads it again by itself, once, as after a first `dcledger ingest sec`, which
// imports the SEC's directory into the empty database; and a filing whose document left the
// archive says so, and is not tried again.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reviewDecisionsOfFiling, reviewItemsOfFiling } from '../../storage/repositories/review.js';
import { runCli as cli, pointCliAt } from '../../test-support/cli.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { runWithOcr } from '../../test-support/replay.js';
import { ingestScan, type ScanReplay } from '../../test-support/scan-ingest.js';
import { WITHOUT_ISSUERS } from './ocr-stage.js';

const dataDir = inject('dataDir');

/**
 * The real 8220747 ingested into a store of its own while it holds no companies, the CLI pointed
 * at the store and the archive; the hooks open and close them around the describe's tests.
 */
function scanReadWithoutCompanies() {
  const context = {} as { store: TestStore; replay: ScanReplay };
  let restoreEnv: (() => void) | undefined;
  beforeAll(async () => {
    context.store = await openTestStore();
    ({ replay: context.replay } = await ingestScan(context.store.db, dataDir ?? '', '8220747'));
    restoreEnv = pointCliAt(context.store.config);
    process.env.DCLEDGER_ARCHIVE_DIR = context.replay.runner.archiveDir;
  }, 300_000);
  afterAll(async () => {
    delete process.env.DCLEDGER_ARCHIVE_DIR;
    restoreEnv?.();
    await context.replay?.close();
    await context.store?.dispose();
  });
  return context;
}

/** The companies directory imported through the CLI. */
async function importCompanies() {
  return cli('companies', 'import', join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'));
}

/** The filing of 8220747. */
function scanFiling(store: TestStore) {
  return store.db
    .selectFrom('filings')
    .select(['id', 'parse_status', 'parse_reason', 'trade_count', 'raw_sha256'])
    .where('source_doc_id', '=', '8220747')
    .executeTakeFirstOrThrow();
}

describe.skipIf(!dataDir)(
  'reading again a scan read before the companies were imported (real 8220747)',
  () => {
    const context = scanReadWithoutCompanies();
    const filing = () => scanFiling(context.store);

    it('keeps the row waiting, and the filing says its names met no issuers', async () => {
      const read = await filing();
      expect(read).toMatchObject({ parse_status: 'needs_review', trade_count: 0 });
      expect(read.parse_reason).toContain(WITHOUT_ISSUERS);
      const items = await reviewItemsOfFiling(context.store.db, read.id);
      expect(items.map((item) => item.status)).toEqual(['pending']);
      // The list says the next run after the import reads it again.
      expect((await cli('review', 'list')).out).toContain(
        '1 waiting row(s) were read while the database held no companies',
      );
      // Nothing to read again with yet: the row is read as before and keeps waiting.
      const again = await cli('review', 'reread', '--json');
      expect(again.code).toBe(0);
      // Progress on stderr (no terminal here): each page, then the filing.
      expect(again.err).toContain(`filing ${read.id}: page 2/2 read`);
      expect(again.err).toContain(`filing ${read.id}: read (1/1)`);
      expect(JSON.parse(again.out)).toEqual([
        {
          filing_id: read.id,
          source: 'house_clerk',
          outcome: 'read',
          accepted: 0,
          waiting: 1,
          unmatched: 0,
          decided_meanwhile: 0,
        },
      ]);
      expect((await reviewItemsOfFiling(context.store.db, read.id)).map((item) => item.status)).toEqual([
        'pending',
      ]);
      // Read again still without companies: the filing still says so, for the run after the import.
      expect((await filing()).parse_reason).toContain(WITHOUT_ISSUERS);
    }, 300_000);

    it('accepts the row once read again with the companies, as a trade announced by trade.created', async () => {
      const imported = await importCompanies();
      expect(imported.code).toBe(0);
      // The import says what waits, and how to read it again.
      expect(imported.out).toContain('1 row(s) read from scans wait for review: `dcledger review reread`');
      const again = await cli('review', 'reread', '--by', 'ops');
      expect(again.code).toBe(0);
      expect(again.out).toContain('1 accepted, 0 still waiting');

      const read = await filing();
      expect(read).toMatchObject({ parse_status: 'parsed', trade_count: 1 });
      const [item] = await reviewItemsOfFiling(context.store.db, read.id);
      expect(item).toMatchObject({ status: 'accepted', decided_by: 'ops (scan read again)' });
      const trade = await context.store.db
        .selectFrom('trades')
        .select(['id', 'asset_description', 'parse_method', 'parse_confidence', 'source_key'])
        .where('id', '=', item?.trade_id ?? 0)
        .executeTakeFirstOrThrow();
      expect(trade).toMatchObject({
        asset_description: 'GE Vernova LLC',
        parse_method: 'ocr',
        source_key: '8220747#1',
      });
      // Read surely this time: the trade carries the new reading's least sure field.
      expect(trade.parse_confidence).toBeGreaterThanOrEqual(0.8);
      const [decision] = await reviewDecisionsOfFiling(context.store.db, read.id);
      expect(decision).toMatchObject({
        action: 'accept',
        decided_by: 'ops (scan read again)',
        trade_id: trade.id,
      });
      const events = await context.store.db
        .selectFrom('events')
        .select(['type', 'subject_key'])
        .where('type', '=', 'trade.created')
        .execute();
      expect(events.map((event) => event.subject_key)).toContain(`trade:${trade.id}`);

      // Nothing waits any more.
      expect((await cli('review', 'reread')).out).toContain('no rows wait for review');
    }, 300_000);
  },
);

describe.skipIf(!dataDir)(
  'the next ingest run reads again a scan read before the companies were imported (real 8220747)',
  () => {
    const context = scanReadWithoutCompanies();
    const run = () => runWithOcr(context.replay.runner, context.store.db, { sources: ['house'] });

    it('accepts the waiting row after the companies import, once', async () => {
      const before = await scanFiling(context.store);
      expect(before.parse_status).toBe('needs_review');
      // No companies yet: a run reads nothing again.
      const idle = await run();
      expect(idle.report.reread).toBeUndefined();
      expect(idle.pages).toEqual([]);

      expect((await importCompanies()).code).toBe(0);
      // The next run lists nothing new, and reads the scan again with the companies, page by page.
      const { report, pages } = await run();
      expect(report.sources[0]?.newFilings).toBe(0);
      expect(report.reread).toEqual({ filings: 1, accepted: 1, waiting: 0, unread: 0 });
      expect(pages).toEqual([
        [`filing ${before.id}`, 1, 2],
        [`filing ${before.id}`, 2, 2],
      ]);
      expect(await scanFiling(context.store)).toMatchObject({ parse_status: 'parsed', trade_count: 1 });
      const [item] = await reviewItemsOfFiling(context.store.db, before.id);
      expect(item).toMatchObject({ status: 'accepted', decided_by: 'ingest (scan read again)' });
      const events = await context.store.db
        .selectFrom('events')
        .select('subject_key')
        .where('type', '=', 'trade.created')
        .execute();
      expect(events.map((event) => event.subject_key)).toContain(`trade:${item?.trade_id}`);

      // Read once: the run after reads nothing again.
      const next = await run();
      expect(next.report.reread).toBeUndefined();
      expect(next.pages).toEqual([]);
    }, 300_000);
  },
);

describe.skipIf(!dataDir)(
  'a scan read without issuer names whose document left the archive (real 8220747)',
  () => {
    const context = scanReadWithoutCompanies();
    const run = () => runWithOcr(context.replay.runner, context.store.db, { sources: ['house'] });

    it('says on the filing why it was not read again, and no run tries it again', async () => {
      const filing = await scanFiling(context.store);
      const sha = filing.raw_sha256 ?? '';
      rmSync(join(context.replay.runner.archiveDir, sha.slice(0, 2), sha));
      expect((await importCompanies()).code).toBe(0);
      const { report, pages } = await run();
      expect(report.reread).toEqual({ filings: 1, accepted: 0, waiting: 0, unread: 1 });
      expect(pages).toEqual([]);
      expect(await scanFiling(context.store)).toMatchObject({
        parse_status: 'needs_review',
        parse_reason:
          'scan not read again: the document is not in the archive; its rows wait for review as first read',
      });
      const items = await reviewItemsOfFiling(context.store.db, filing.id);
      expect(items.map((item) => item.status)).toEqual(['pending']);
      // Each such filing is tried once.
      expect((await run()).report.reread).toBeUndefined();
    }, 300_000);
  },
);

describe.skipIf(!dataDir)(
  "the SEC source's first run fills the companies a scan waits on (real 8220747)",
  () => {
    const context = scanReadWithoutCompanies();
    const run = () => runWithOcr(context.replay.runner, context.store.db, { sources: ['house'] });
    const SETTINGS = { DCLEDGER_SEC_CONTACT: 'tests@example.invalid', DCLEDGER_SEC_INTERVAL_MS: '0' };
    const saved = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, process.env[name]]));
    beforeAll(() => Object.assign(process.env, SETTINGS));
    afterAll(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('imports the directory, says what waits, and the next House run accepts the row', async () => {
      const before = await scanFiling(context.store);
      expect(before.parse_status).toBe('needs_review');
      const sec = await cli('ingest', 'sec', '--base-url', context.replay.server.url);
      expect(sec.code).toBe(0);
      expect(sec.out).toMatch(
        /the database held no companies: \d+ imported from the SEC's company tickers files/,
      );
      expect(sec.out).toContain('1 row(s) read from scans wait for review: `dcledger review reread`');

      const { report } = await run();
      expect(report.reread).toEqual({ filings: 1, accepted: 1, waiting: 0, unread: 0 });
      expect(await scanFiling(context.store)).toMatchObject({ parse_status: 'parsed', trade_count: 1 });
    }, 300_000);
  },
);
