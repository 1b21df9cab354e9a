// The overlap flag on real data: every recorded SEC document stored into the real-data fixture
// (real members' trades); each insider line's overlapping trades must be exactly the member trades
// GET /tickers/{ticker}/trades lists for its ticker within ±30 days, computed here independently.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../domain/dates.js';
import { type FixtureApp, getJson, openFixtureApp } from '../../test-support/app.js';
import { loadSecReplayCatalog } from '../sources/sec/replay.js';
import { storeSecDocument } from '../sources/sec/store.js';

const dataDir = inject('dataDir');

interface InsiderRow {
  id: number;
  ticker: string | null;
  transaction_date: string | null;
  has_politician_overlap: boolean;
  politician_trades: { id: number }[];
}

describe.skipIf(!dataDir)('members-trade overlap on real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    for (const entry of loadSecReplayCatalog(dataDir ?? '')) {
      await storeSecDocument(
        ctx.store.db,
        {
          accession_number: entry.accession_number,
          form: entry.form,
          filed_date: entry.filed_date,
          url: null,
          content_hash: null,
          text: readFileSync(entry.file, 'utf8'),
        },
        ctx.clock.now,
      );
    }
  });
  afterAll(async () => ctx?.close());

  it('matches an independent ±30-day join against /tickers/{ticker}/trades for every line', async () => {
    const lines = await getJson<InsiderRow[]>(ctx, '/insiders/trades?limit=500', { 'dc-api-key': ctx.key });
    expect(lines.status).toBe(200);
    expect(lines.body.length).toBeGreaterThan(50);
    let flagged = 0;
    for (const line of lines.body) {
      if (!line.ticker || !line.transaction_date) {
        expect(line.has_politician_overlap).toBe(false);
        continue;
      }
      const from = addDays(line.transaction_date, -30);
      const to = addDays(line.transaction_date, 30);
      const member = await getJson<{ id: number; transaction_date: string; superseded_by: number | null }[]>(
        ctx,
        `/tickers/${encodeURIComponent(line.ticker)}/trades?limit=1000`,
        { 'dc-api-key': ctx.key },
      );
      const expected =
        member.status === 200
          ? member.body
              .filter((trade) => trade.transaction_date >= from && trade.transaction_date <= to)
              .map((trade) => trade.id)
              .sort((a, b) => a - b)
          : [];
      expect(
        line.politician_trades.map((trade) => trade.id).sort((a, b) => a - b),
        `${line.ticker} ${line.transaction_date}`,
      ).toEqual(expected);
      expect(line.has_politician_overlap).toBe(expected.length > 0);
      if (expected.length > 0) flagged += 1;
    }
    // Reported, not asserted: how many real insider lines a member traded around. With the shared
    // data of 2026-11 it is 0 — the fixture's member trades fall outside ±30 days of every recorded
    // SEC document — so the flag's positive cases rest on the built scenario in store.test.ts.
    console.info(
      `[overlap-real] ${flagged} of ${lines.body.length} real insider lines overlap members' trades`,
    );
  });
});
