// What a price series' `close` is, and the order a reader prefers series in when several cover a
// day: the least adjusted first, so a price is the one the market traded at where a source has it.
/** What `close` means in a source: the traded price, split-adjusted, or fully adjusted. */
export type CloseBasis = 'raw' | 'split-adjusted' | 'adjusted' | 'none';

export const CLOSE_BASIS_ORDER: Readonly<Record<CloseBasis, number>> = {
  raw: 0,
  'split-adjusted': 1,
  adjusted: 2,
  none: 3,
};
