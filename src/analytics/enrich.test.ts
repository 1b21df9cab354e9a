// Incremental enrichment on a copy of the real-data fixture (enriched at FIXTURE_NOW).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../domain/dates.js';
import { importPrices } from '../market/import-prices.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { enrich } from './enrich.js';

const fixture = inject('fixture');
const dataDir = inject('dataDir') ?? '';
const later = (days: number) => new Date(FIXTURE_NOW.getTime() + days * 86_400_000);

describe.skipIf(fixture === null)('incremental enrichment', () => {
  let store: TestStore;
  let scratch: string;
  beforeAll(async () => {
    store = await openTestStore(fixture ?? undefined);
    scratch = mkdtempSync(join(tmpdir(), 'dcledger-enrich-'));
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  const count = async (where: (q: ReturnType<typeof base>) => ReturnType<typeof base>) =>
    Number(
      (
        await where(base())
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const base = () => store.db.selectFrom('trades').where('superseded_by', 'is', null);

  it('does nothing when nothing changed', async () => {
    const report = await enrich(store.db, { now: later(0.01) });
    expect(report.trades.computed).toBe(0);
    expect(report.members.refreshed).toBe(0);
  });

  it('re-importing the same prices changes nothing and redoes nothing', async () => {
    const imported = await importPrices(
      store.db,
      join(dataDir, 'market/prices/stooq_nasdaq_2012_2024/aapl.us.txt'),
      {
        now: later(0.02),
      },
    );
    expect(imported).toMatchObject({ added: 0, changed: 0, actionsAdded: 0 });
    expect((await enrich(store.db, { now: later(0.03) })).trades.computed).toBe(0);
  });

  it('a new day of prices redoes only the trades of that symbol still waiting for prices', async () => {
    // The recorded Stooq AAPL file plus one more day after its last (2024-10-29).
    const recorded = readFileSync(
      join(dataDir, 'market/prices/stooq_nasdaq_2012_2024/aapl.us.txt'),
      'utf8',
    ).trimEnd();
    const file = join(scratch, 'aapl.us.txt');
    writeFileSync(file, `${recorded}\nAAPL.US,D,20241030,000000,232.61,233.47,229.55,230.1,47070907,0\n`);
    const waiting = await count((q) =>
      q.where('market_symbol', '=', 'AAPL').where('awaiting_prices', '=', 1),
    );
    const imported = await importPrices(store.db, file, { now: later(0.04) });
    expect(imported.added).toBe(1);
    // Same day as the last run: no window closes on the clock alone.
    const report = await enrich(store.db, { now: later(0.05) });
    expect(waiting).toBeGreaterThan(0);
    expect(report.trades.computed).toBe(waiting);
    const redone = await count((q) => q.where('enriched_at', '=', later(0.05).toISOString()));
    expect(redone).toBe(waiting);
  });

  it('the clock alone closes windows: trades due by the new day are redone', async () => {
    const today = later(400).toISOString().slice(0, 10);
    const due = await count((q) => q.where('enrich_due', '<=', today));
    const report = await enrich(store.db, { now: later(400) });
    expect(report.trades.computed).toBe(due);
    // A window that closed on the clock alone stays null without prices for its end.
    expect(await count((q) => q.where('enrich_due', '<=', today))).toBe(0);
  });

  it('--all recomputes every trade and member; windows close relative to the injected clock', async () => {
    const total = await count((q) => q);
    const report = await enrich(store.db, { all: true, now: new Date('2020-09-01T12:00:00Z') });
    expect(report.today).toBe('2020-09-01');
    expect(report.trades.computed).toBe(total);
    expect(report.members.refreshed).toBeGreaterThan(100);
    // No 30-day window of a trade made less than 30 days before the clock has closed.
    const closedEarly = await count((q) =>
      q.where('gain_30d', 'is not', null).where('transaction_date', '>=', addDays('2020-09-01', -30)),
    );
    expect(closedEarly).toBe(0);
    expect(await count((q) => q.where('gain_30d', 'is not', null))).toBeGreaterThan(1000);
    // Trades of the two years before the clock have a current return (prices reach 2020-08-31).
    expect(await count((q) => q.where('current_return', 'is not', null))).toBeGreaterThan(0);
    expect(
      await count((q) =>
        q.where('current_return', 'is not', null).where('transaction_date', '<', addDays('2020-09-01', -730)),
      ),
    ).toBe(0);
    // Recomputes every trade of the real data: minutes on a loaded two-core machine.
  }, 240_000);
});
