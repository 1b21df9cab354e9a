// Which rows of two descriptions of a report are the same transaction: a data set's row and the
// official parse's row (twins), or a report's row and its amendment's row (supersession). Pure.

/** What a row is compared on. */
export interface ComparableTrade {
  ticker: string;
  assetDescription: string | null;
  transactionDate: string;
  owner: string | null;
  action: string;
  amountLow: number | null;
}

/** The five things two rows can agree on: asset, transaction date, owner, action, bracket. */
export const FIELDS_COMPARED = 5;

/**
 * How many of the five fields agree. The asset agrees on the ticker when both rows have one, else
 * on the start of the description; an owner agrees when equal or when one side does not say (the
 * House Stock Watcher exports dropped the owner column).
 */
export function agreement(a: ComparableTrade, b: ComparableTrade): number {
  let score = 0;
  if (sameAsset(a, b)) score += 1;
  if (a.transactionDate === b.transactionDate) score += 1;
  if (a.owner === null || b.owner === null || a.owner === b.owner) score += 1;
  if (a.action === b.action) score += 1;
  if (a.amountLow === b.amountLow) score += 1;
  return score;
}

function sameAsset(a: ComparableTrade, b: ComparableTrade): boolean {
  if (a.ticker !== 'N/A' && b.ticker !== 'N/A') return a.ticker === b.ticker;
  const left = assetWords(a.assetDescription);
  const right = assetWords(b.assetDescription);
  return left !== '' && left === right;
}

/** The first three words of a description, lower-cased, without punctuation. */
function assetWords(description: string | null): string {
  return (description ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .join(' ');
}

export interface Pair {
  /** Index into the first list. */
  left: number;
  /** Index into the second list. */
  right: number;
  score: number;
}

/**
 * Pairs rows of two lists one-to-one, best agreement first (ties in list order), keeping pairs
 * that agree on at least `minimum` fields. Exact matches therefore pair before near ones, so two
 * similar trades of one report each find their own counterpart.
 */
export function pairRows(
  left: readonly ComparableTrade[],
  right: readonly ComparableTrade[],
  minimum: number,
): Pair[] {
  const candidates: Pair[] = [];
  left.forEach((a, i) => {
    right.forEach((b, j) => {
      const score = agreement(a, b);
      if (score >= minimum) candidates.push({ left: i, right: j, score });
    });
  });
  candidates.sort((x, y) => y.score - x.score || x.left - y.left || x.right - y.right);
  const usedLeft = new Set<number>();
  const usedRight = new Set<number>();
  const pairs: Pair[] = [];
  for (const candidate of candidates) {
    if (usedLeft.has(candidate.left) || usedRight.has(candidate.right)) continue;
    usedLeft.add(candidate.left);
    usedRight.add(candidate.right);
    pairs.push(candidate);
  }
  return pairs.sort((x, y) => x.left - y.left);
}
