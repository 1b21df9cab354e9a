// `dcledger prices refresh` against the replay server on 127.0.0.1, in process, on the test
// database: the benchmark's recorded Stooq history arrives, the run is recorded, the enrichment job
// runs; without a provider it says what to set; with every provider down it exits 1.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { ReplayServer } from '../ingest/replay/server.js';
import { latestPriceRuns } from '../storage/repositories/price-refresh.js';
import { pointCliAt, runCli } from '../test-support/cli.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { startReplay } from '../test-support/replay.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('dcledger prices refresh', () => {
  let store: TestStore;
  let replay: ReplayServer;
  let restoreEnv: () => void = () => {};

  beforeAll(async () => {
    store = await openTestStore();
    restoreEnv = pointCliAt(store.config);
    replay = await startReplay(dataDir ?? '');
    replay.prices.until = '2024-06-21';
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    restoreEnv();
    await replay?.close();
    await store?.dispose();
  });

  it('says which setting turns a provider on when none is', async () => {
    vi.stubEnv('DCLEDGER_PRICE_BASE_URL', '');
    vi.stubEnv('DCLEDGER_TIINGO_API_KEY', '');
    const { code, err } = await runCli('prices', 'refresh');
    expect(code).toBe(1);
    expect(err).toMatch(/DCLEDGER_PRICE_BASE_URL.*DCLEDGER_TIINGO_API_KEY/);
  });

  it('fetches the benchmark, records the run and runs the enrichment job', async () => {
    vi.stubEnv('DCLEDGER_PRICE_BASE_URL', replay.url);
    vi.stubEnv('DCLEDGER_PRICE_INTERVAL_MS', '0');
    const { code, out } = await runCli('prices', 'refresh');
    expect(code).toBe(0);
    expect(out).toMatch(
      /^price refresh \(run \d+\) as of \d{4}-\d{2}-\d{2}: 1 symbols looked after, 1 asked/m,
    );
    expect(out).toMatch(/^new closes: 1 symbols, 4862 bars;/m);
    expect(out).toMatch(/^ {2}stooq: asked 1, answered 1, 0 not found, 0 failed$/m);
    expect(out).toMatch(/^newest close: 2024-06-21 \(completed\)$/m);
    expect(out).toMatch(/^incremental enrichment as of/m);
    const [run] = await latestPriceRuns(store.db, 1);
    expect(run).toMatchObject({
      requested_by: 'cli',
      status: 'completed',
      newest_close: '2024-06-21',
      bars_added: 4862,
    });
  });

  it('exits 1 when every provider fails, keeping the stored closes', async () => {
    replay.failNext('/q/d/l/', 100, 503);
    vi.stubEnv('DCLEDGER_PRICE_BASE_URL', replay.url);
    vi.stubEnv('DCLEDGER_PRICE_RETRIES', '0');
    const { code, out, err } = await runCli('prices', 'refresh', '--no-enrich');
    expect(code).toBe(1);
    expect(out).toMatch(/stooq: asked 1, answered 0, 0 not found, 1 failed; last error: .*HTTP 503/);
    expect(out).toMatch(/^newest close: 2024-06-21 \(failed\)$/m);
    expect(err).toMatch(/every price provider failed: the cached closes are served/);
  });
});
