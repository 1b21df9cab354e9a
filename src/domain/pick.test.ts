import { describe, expect, it } from 'vitest';
import { pick } from './pick.js';

describe('pick', () => {
  it('copies the named fields in the order named, nulls included, and nothing else', () => {
    const row = { id: 3, secret: 'whsec_x', name: null, ticker: 'NVDA' };
    const picked = pick(row, ['ticker', 'id', 'name']);
    expect(picked).toEqual({ ticker: 'NVDA', id: 3, name: null });
    expect(Object.keys(picked)).toEqual(['ticker', 'id', 'name']);
  });
});
