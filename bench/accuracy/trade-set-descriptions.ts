// The asset descriptions of the shared trade sets, as the benches give them to the scan readers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tradeSetFiles } from '../../src/ingest/trade-sets/import.js';
import { readTradeSet } from '../../src/ingest/trade-sets/read.js';
import { REAL_TRADE_SETS } from '../../src/test-support/real-data.js';

/**
 * The asset descriptions the shared trade sets give (what `dcledger import` stores and ingest's
 * reader is given from `ticker_trade_descriptions`). None of the scanned filings is among them.
 */
export function tradeSetDescriptions(dataDir: string): string[] {
  const descriptions = new Set<string>();
  for (const set of REAL_TRADE_SETS)
    for (const file of tradeSetFiles(join(dataDir, set)))
      for (const row of readTradeSet(file, readFileSync(file, 'utf8')).rows)
        if (row.assetDescription) descriptions.add(row.assetDescription.trim());
  return [...descriptions];
}
