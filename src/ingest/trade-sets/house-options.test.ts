// House option trades in the real House Stock Watcher export: the terms are only in the asset name
// ("Call options Strike $60, expiry 02/18/22"), and every row naming a call or put option gets them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseAssetDescription } from '../../domain/asset.js';
import { FIXTURE_NOW } from '../../test-support/real-data.js';
import { normalizeRow } from './normalize-row.js';
import { readTradeSet } from './read.js';

const dataDir = inject('dataDir');
const HOUSE_EXPORT = 'congress/trades-house/hsw-export-ambika-nair/unclean_transactions_25_april.csv';

describe('option terms written into House asset names', () => {
  it.each([
    ['Microsoft Corporation - Call Option Strike $160 - expiry 9/16/2022', 'Call', 160, '2022-09-16'],
    [
      'Zillow Group Inc -  Class C Capital Stock  - Call options Strike $60, expiry 02/18/22',
      'Call',
      60,
      '2022-02-18',
    ],
    ['Microsoft Corporation - Call Options $145 strike Expire 09/16/2022', 'Call', 145, '2022-09-16'],
    ['Apple Inc. - Call option, strike of $160 expires 9/16/2022', 'Call', 160, '2022-09-16'],
    ['SPDR S&P 500 - Put options Strike $380.50, expiry 12/16/22', 'Put', 380.5, '2022-12-16'],
    // An exercise keeps the terms of the options exercised (docs/data-quality.md).
    ['Tesla Inc - Exercised 25 Call options 2.5K shares expiring 3/18/22 @ $500', 'Call', 500, '2022-03-18'],
  ])('reads %s', (name, optionType, strikePrice, optionExpiry) => {
    expect(parseAssetDescription(name)).toMatchObject({ optionType, strikePrice, optionExpiry });
  });

  it.each(['Option Care Health, Inc. - Common Stock', 'Apple Inc. - Common Stock'])(
    'leaves %s without option terms (a company name, a stock)',
    (name) => {
      expect(parseAssetDescription(name)).toMatchObject({
        optionType: null,
        strikePrice: null,
        optionExpiry: null,
      });
    },
  );
});

describe.skipIf(!dataDir)('the real House export', () => {
  it('gives every held call or put option row its type, and a strike and expiry wherever the name states them', () => {
    const text = readFileSync(join(dataDir ?? '', HOUSE_EXPORT), 'utf8');
    const set = readTradeSet('unclean_transactions_25_april.csv', text);
    const today = FIXTURE_NOW.toISOString().slice(0, 10);
    const optionRows = set.rows.filter(
      (row) =>
        /\b(call|put)s?\b[\s,-]*options?/i.test(row.assetDescription ?? '') &&
        !/exc?ercis/i.test(row.assetDescription ?? ''),
    );
    expect(optionRows.length).toBeGreaterThan(40);
    const trades = optionRows.flatMap((row) => {
      const outcome = normalizeRow(row, today);
      return outcome.kind === 'trade' ? [outcome.trade] : [];
    });
    expect(trades.length).toBe(optionRows.length);
    for (const trade of trades) {
      expect(trade.optionType, trade.assetDescription).toMatch(/^(Call|Put)$/);
      expect(trade.assetType).toBe('Option');
    }
    // Some names state no terms ("SPDR Dow Jones Industrial Average ETF / Call Option"); every
    // one that states a strike or a whole expiry date has it read.
    for (const trade of trades) {
      const name = trade.assetDescription;
      if (/strike|\$[\d,.]+\s+(call|put)/i.test(name)) expect(trade.strikePrice, name).toBeGreaterThan(0);
      const statesDate = /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b[a-z]{3,9}\.? \d{1,2},? ?\d{4}\b/i.test(name);
      if (statesDate) expect(trade.optionExpiry, name).toMatch(/^20\d\d-\d\d-\d\d$/);
    }
    expect(trades.filter((trade) => trade.strikePrice !== null).length).toBeGreaterThan(50);
    const gottheimer = trades.find((trade) =>
      trade.assetDescription.includes('Call Option Strike $160 - expiry 9/16/2022'),
    );
    expect(gottheimer).toMatchObject({
      ticker: 'MSFT',
      optionType: 'Call',
      strikePrice: 160,
      optionExpiry: '2022-09-16',
    });
  });
});
