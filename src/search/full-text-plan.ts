// Which of a question's words make the full-text match set and which only rank it, by how many
// documents hold each. Pure: semantic.ts counts the words, storage runs the query this plans.
import type { FullTextQuery } from '../storage/repositories/search-index.js';

/** The most full-text matches ranked for one question (the first by id past it are not scored). */
export const MATCH_CAP = 5_000;

/**
 * The full-text query for a question's words given how many documents hold each: the rare words
 * make the match set, every known word ranks it; with no rare word, documents must hold them all.
 * Pure.
 */
export function planFullText(
  words: readonly string[],
  documentCounts: ReadonlyMap<string, number>,
  commonAbove: number,
  cap: number = MATCH_CAP,
  weightlessFrom: number = Number.POSITIVE_INFINITY,
  documents?: number,
): FullTextQuery {
  const count = (word: string) => documentCounts.get(word) ?? 0;
  const known = words.filter((word) => count(word) > 0);
  const rare = known.filter((word) => count(word) <= commonAbove);
  const weightless = known.filter((word) => count(word) >= weightlessFrom);
  const plan = { anyOf: rare, allOf: rare.length > 0 ? [] : known, rankBy: known, weightless, cap };
  if (documents === undefined) return plan;
  // bm25's idf in the form that stays positive (a word in most documents still weighs a little);
  // counts read no further than a cap make common words weigh no less than they should.
  const weights = known.map((word) => {
    const n = Math.min(count(word), documents);
    return Math.log(1 + (documents - n + 0.5) / (n + 0.5));
  });
  return { ...plan, weights };
}
