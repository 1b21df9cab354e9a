// GET /v1/semantic-search: answers a free-text question with the members, stocks, trades and
// bills closest to it. Ranking is BM25 over the stored text with concept expansion (defense →
// aerospace, Lockheed, ...); the index is built in memory and rebuilt when the data changes.
import type { Kysely } from 'kysely';
import { chamberOfSource } from '../domain/sources.js';
import {
  corpusVersion,
  searchableBills,
  searchablePoliticians,
  searchableTickers,
  searchableTrades,
} from '../storage/repositories/search-corpus.js';
import type { Database } from '../storage/schema.js';
import { Bm25Index, expandQuery, type IndexedDocument } from './bm25.js';

export const SEMANTIC_TYPES = ['politicians', 'tickers', 'trades', 'bills'] as const;
export type SemanticType = (typeof SEMANTIC_TYPES)[number];

const PARTY_NAMES: Record<string, string> = { D: 'Democrat Democratic', R: 'Republican', I: 'Independent' };

interface Entry {
  type: SemanticType;
  title: string;
  subtitle: string;
  ref: { politician_id?: number; slug?: string; ticker?: string; trade_id?: number; bill_id?: string };
}

interface BuiltIndex {
  version: string;
  index: Bm25Index;
  entries: Map<string, Entry>;
}

/** How long a built index is trusted before the data version is checked again. */
const RECHECK_MS = 30_000;

export class SemanticSearch {
  private built: BuiltIndex | undefined;
  private checkedAt = 0;
  private building: Promise<BuiltIndex> | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async search(
    params: { q: string; types: readonly SemanticType[]; limit: number },
    now: number = Date.now(),
  ) {
    const built = await this.current(now);
    const terms = expandQuery(params.q);
    const wanted = new Set(params.types);
    const hits = built.index
      .search(terms, 5_000)
      .filter((hit) => wanted.has((built.entries.get(hit.id) as Entry).type))
      .slice(0, params.limit);
    const top = hits[0]?.score ?? 1;
    return {
      query: params.q,
      terms: [...terms].map(([term, weight]) => ({ term, weight })),
      results: hits.map((hit) => {
        const entry = built.entries.get(hit.id) as Entry;
        return {
          type: entry.type,
          title: entry.title,
          subtitle: entry.subtitle,
          score: Math.round((hit.score / top) * 1000) / 1000,
          matched_terms: hit.matched,
          ...entry.ref,
        };
      }),
      total: hits.length,
    };
  }

  private async current(now: number): Promise<BuiltIndex> {
    if (this.built && now - this.checkedAt < RECHECK_MS) return this.built;
    const version = await corpusVersion(this.db);
    this.checkedAt = now;
    if (this.built?.version === version) return this.built;
    this.building ??= build(this.db, version).finally(() => {
      this.building = undefined;
    });
    this.built = await this.building;
    return this.built;
  }
}

async function build(db: Kysely<Database>, version: string): Promise<BuiltIndex> {
  const entries = new Map<string, Entry>();
  const documents: IndexedDocument[] = [];
  const add = (id: string, entry: Entry, fields: IndexedDocument['fields']) => {
    entries.set(id, entry);
    documents.push({ id, fields });
  };

  const { politicians, committees } = await searchablePoliticians(db);
  const committeeNames = new Map<number, string[]>();
  for (const seat of committees)
    committeeNames.set(seat.politician_id, [...(committeeNames.get(seat.politician_id) ?? []), seat.name]);
  for (const p of politicians) {
    add(
      `politician:${p.id}`,
      {
        type: 'politicians',
        title: p.name,
        subtitle: [p.party, p.state, p.chamber].filter(Boolean).join(' · '),
        ref: { politician_id: p.id, slug: p.slug },
      },
      [
        { text: p.name, weight: 3 },
        {
          text: `${PARTY_NAMES[p.party ?? ''] ?? ''} ${p.state ?? ''} ${p.chamber} ${p.title ?? ''} ${p.agency ?? ''}`,
          weight: 1,
        },
        { text: (committeeNames.get(p.id) ?? []).join(' '), weight: 1 },
      ],
    );
  }
  for (const t of await searchableTickers(db)) {
    add(
      `ticker:${t.ticker}`,
      {
        type: 'tickers',
        title: t.ticker,
        subtitle: t.company ?? t.description ?? '',
        ref: { ticker: t.ticker },
      },
      [
        { text: t.ticker, weight: 3 },
        { text: `${t.company ?? ''} ${t.description ?? ''}`, weight: 2 },
        { text: `${t.sector ?? ''} ${t.industry ?? ''}`, weight: 1 },
      ],
    );
  }
  for (const t of await searchableTrades(db)) {
    const chamber = chamberOfSource(t.source) ?? '';
    add(
      `trade:${t.id}`,
      {
        type: 'trades',
        title: `${t.politician_name}: ${t.trade_type} ${t.ticker} ${t.amount_range ?? ''}`.trim(),
        subtitle: `${t.transaction_date} · ${t.asset_description ?? ''}`,
        ref: { trade_id: t.id, ticker: t.ticker },
      },
      [
        { text: `${t.politician_name} ${t.ticker}`, weight: 2 },
        { text: `${t.asset_description ?? ''} ${t.asset_type ?? ''} ${t.option_type ?? ''}`, weight: 1 },
        {
          text: `${t.trade_type} ${t.owner ?? ''} ${PARTY_NAMES[t.party ?? ''] ?? ''} ${chamber} ${t.sector ?? ''} ${t.comment ?? ''}`,
          weight: 1,
        },
      ],
    );
  }
  for (const b of await searchableBills(db)) {
    add(
      `bill:${b.id}`,
      {
        type: 'bills',
        title: b.short_title ?? b.title,
        subtitle: `${b.id} · ${b.policy_area ?? ''}`,
        ref: { bill_id: b.id },
      },
      [
        { text: `${b.short_title ?? ''} ${b.title}`, weight: 2 },
        { text: b.policy_area ?? '', weight: 1 },
      ],
    );
  }
  return { version, index: new Bm25Index(documents), entries };
}
