import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importTradeSets } from '../ingest/trade-sets/import.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { REAL_TRADE_SETS } from '../test-support/real-data.js';
import { nameKey } from './company-names.js';
import { loadDirectory } from './resolve-tickers.js';
import { resolveDescription, respellClassShare, type TickerDirectory } from './ticker-resolution.js';

describe('name keys', () => {
  it.each([
    ['PROCTER & GAMBLE Co', 'Procter & Gamble Company (The) Common Stock'],
    ['JPMORGAN CHASE & CO', 'JP Morgan Chase & Co. Common Stock'],
    ['E. I. du Pont de Nemours and Company', 'E I Dupont de Nemours'],
    ['WELLS FARGO & COMPANY/MN', 'Wells Fargo & Co'],
    ['Weight Watchers International, Inc.', 'Weight Watchers Intl Inc'],
  ])('%s and %s are one company', (a, b) => expect(nameKey(a)?.key).toBe(nameKey(b)?.key));

  it.each([
    ['Alphabet Inc. (Class A)', 'A'],
    ['Alphabet Inc. - Class C Capital Stock', 'C'],
    ['VISA INC - A', 'A'],
    ['Under Armour Inc Cl A', 'A'],
    ['Apple Inc.', null],
  ])('%s has share class %s', (name, shareClass) => expect(nameKey(name)?.shareClass).toBe(shareClass));

  it('respells class shares and nothing else', () => {
    expect(respellClassShare('BRK-B')).toBe('BRK.B');
    expect(respellClassShare('LGF/B')).toBe('LGF.B');
    expect(respellClassShare('BRK.B')).toBeNull();
    expect(respellClassShare('BTC-USD')).toBeNull();
    expect(respellClassShare('DD-PA')).toBeNull();
  });
});

// Asset descriptions as filed (each occurs in the trade sets), and what a person checking the
// company behind each found: the ticker, or why there is none to give.
const HAND_CHECKED: ReadonlyArray<[string, string | 'ambiguous' | 'unresolved' | 'not_equity']> = [
  ['BA-The Boeing Company', 'BA'],
  ['Baxter International (BAX)', 'BAX'],
  ['The Bank of NY Mellon Corp (BK)', 'BK'],
  ['TWTR-Twitter, Inc.', 'TWTR'],
  ['QCOM - Qualcomm Inc', 'QCOM'],
  ['PFE-Pfizer Inc.', 'PFE'],
  ['COP-ConocoPhillips', 'COP'],
  ['CVX (Chevron Corporation CMN)', 'CVX'],
  ['CBS Corp CMN Class B (CBS)', 'CBS'],
  ['Westlake Chemical Corp (WLK)', 'WLK'],
  ['BMY', 'BMY'],
  ['Pfizer Inc CMN', 'PFE'],
  ['Deere & Co CMN', 'DE'],
  ['Danaher Corp', 'DHR'],
  ['Corning Inc', 'GLW'],
  ['Oracle Corp', 'ORCL'],
  ['Procter & Gamble', 'PG'],
  ['Microsoft Corp CMN', 'MSFT'],
  ['Wal-Mart Stores, Inc.', 'WMT'],
  ['General Electric', 'GE'],
  ['Facebook, Inc.', 'FB'],
  ['VISA INC - A', 'V'],
  ['Seagate Technology', 'STX'],
  ['Paypal Holdings Inc', 'PYPL'],
  ['Analog Devices', 'ADI'],
  ['Zimmer Biomet Holdings', 'ZBH'],
  ['Ares Capital', 'ARCC'],
  ['Altria Group', 'MO'],
  ['Met Life Inc', 'MET'],
  ['Walt Disney Corp', 'DIS'],
  ['Hershey Co', 'HSY'],
  // Class C was UA.C in 2016 and is UA today (class A moved to UAA): the date decides, not the name.
  ['Under Armour Class C', 'ambiguous'],
  ['Lennar Corp', 'ambiguous'],
  ['Viacom Inc CMN', 'ambiguous'],
  // Health Care REIT renamed itself Welltower (HCN) and later took the ticker WELL.
  ['Welltower Inc', 'ambiguous'],
  // Delisted after its 2014 merger into KMI: no directory lists KMP.
  ['Kinder Morgan Energy Partners (KMP)', 'unresolved'],
  // Lower case could be a word; only capitals are read as a symbol.
  ['msft', 'unresolved'],
  ['US Treasury Note', 'not_equity'],
  ['JPM Contingent Autocall Applied Materials 10.85% due 6/11/2015', 'not_equity'],
];

