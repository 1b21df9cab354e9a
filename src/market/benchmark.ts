// The S&P 500 benchmark every alpha is measured against.

/**
 * SPY. Its total-return adjusted closes (dividends reinvested: what holding the index earned)
 * come first: the wide adjusted-close file (yfinance via PyPortfolioOpt) has the highest priority
 * wherever it covers a date, because Stooq's SPY misses part of the dividend adjustment (its 2023
 * return is 24.8% against 26.7% total return) and carries bad prints (2015-03-12/13).
 */
export const BENCHMARK_SYMBOL = 'SPY';
