// The company dossiers built many at a time (one query per section for the whole batch, what the
// stored dossiers' rebuild runs) are exactly the dossiers built one at a time (what a request for
// a ticker without a stored answer runs), on the real data and on whichever database the suite
// runs on: popular tickers with thousands of trades, tickers with lobbying, contracts, PAC money and
// SEC filings, directory companies nobody traded, and a ticker no record names.

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedTickers } from '../storage/repositories/analytics-links.js';
import { tradedTickers } from '../storage/repositories/stored-dossiers.js';
import type { Database } from '../storage/schema.js';
import { type FixtureApp, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { buildCompanyDossier, buildCompanyDossiers, sharedDossierReads } from './company-dossier.js';

const POPULAR = ['AAPL', 'NVDA', 'MSFT', 'LMT', 'KO', 'XOM', 'BA', 'GOOGL', 'GOOG', 'AMZN'];

describe.skipIf(!realDataAvailable())('company dossiers built in batches', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;
  let sample: string[];

  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    const traded = await tradedTickers(db);
    const tradedSet = new Set(traded);
    const linked = await linkedTickers(db);
    const untraded = await db
      .selectFrom('companies')
      .select('ticker')
      .orderBy('ticker')
      .execute()
      .then((rows) => rows.map((row) => row.ticker).filter((ticker) => !tradedSet.has(ticker)));
    const sec = await db
      .selectFrom('insider_trades')
      .select('ticker')
      .distinct()
      .where('ticker', 'is not', null)
      .orderBy('ticker')
      .execute();
    expect(traded.length).toBeGreaterThan(1000);
    expect(untraded.length).toBeGreaterThan(0);
    sample = [
      ...new Set([
        ...POPULAR,
        ...traded.filter((_, index) => index % 9 === 0),
        ...linked.filter((_, index) => index % 5 === 0),
        ...sec.flatMap((row) => (row.ticker ? [row.ticker] : [])).slice(0, 20),
        ...untraded.slice(0, 5),
        'ZZZZQ',
      ]),
    ];
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('equals the single builds, byte for byte, for every ticker of the batch', async () => {
    expect(sample.length).toBeGreaterThan(300);
    const reads = sharedDossierReads();
    // Two batches sharing the committee reads, as the rebuild does.
    const half = Math.floor(sample.length / 2);
    const batched = [
      ...(await buildCompanyDossiers(db, sample.slice(0, half), reads)),
      ...(await buildCompanyDossiers(db, sample.slice(half), reads)),
    ];
    expect(batched.map((dossier) => dossier.ticker)).toEqual(sample);
    let withTrades = 0;
    let withManyTrades = 0;
    let empty = 0;
    for (const [index, ticker] of sample.entries()) {
      const single = await buildCompanyDossier(db, ticker);
      expect(JSON.stringify(batched[index]), ticker).toBe(JSON.stringify(single));
      if (single.member_trades.trade_count > 0) withTrades++;
      if (single.member_trades.trade_count > 25) withManyTrades++;
      if (single.member_trades.trade_count === 0 && single.lobbying.filing_count === 0) empty++;
    }
    expect(withTrades).toBeGreaterThan(300);
    expect(withManyTrades).toBeGreaterThan(5);
    expect(empty).toBeGreaterThan(0);
  }, 600_000);

  it('builds nothing for no tickers', async () => {
    expect(await buildCompanyDossiers(db, [])).toEqual([]);
  });
});
