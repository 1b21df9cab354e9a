// Who is right, for each disagreement found so far. Every entry was decided by reading the
// document itself (the PDF's text layer or the eFD page), not by majority.
import type { Disagreement } from './cross-check.js';

export interface Verdict {
  right: 'ours' | 'theirs' | 'both';
  why: string;
}

const VERDICTS: ReadonlyArray<{ match: Partial<Disagreement>; verdict: Verdict }> = [
  {
    match: { source: 'House Stock Watcher export', row: 8, field: 'trade_type', ours: 'Sell' },
    verdict: {
      right: 'ours',
      why: 'PTR 20018346 prints "S" (a full sale) for Grossmont CA Impt Sch on 02/16/2021; the export says sale_partial.',
    },
  },
  {
    match: { source: 'House Stock Watcher export', row: 11, field: 'trade_type', ours: 'Sell' },
    verdict: {
      right: 'ours',
      why: 'PTR 20018346 prints "S" for Rancho CA WTR FA DIST COMB UTIL on 02/16/2021; the export records a purchase.',
    },
  },
  {
    match: { source: 'House Stock Watcher export', row: 6, field: 'ticker', ours: 'N/A' },
    verdict: {
      right: 'both',
      why: 'PTR 20018539 names "Roblox Corporation [OT]" without a ticker, so the parse says N/A; the export added RBLX from the name. Resolving tickers the filer left out is the ticker-resolution step\'s job (SPEC §2), not the parser\'s.',
    },
  },
];

export function verdictFor(disagreement: Disagreement): Verdict | null {
  const found = VERDICTS.find(({ match }) =>
    Object.entries(match).every(([key, value]) => disagreement[key as keyof Disagreement] === value),
  );
  return found?.verdict ?? null;
}

/**
 * What keeps the cross-check from passing: disagreements nobody has judged yet (each needs a
 * verdict read from the document) and those judged against us.
 */
export function openDisagreements(disagreements: readonly Disagreement[]): {
  unjudged: Disagreement[];
  lost: Disagreement[];
} {
  const unjudged: Disagreement[] = [];
  const lost: Disagreement[] = [];
  for (const disagreement of disagreements) {
    const verdict = verdictFor(disagreement);
    if (verdict === null) unjudged.push(disagreement);
    else if (verdict.right === 'theirs') lost.push(disagreement);
  }
  return { unjudged, lost };
}
