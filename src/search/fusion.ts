// Reciprocal rank fusion of the ranked lists semantic search reads (full text, vectors, and the
// concept, misspelled-name and trades lists of the question's entities), and the sentence that
// says why a result matched. Pure: the engine (semantic.ts) gathers the lists, this ranks them.

/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009): 1 / (60 + rank). */
export const RRF_K = 60;

export interface ScoreParts {
  lexical: { rank: number; score: number } | null;
  vector: { rank: number; similarity: number } | null;
  /** Rank among the companies of the question's concepts (most traded by members first). */
  concept?: { rank: number } | null;
  /** Rank among the names the question misspells, and the edits it took. */
  fuzzy?: { rank: number; edits: number } | null;
  /** Rank among the members whose trades fit the question's period, chamber, direction and stocks. */
  trades?: { rank: number; trade_count: number } | null;
  fused: number;
}

/**
 * Fusion constants of the two entity lists: each counts as much as a retriever. A misspelled name is
 * only looked for with the question's words the full-text index does not hold (understandQuestion()), so
 * it never competes with an exact match of the same word, and the names the question spells
 * exactly come first in that list.
 */
export const CONCEPT_K = RRF_K;
export const FUZZY_K = RRF_K;
export const TRADES_K = RRF_K;

export interface Ranked {
  id: number;
  parts: ScoreParts;
}

/** Weights of the lists in the fusion (reciprocal rank fusion, each list's term times its weight). */
export interface FusionWeights {
  /** The vector list for a document another list also found. */
  vector: number;
  /** The vector list for a document no other list found. */
  vectorAlone: number;
}

/** Plain reciprocal rank fusion: every list counts the same (vector mode, and an embeddings provider's vectors). */
export const EQUAL_WEIGHTS: FusionWeights = { vector: 1, vectorAlone: 1 };

/**
 * The built-in LSA model's vectors in hybrid mode: they break ties among what the full-text and
 * entity lists found, and a document only they find enters low. LSA is built from this database's
 * own words, so it mostly restates the full-text match with more noise; at equal weight its
 * neighbours pushed exact role, name and product matches out of the top ten (BENCHMARKS.md,
 * labelled set, dev split).
 */
export const LSA_WEIGHTS: FusionWeights = { vector: 0.1, vectorAlone: 0.05 };

/**
 * Reciprocal rank fusion of ranked id lists: score = Σ weight/(k + rank), rank from 1. Pure; ties by
 * the better single rank, then id.
 */
export function fuseRankings(
  lexical: readonly { id: number; score: number }[],
  vector: readonly { id: number; similarity: number }[],
  k: number = RRF_K,
  entities: {
    concept?: readonly { id: number }[];
    fuzzy?: readonly { id: number; edits: number }[];
    trades?: readonly { id: number; trade_count: number }[];
  } = {},
  weights: FusionWeights = EQUAL_WEIGHTS,
): Ranked[] {
  // Each id once, with its better single rank (for the ties).
  const byId = new Map<number, { id: number; parts: ScoreParts; best: number }>();
  const join = (id: number, rank: number, term: number, apply: (parts: ScoreParts) => void) => {
    const known = byId.get(id);
    const entry = known ?? { id, parts: { lexical: null, vector: null, fused: 0 }, best: rank };
    apply(entry.parts);
    entry.parts.fused += term;
    entry.best = Math.min(entry.best, rank);
    if (!known) byId.set(id, entry);
  };
  lexical.forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (k + i + 1), (parts) => {
      parts.lexical = { rank: i + 1, score: hit.score };
    });
  });
  (entities.concept ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (CONCEPT_K + i + 1), (parts) => {
      parts.concept = { rank: i + 1 };
    });
  });
  (entities.fuzzy ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (FUZZY_K + i + 1), (parts) => {
      parts.fuzzy = { rank: i + 1, edits: hit.edits };
    });
  });
  (entities.trades ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (TRADES_K + i + 1), (parts) => {
      parts.trades = { rank: i + 1, trade_count: hit.trade_count };
    });
  });
  // The vector list last: its weight depends on whether another list found the document.
  vector.forEach((hit, i) => {
    const weight = byId.has(hit.id) ? weights.vector : weights.vectorAlone;
    if (weight <= 0) return;
    join(hit.id, i + 1, weight / (k + i + 1), (parts) => {
      parts.vector = { rank: i + 1, similarity: reportedSimilarity(hit.similarity) };
    });
  });
  return [...byId.values()]
    .sort((a, b) => b.parts.fused - a.parts.fused || a.best - b.best || a.id - b.id)
    .map(({ id, parts }) => ({ id, parts }));
}

/**
 * The similarity a result reports, to six decimals: each vector index computes it in its own
 * precision (float32 in memory, the database's own through sqlite-vec or a scan of stored rows),
 * and the same question must answer the same whichever index answered it (the in-memory one takes
 * over once loaded). Ranks come from the order of the hits, not from this figure.
 */
function reportedSimilarity(similarity: number): number {
  return Math.round(similarity * 1e6) / 1e6;
}

/** Why a result matched, in a sentence. Pure. */
export function explainMatch(parts: ScoreParts, matched: readonly string[]): string {
  const reasons: string[] = [];
  if (parts.lexical) {
    reasons.push(
      matched.length > 0
        ? `full-text rank ${parts.lexical.rank}: contains ${matched.map((term) => `"${term}"`).join(', ')}`
        : `full-text rank ${parts.lexical.rank}`,
    );
  }
  if (parts.vector) {
    reasons.push(
      `embedding rank ${parts.vector.rank}: cosine similarity ${parts.vector.similarity.toFixed(3)}`,
    );
  }
  if (parts.concept)
    reasons.push(`rank ${parts.concept.rank} among the companies of the concept asked about`);
  if (parts.fuzzy) reasons.push(`name close to a word of the question (${parts.fuzzy.edits} letters apart)`);
  if (parts.trades)
    reasons.push(
      `rank ${parts.trades.rank} among the members by trades of the period, chamber and direction asked about (${parts.trades.trade_count})`,
    );
  return reasons.join('; ');
}