function outcome(description: string, directory: TickerDirectory): string {
  const decision = resolveDescription(description, 'Stock', directory);
  return decision.status === 'resolved' ? decision.ticker : decision.status;
}

describe.skipIf(inject('fixture') === null)('ticker resolution on the real trade sets', () => {
  let store: TestStore;
  let directory: TickerDirectory;
  beforeAll(async () => {
    store = await openTestStore(inject('fixture') ?? undefined);
    directory = await loadDirectory(store.db);
  });
  afterAll(async () => store?.dispose());

  it('gets every hand-checked description right', async () => {
    const filed = await sql<{ description: string }>`
      select distinct asset_description as description from trades
      where coalesce(filed_ticker, ticker) = 'N/A'`.execute(store.db);
    const present = new Set(filed.rows.map((row) => row.description));
    for (const [description, expected] of HAND_CHECKED) {
      expect(present.has(description), description).toBe(true);
      expect(outcome(description, directory), description).toBe(expected);
    }
  });

  it('reports resolved, ambiguous and unresolved counts over every N/A trade', async () => {
    const rows = await sql<{ asset_description: string | null; asset_type: string | null }>`
      select asset_description, asset_type from trades where coalesce(filed_ticker, ticker) = 'N/A'`.execute(
      store.db,
    );
    const counts: Record<string, number> = {};
    for (const row of rows.rows) {
      const status = resolveDescription(row.asset_description, row.asset_type, directory).status;
      counts[status] = (counts[status] ?? 0) + 1;
    }
    console.log('[ticker resolution]', JSON.stringify(counts));
    expect(
      (counts.resolved ?? 0) + (counts.ambiguous ?? 0) + (counts.unresolved ?? 0) + (counts.not_equity ?? 0),
    ).toBe(rows.rows.length);
    expect(counts.resolved).toBeGreaterThan(400);
    expect(counts.ambiguous).toBeGreaterThan(0);
    // Most N/A rows are bonds, municipal securities and funds, which must never get a ticker.
    expect(counts.not_equity).toBeGreaterThan(counts.resolved ?? 0);
  });

  it('serves resolved tickers, keeps the filed one, and records how', async () => {
    const row = await store.db
      .selectFrom('trades as t')
      .innerJoin('ticker_resolutions as r', 'r.trade_id', 't.id')
      .select([
        't.ticker',
        't.filed_ticker',
        't.market_symbol',
        't.sector',
        'r.status',
        'r.method',
        'r.source',
      ])
      .where('t.asset_description', '=', 'BA-The Boeing Company')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      ticker: 'BA',
      filed_ticker: 'N/A',
      market_symbol: 'BA',
      sector: 'Industrials',
      status: 'resolved',
      method: 'symbol_prefix',
    });
    expect(row.source).toContain('sec');
    const respelled = await store.db
      .selectFrom('trades')
      .select(['ticker', 'filed_ticker'])
      .where('filed_ticker', '=', 'BRK-B')
      .execute();
    expect(respelled.length).toBeGreaterThan(0);
    for (const trade of respelled) expect(trade.ticker).toBe('BRK.B');
    // A filer's own ticker is never replaced by a resolution.
    const overwritten = await sql<{ n: number }>`
      select count(*) as n from trades t join ticker_resolutions r on r.trade_id = t.id
      where r.filed_ticker not in ('N/A') and r.status <> 'respelled'`.execute(store.db);
    expect(Number(overwritten.rows[0]?.n)).toBe(0);
  });

  it('re-importing the trade sets after resolution merges into the resolved trades (no duplicates)', async () => {
    const before = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const dataDir = inject('dataDir') ?? '';
    const house = REAL_TRADE_SETS.filter((set) => set.includes('trades-house'));
    for (const set of house) {
      const report = await importTradeSets(store.db, join(dataDir, set));
      expect(report.totals.imported).toBe(0);
    }
    const after = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
