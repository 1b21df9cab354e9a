import { defineConfig } from 'vitest/config';

// The unit tests of the pure rule modules StrykerJS mutates (`npm run mutate`, stryker.config.json),
// plus the filing-shaped property test of the row normalizer, which spells trade types and amounts.
// No global setup: no real-data fixture is built, tests that need ../shared/data skip, and each
// mutant run takes a second, not minutes.
export default defineConfig({
  test: {
    include: [
      'src/domain/amount.test.ts',
      'src/domain/trade-type.test.ts',
      'src/domain/party.test.ts',
      'src/domain/sectors.test.ts',
      'src/webhooks/verify.test.ts',
      'src/webhooks/verify-boundary.test.ts',
      'src/webhooks/verify-rules.test.ts',
      'src/webhooks/address-guard.test.ts',
      'src/market/windows.test.ts',
      'src/ingest/trade-sets/normalize-row.property.test.ts',
      'src/domain/dates.test.ts',
      'src/domain/ticker.test.ts',
      'src/domain/owner.test.ts',
      'src/domain/lookup.test.ts',
      'src/accounts/price-table.test.ts',
      // Its pinned table runs here; its per-row charges need the real-data app and skip.
      'src/accounts/price-table-pinned.test.ts',
      'src/domain/asset.test.ts',
      'src/domain/bill-topics.test.ts',
      'src/domain/committee-oversight.test.ts',
      'src/domain/committee-sectors.test.ts',
      'src/domain/lda.test.ts',
      'src/domain/market-fields.test.ts',
      'src/domain/names.test.ts',
      'src/domain/sorts.test.ts',
      'src/domain/sources.test.ts',
      'src/domain/symbols.test.ts',
    ],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
