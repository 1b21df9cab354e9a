// A small in-memory BM25 index with query expansion: the ranking behind /v1/semantic-search.
// Pure: documents in, ranked ids out.

export interface IndexedDocument {
  id: string;
  /** Weighted fields: a term in a field of weight 3 counts three times. */
  fields: ReadonlyArray<{ text: string; weight: number }>;
}

const STOP_WORDS = new Set(
  'a an and are as at be by did do does for from has have how in into is it its me of on or over show that the their them these they this those to under was were what when where which who whom why will with about any all my our your'.split(
    ' ',
  ),
);

export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1 && !STOP_WORDS.has(token))
    .map(stem);
}

/** A light suffix stemmer: "options" and "option", "trading" and "trade" meet. */
export function stem(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (token.endsWith(suffix) && token.length - suffix.length >= 3)
      return token.slice(0, -suffix.length) + replacement;
  }
  return token;
}

export interface SearchHit {
  id: string;
  score: number;
  /** Query terms (after expansion) the document contains. */
  matched: string[];
}

export class Bm25Index {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private averageLength = 0;

  constructor(
    documents: Iterable<IndexedDocument>,
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    let total = 0;
    for (const document of documents) {
      const position = this.ids.length;
      this.ids.push(document.id);
      let length = 0;
      for (const field of document.fields) {
        for (const token of tokenize(field.text)) {
          const docs = this.postings.get(token) ?? new Map<number, number>();
          docs.set(position, (docs.get(position) ?? 0) + field.weight);
          this.postings.set(token, docs);
          length += field.weight;
        }
      }
      this.lengths.push(length);
      total += length;
    }
    this.averageLength = this.ids.length > 0 ? total / this.ids.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Query terms weigh 1; expansion terms weigh what the expansion says (less than the user's own words). */
  search(terms: ReadonlyMap<string, number>, limit: number): SearchHit[] {
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    const n = this.ids.length;
    for (const [term, weight] of terms) {
      const docs = this.postings.get(term);
      if (!docs) continue;
      const idf = Math.log(1 + (n - docs.size + 0.5) / (docs.size + 0.5));
      for (const [position, frequency] of docs) {
        const length = this.lengths[position] ?? 0;
        const tf =
          (frequency * (this.k1 + 1)) /
          (frequency + this.k1 * (1 - this.b + (this.b * length) / (this.averageLength || 1)));
        const entry = scores.get(position) ?? { score: 0, matched: new Set<string>() };
        entry.score += weight * idf * tf;
        entry.matched.add(term);
        scores.set(position, entry);
      }
    }
    return [...scores]
      .map(([position, entry]) => ({
        id: this.ids[position] ?? '',
        score: entry.score,
        matched: [...entry.matched],
      }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, limit);
  }
}

/** Related words a question may use for what the data calls otherwise. */
const CONCEPTS: ReadonlyArray<readonly [string[], string[]]> = [
  [
    ['defense', 'military', 'weapon', 'pentagon', 'missile'],
    ['aerospace', 'defense', 'lockheed', 'raytheon', 'northrop', 'dynamics', 'boeing'],
  ],
  [
    ['tech', 'technology', 'software', 'ai', 'artificial', 'cloud'],
    ['information', 'technology', 'software', 'semiconductor', 'microsoft', 'nvidia', 'alphabet', 'apple'],
  ],
  [
    ['chip', 'chips', 'semiconductor', 'semiconductors'],
    ['semiconductor', 'nvidia', 'intel', 'micro', 'devices', 'qualcomm', 'broadcom', 'taiwan'],
  ],
  [
    ['pharma', 'pharmaceutical', 'drug', 'drugs', 'vaccine', 'biotech', 'health', 'healthcare'],
    ['pharmaceutical', 'health', 'care', 'biotechnology', 'pfizer', 'moderna', 'merck', 'johnson'],
  ],
  [
    ['oil', 'gas', 'energy', 'petroleum', 'fossil'],
    ['energy', 'oil', 'gas', 'petroleum', 'exxon', 'chevron', 'pipeline'],
  ],
  [
    ['bank', 'banks', 'banking', 'finance', 'financial', 'wall'],
    ['financial', 'bank', 'bancorp', 'morgan', 'goldman', 'sachs', 'citigroup', 'wells'],
  ],
  [
    ['crypto', 'bitcoin', 'blockchain', 'cryptocurrency'],
    ['cryptocurrency', 'bitcoin', 'coinbase', 'ethereum', 'crypto'],
  ],
  [
    ['bond', 'bonds', 'treasury', 'municipal', 'muni'],
    ['bond', 'municipal', 'security', 'treasury', 'note', 'coupon', 'matur'],
  ],
  [
    ['option', 'options', 'call', 'calls', 'put', 'puts'],
    ['option', 'call', 'put', 'strike'],
  ],
  [
    ['sold', 'sell', 'sale', 'dump', 'dumped'],
    ['sell', 'sale'],
  ],
  [
    ['bought', 'buy', 'purchase', 'purchased'],
    ['buy', 'purchase'],
  ],
  [['spouse', 'wife', 'husband'], ['spouse']],
  [['democrat', 'democrats', 'democratic'], ['democrat']],
  [['republican', 'republicans', 'gop'], ['republican']],
  [['senator', 'senators', 'senate'], ['senate']],
  [['representative', 'representatives', 'congressman', 'congresswoman', 'house'], ['house']],
];

const EXPANSIONS = new Map<string, string[]>();
for (const [triggers, related] of CONCEPTS) {
  for (const trigger of triggers.map(stem)) {
    EXPANSIONS.set(trigger, [...new Set([...(EXPANSIONS.get(trigger) ?? []), ...related.map(stem)])]);
  }
}

/** The question's own terms (weight 1) and related terms (weight 0.4). */
export function expandQuery(question: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const token of tokenize(question)) terms.set(token, 1);
  for (const token of [...terms.keys()]) {
    for (const related of EXPANSIONS.get(token) ?? []) if (!terms.has(related)) terms.set(related, 0.4);
  }
  return terms;
}
