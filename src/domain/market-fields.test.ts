// The market-derived fields of a trade (SPEC §3, docs/market-data.md): one list read by the
// enrichment job, the trades table and the Trade resource.
import { describe, expect, it } from 'vitest';
import { MARKET_FIELDS, noMarketFields } from './market-fields.js';

const SPEC_FIELDS = [
  'price_on_trade_date',
  'price_on_disclosure',
  'gain_7d',
  'gain_30d',
  'gain_60d',
  'gain_90d',
  'gain_1yr',
  'alpha_30d',
  'alpha_90d',
  'alpha_1yr',
  'public_gain_30d',
  'public_gain_90d',
  'public_gain_180d',
  'public_alpha_30d',
  'public_alpha_90d',
  'public_alpha_180d',
  'current_return',
  'current_alpha',
];

describe('market fields', () => {
  it('lists every market field of the Trade resource once', () => {
    expect([...MARKET_FIELDS].sort()).toEqual([...SPEC_FIELDS].sort());
    expect(new Set(MARKET_FIELDS).size).toBe(MARKET_FIELDS.length);
  });

  it('gives a trade without a priced symbol every field, each null', () => {
    const empty = noMarketFields();
    expect(Object.keys(empty).sort()).toEqual([...SPEC_FIELDS].sort());
    for (const field of SPEC_FIELDS) expect(empty).toHaveProperty(field, null);
  });

  it('gives a fresh object each time (a caller filling one does not fill the next)', () => {
    const first = noMarketFields();
    first.gain_30d = 0.1;
    expect(noMarketFields().gain_30d).toBeNull();
  });
});
