import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../tools.js';
import { mentionedRows } from './chat.js';

function call(name: string, result: unknown, status = 200): ToolCall {
  return { name, arguments: {}, status, credits: 1, result };
}

describe('mentionedRows: the rows a model answer cites', () => {
  const trades = [
    { id: 90211, ticker: 'NVDA', type: 'purchase' },
    { id: 90212, ticker: 'NVDA', type: 'sale' },
    { id: 90213, ticker: 'AAPL', type: 'purchase' },
  ];

  it('cites a trade by its id, not every trade of a ticker the answer names', () => {
    const cited = mentionedRows([call('query_trades', { data: trades })], 'She bought NVDA [trade 90211].');
    expect(cited.map((citation) => citation.row.id)).toEqual([90211]);
  });

  it('cites a row without an id (a ranking entry) by its ticker', () => {
    const ranking = [
      { ticker: 'MSFT', trade_count: 40 },
      { ticker: 'BRK.B', trade_count: 12 },
      { ticker: 'BRKXB', trade_count: 1 },
    ];
    const cited = mentionedRows([call('top_tickers', { data: ranking })], 'MSFT leads; BRK.B follows.');
    expect(cited.map((citation) => citation.row.ticker)).toEqual(['MSFT', 'BRK.B']);
  });

  it("reaches rows nested inside an answer (a dossier's latest trades)", () => {
    const dossier = {
      company: { ticker: 'LMT', name: 'Lockheed Martin' },
      trades: { trade_count: 3, recent: trades },
    };
    const cited = mentionedRows(
      [call('company_dossier', dossier)],
      'Latest: [trade 90213] and [trade 90212].',
    );
    expect(cited.map((citation) => citation.row.id)).toEqual([90212, 90213]);
  });

  it('cites nothing from a refused call', () => {
    expect(mentionedRows([call('query_trades', { data: trades }, 422)], '[trade 90211]')).toEqual([]);
  });
});
