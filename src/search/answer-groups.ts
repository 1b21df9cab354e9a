// How the fused hits of a question become its answers: a trade answers as its member or its
// company, with the best matching trades shown inside as evidence; every other record answers as
// itself. semantic.ts fuses the rankings and writes the answer; this groups and reads the documents.
import type { Kysely } from 'kysely';
import {
  type SearchKind,
  searchDocumentHeads,
  searchDocumentIdsByKeys,
  searchDocumentsByIds,
} from '../storage/repositories/search-index.js';
import type { Database } from '../storage/schema.js';
import type { Ranked, ScoreParts } from './fusion.js';

/** Fused hits read at a time to form the groups of an answer. */
const GROUP_DEPTH = 100;
/** Matching trades shown inside a result. */
const EVIDENCE_SHOWN = 5;
/** What each doubling of a group's matching trades adds to its fused score (about one rank near the top). */
const TRADES_WEIGHT = 0.0003;

/** The reference fields a result carries, by kind (stored with the document). */
export interface SearchRefs {
  politician_id?: number;
  slug?: string;
  ticker?: string;
  /**
   * A trade filed under a renamed company's former symbol: the symbol the company trades under now
   * (FB-filed: META), whose result the trade joins. Kept with the document, not served.
   */
  company?: string;
  trade_id?: number;
  bill_id?: string;
  filing_id?: number;
  insider_trade_id?: number;
  whale_position_id?: number;
  lobbying_filing_id?: number;
  contract_award_id?: number;
}

/**
 * Groups the fused hits by the entity that answers them, best first: a trade joins its member
 * (when the question asks for people, or the trade has no stock) or its company; with neither
 * kind asked for, a member's trades in one stock are one result. Every other record is its own
 * result. `limit` groups are returned, each with its best matching trades as evidence.
 */
export async function groupHits(
  db: Kysely<Database>,
  fused: readonly Ranked[],
  kinds: readonly string[],
  limit: number,
  people: boolean,
) {
  const wantMembers = kinds.includes('politicians');
  const wantTickers = kinds.includes('tickers');
  const groups = new Map<
    string,
    { key: string; head?: number; parts: ScoreParts; evidence: number[]; count: number }
  >();
  let at = 0;
  const page = Math.max(GROUP_DEPTH, limit * 5);
  const gather = limit * 3;
  while (groups.size < gather && at < fused.length) {
    const slice = fused.slice(at, at + page);
    at += slice.length;
    const heads = new Map(
      (
        await searchDocumentHeads(
          db,
          slice.map((hit) => hit.id),
        )
      ).map((head) => [head.id, head]),
    );
    for (const hit of slice) {
      const head = heads.get(hit.id);
      // The names and concepts a question holds are read over every kind it was asked for; its
      // answer keeps the kinds it asks for (record-kinds.ts).
      if (!head || !kinds.includes(head.kind as SearchKind)) continue;
      let key = head.doc_key;
      const isTrade = head.kind === 'trades';
      if (isTrade) {
        const refs = JSON.parse(head.refs) as SearchRefs;
        const company = refs.company ?? refs.ticker;
        if (wantMembers && refs.slug && (people || !company || !wantTickers)) key = `politician:${refs.slug}`;
        else if (wantTickers && company) key = `ticker:${company}`;
        else key = `trades:${refs.slug ?? ''}:${company ?? ''}`;
      }
      const known = groups.get(key);
      if (!known && groups.size >= gather) continue;
      const group = known ?? { key, parts: hit.parts, evidence: [], count: 0 };
      if (isTrade) {
        group.count += 1;
        if (group.evidence.length < EVIDENCE_SHOWN) group.evidence.push(hit.id);
        if (key.startsWith('trades:') && group.head === undefined) group.head = hit.id;
      } else {
        group.head = hit.id;
        // The entity's own match counts when it is better than its trades'; its rank among the
        // members by trades of the period asked about is kept either way (it says why it answers).
        if (hit.parts.fused > group.parts.fused) group.parts = hit.parts;
        else if (hit.parts.trades) group.parts = { ...group.parts, trades: hit.parts.trades };
      }
      groups.set(key, group);
    }
  }
  // More matching trades make a member or a company a better answer, by a little: one more rank's
  // worth of fusion for each doubling.
  const rankOf = (group: { parts: ScoreParts; count: number }) =>
    group.parts.fused + TRADES_WEIGHT * Math.log2(1 + group.count);
  const chosen = [...groups.values()].sort((a, b) => rankOf(b) - rankOf(a)).slice(0, limit);
  // Entities answered only through their trades: their own documents, by key.
  const missing = chosen.filter((group) => group.head === undefined).map((group) => group.key);
  const byKey = new Map(
    (await searchDocumentIdsByKeys(db, missing)).map((row) => [row.doc_key, row.id] as const),
  );
  for (const group of chosen) group.head ??= byKey.get(group.key) ?? group.evidence[0];
  const ids = new Set<number>();
  for (const group of chosen) {
    if (group.head !== undefined) ids.add(group.head);
    for (const id of group.evidence) ids.add(id);
  }
  const documents = new Map((await searchDocumentsByIds(db, [...ids])).map((doc) => [doc.id, doc] as const));
  return chosen.flatMap((group) => {
    const document = group.head === undefined ? undefined : documents.get(group.head);
    if (!document) return [];
    const evidence = group.evidence
      .filter((id) => id !== group.head)
      .flatMap((id) => documents.get(id) ?? []);
    const evidenceCount = document.kind === 'trades' ? group.count - 1 : group.count;
    return [{ document, parts: group.parts, evidence, evidenceCount, rank: rankOf(group) }];
  });
}

/** The reference fields a result serves: the stored ones but the company a trade joins. */
export function servedRefs(refs: string): Omit<SearchRefs, 'company'> {
  const { company: _joined, ...served } = JSON.parse(refs) as SearchRefs;
  return served;
}
