// The sort orders docs/api.md promises (GET /trades `sort_by`, GET /politicians `sort_by`): the
// query schemas validate against these lists, so a value dropped from one answers 422.
import { describe, expect, it } from 'vitest';
import { POLITICIAN_SORT_COLUMNS, STAT_SORT_COLUMNS, TRADE_SORT_COLUMNS } from './sorts.js';

describe('sort columns', () => {
  it('offers every trade order the API reference lists, and no other', () => {
    expect([...TRADE_SORT_COLUMNS].sort()).toEqual(
      [
        'disclosure_date',
        'transaction_date',
        'amount',
        'ticker',
        'politician_name',
        'days_to_disclose',
        'gain_30d',
        'gain_90d',
        'gain_1yr',
        'alpha_30d',
        'alpha_90d',
        'alpha_1yr',
        'conviction_score',
        'id',
        'updated_at',
      ].sort(),
    );
  });

  it('ranks members by their counts, name and dates and by every member statistic', () => {
    const statistics = [
      'win_rate',
      'avg_alpha_30d',
      'avg_alpha_90d',
      'sharpe_ratio',
      'portfolio_return',
      'cagr',
      'conflict_score',
      'holdings_count',
    ];
    expect([...STAT_SORT_COLUMNS].sort()).toEqual([...statistics].sort());
    expect([...POLITICIAN_SORT_COLUMNS].sort()).toEqual(
      ['trade_count', 'name', 'last_trade_date', 'total_volume_high', 'id', ...statistics].sort(),
    );
  });

  it('lists each column once', () => {
    for (const list of [TRADE_SORT_COLUMNS, POLITICIAN_SORT_COLUMNS, STAT_SORT_COLUMNS]) {
      expect(new Set(list).size).toBe(list.length);
    }
  });
});
