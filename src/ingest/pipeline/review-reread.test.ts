// A real scan ingested before any company is in the database (as a first start from the official
// sites reads them), read again by `dcledger review reread` once `dcledger companies import` has
// run: the typed Clerk form 8220747, whose one row names "GE Vernova LLC", a word only the issuers
// list. The row waits for review at first; read again, it is accepted as a trade, announced by
// trade.created, and the decision says who read it again and what changed.
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

describe.skipIf(!dataDir)(
  'reading again a scan read before the companies were imported (real 8220747)',
  () => {
    let store: TestStore;
    let replay: ScanReplay;
    let restoreEnv: () => void;

    beforeAll(async () => {
      store = await openTestStore();
      ({ replay } = await ingestScan(store.db, dataDir ?? '', '8220747'));
      restoreEnv = pointCliAt(store.config);
      process.env.DCLEDGER_ARCHIVE_DIR = replay.runner.archiveDir;
    }, 300_000);
    afterAll(async () => {
      delete process.env.DCLEDGER_ARCHIVE_DIR;
      restoreEnv?.();
      await replay?.close();
      await store?.dispose();
    });

    const filing = () =>
      store.db
        .selectFrom('filings')
        .select(['id', 'parse_status', 'parse_reason', 'trade_count'])
        .where('source_doc_id', '=', '8220747')
        .executeTakeFirstOrThrow();

    it('keeps the row waiting, and the filing says its names met no issuers', async () => {
      const read = await filing();
      expect(read).toMatchObject({ parse_status: 'needs_review', trade_count: 0 });
      expect(read.parse_reason).toContain(WITHOUT_ISSUERS);
      const items = await reviewItemsOfFiling(store.db, read.id);
      expect(items.map((item) => item.status)).toEqual(['pending']);
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
      expect((await reviewItemsOfFiling(store.db, read.id)).map((item) => item.status)).toEqual(['pending']);
      // Read again still without companies: the filing still says so, for the run after the import.
      expect((await filing()).parse_reason).toContain(WITHOUT_ISSUERS);
    }, 300_000);

    it('accepts the row once read again with the companies, as a trade announced by trade.created', async () => {
      const imported = await cli(
        'companies',
        'import',
        join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'),
      );
      expect(imported.code).toBe(0);
      // The import says what waits, and how to read it again.
      expect(imported.out).toContain('1 row(s) read from scans wait for review: `dcledger review reread`');
      const again = await cli('review', 'reread', '--by', 'ops');
      expect(again.code).toBe(0);
      expect(again.out).toContain('1 accepted, 0 still waiting');

      const read = await filing();
      expect(read).toMatchObject({ parse_status: 'parsed', trade_count: 1 });
      const [item] = await reviewItemsOfFiling(store.db, read.id);
      expect(item).toMatchObject({ status: 'accepted', decided_by: 'ops (scan read again)' });
      const trade = await store.db
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
      const [decision] = await reviewDecisionsOfFiling(store.db, read.id);
      expect(decision).toMatchObject({
        action: 'accept',
        decided_by: 'ops (scan read again)',
        trade_id: trade.id,
      });
      const events = await store.db
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
    let store: TestStore;
    let replay: ScanReplay;
    let restoreEnv: () => void;

    beforeAll(async () => {
      store = await openTestStore();
      ({ replay } = await ingestScan(store.db, dataDir ?? '', '8220747'));
      restoreEnv = pointCliAt(store.config);
    }, 300_000);
    afterAll(async () => {
      restoreEnv?.();
      await replay?.close();
      await store?.dispose();
    });

    it('accepts the waiting row after the companies import, once', async () => {
      const before = await store.db
        .selectFrom('filings')
        .select(['id', 'parse_status', 'parse_reason'])
        .where('source_doc_id', '=', '8220747')
        .executeTakeFirstOrThrow();
      expect(before.parse_status).toBe('needs_review');
      // No companies yet: a run reads nothing again.
      const idle = await runWithOcr(replay.runner, store.db, { sources: ['house'] });
      expect(idle.report.reread).toBeUndefined();
      expect(idle.pages).toEqual([]);

      const imported = await cli(
        'companies',
        'import',
        join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'),
      );
      expect(imported.code).toBe(0);
      // The next run lists nothing new, and reads the scan again with the companies, page by page.
      const { report, pages } = await runWithOcr(replay.runner, store.db, { sources: ['house'] });
      expect(report.sources[0]?.newFilings).toBe(0);
      expect(report.reread).toEqual({ filings: 1, accepted: 1, waiting: 0, unread: 0 });
      expect(pages).toEqual([
        [`filing ${before.id}`, 1, 2],
        [`filing ${before.id}`, 2, 2],
      ]);
      const after = await store.db
        .selectFrom('filings')
        .select(['parse_status', 'trade_count'])
        .where('id', '=', before.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ parse_status: 'parsed', trade_count: 1 });
      const [item] = await reviewItemsOfFiling(store.db, before.id);
      expect(item).toMatchObject({ status: 'accepted', decided_by: 'ingest (scan read again)' });
      const events = await store.db
        .selectFrom('events')
        .select('subject_key')
        .where('type', '=', 'trade.created')
        .execute();
      expect(events.map((event) => event.subject_key)).toContain(`trade:${item?.trade_id}`);

      // Read once: the run after reads nothing again.
      const next = await runWithOcr(replay.runner, store.db, { sources: ['house'] });
      expect(next.report.reread).toBeUndefined();
      expect(next.pages).toEqual([]);
    }, 300_000);
  },
);

describe.skipIf(!dataDir)(
  'a scan read without issuer names whose document left the archive (real 8220747)',
  () => {
    let store: TestStore;
    let replay: ScanReplay;
    let restoreEnv: () => void;

    beforeAll(async () => {
      store = await openTestStore();
      ({ replay } = await ingestScan(store.db, dataDir ?? '', '8220747'));
      restoreEnv = pointCliAt(store.config);
    }, 300_000);
    afterAll(async () => {
      restoreEnv?.();
      await replay?.close();
      await store?.dispose();
    });

    it('says on the filing why it was not read again, and no run tries it again', async () => {
      const filing = await store.db
        .selectFrom('filings')
        .select(['id', 'raw_sha256'])
        .where('source_doc_id', '=', '8220747')
        .executeTakeFirstOrThrow();
      const sha = filing.raw_sha256 ?? '';
      rmSync(join(replay.runner.archiveDir, sha.slice(0, 2), sha));
      expect(
        (
          await cli(
            'companies',
            'import',
            join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'),
          )
        ).code,
      ).toBe(0);
      const { report, pages } = await runWithOcr(replay.runner, store.db, { sources: ['house'] });
      expect(report.reread).toEqual({ filings: 1, accepted: 0, waiting: 0, unread: 1 });
      expect(pages).toEqual([]);
      const after = await store.db
        .selectFrom('filings')
        .select(['parse_status', 'parse_reason'])
        .where('id', '=', filing.id)
        .executeTakeFirstOrThrow();
      expect(after.parse_status).toBe('needs_review');
      expect(after.parse_reason).toBe(
        'scan not read again: the document is not in the archive; its rows wait for review as first read',
      );
      expect((await reviewItemsOfFiling(store.db, filing.id)).map((item) => item.status)).toEqual([
        'pending',
      ]);
      // Each such filing is tried once.
      expect(
        (await runWithOcr(replay.runner, store.db, { sources: ['house'] })).report.reread,
      ).toBeUndefined();
    }, 300_000);
  },
);
