// What a question names besides its words: concepts of the field resolved through the taxonomy
// (vocabulary/concepts.ts) to the companies in them, ranked by how much members traded them; and
// members and companies whose names the question misspells (Double Metaphone codes, then a
// Levenshtein distance bound), ranked below exact matches by the fusion. The index is built in
// memory from the database when the search index changes; the matching is pure.
import { doubleMetaphone } from 'double-metaphone';
import { distance } from 'fastest-levenshtein';
import type { Kysely } from 'kysely';
import { givenNameForms } from '../domain/names.js';
import { entityDocumentIds } from '../storage/repositories/search-index.js';
import { memberNameRows, tradedTickerRows } from '../storage/repositories/search-sources.js';
import type { Database } from '../storage/schema.js';
import { stem } from './text.js';
import { Slices } from './turns.js';
import { COMPANY_ALIASES } from './vocabulary/companies.js';
import { CONCEPT_VOCABULARY_VERSION, CONCEPTS, type Concept } from './vocabulary/concepts.js';
import { inConcept } from './wording.js';

export { CONCEPT_VOCABULARY_VERSION };

interface Entity {
  /** The search document's id. */
  documentId: number;
  key: string;
  /** How much members traded it (members: their trades): the order among equals. */
  trades: number;
  /** Name words (lower case, 3+ letters) and their phonetic codes. */
  words: { word: string; codes: readonly string[] }[];
  /** Members: the last name's words. */
  lastName?: readonly string[];
}

interface Company extends Entity {
  concepts: Set<string>;
  /** Words of its reviewed other names (products, owners, brands: vocabulary/companies.ts). */
  aliases: ReadonlySet<string>;
}

type CompanySnapshot = Omit<Company, 'concepts' | 'aliases'> & { concepts: string[]; aliases: string[] };

/**
 * EntityIndex.snapshot(): its members and companies (sets as arrays) as JSON texts of up to
 * SNAPSHOT_CHUNK entities each, so that the process taking it over parses them a slice at a time
 * (the whole index parsed at once holds its event loop for tens of milliseconds).
 */
export interface EntitySnapshot {
  members: string[];
  companies: string[];
}

const SNAPSHOT_CHUNK = 200;

function inChunks<T>(items: readonly T[]): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < items.length; at += SNAPSHOT_CHUNK)
    chunks.push(JSON.stringify(items.slice(at, at + SNAPSHOT_CHUNK)));
  return chunks;
}

/**
 * The entities of a snapshot's chunks (each made by `make`), parsed a chunk at a time with a turn
 * of the event loop when due.
 */
async function fromChunks<T, R>(
  chunks: readonly string[],
  slices: Slices,
  make: (item: T) => R,
): Promise<R[]> {
  const items: R[] = [];
  for (const chunk of chunks) {
    for (const item of JSON.parse(chunk) as T[]) items.push(make(item));
    await slices.tick();
  }
  return items;
}

/** The words of a name, lower case, accents dropped, 3 letters or more. */
function nameWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3);
}

/**
 * The stemmed words of a phrase as concepts are matched, two letters and more: "EV maker" keeps its
 * "ev", so "iPhone maker" is not read as a carmaker.
 */
function phraseWords(text: string): string[] {
  return text
    .replace(/&/g, ' and ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2)
    .map(stem);
}

const codesOf = (word: string) => [...new Set(doubleMetaphone(word))].filter((code) => code !== '');

// Company-name words that say nothing about which company it is.
const GENERIC = new Set(
  'inc corp corporation company holdings group the and class common stock shares ltd plc llc international technologies'.split(
    ' ',
  ),
);

/** An alias word shared by more companies than this says what they are, not which one (concepts do that). */
const ALIAS_SPREAD = 2;

/** The largest edit distance a misspelling of a word this long may be at. */
export function typoBudget(length: number): number {
  return length <= 4 ? 1 : length <= 8 ? 2 : 3;
}

export interface NameMatch {
  key: string;
  documentId: number;
  /** Question words matched to a name word, and the edits it took. */
  matched: { term: string; word: string; edits: number }[];
}

export interface ConceptMatch {
  id: string;
  phrase: string;
}

/** Words around a company's common name that do not name it: "the iPhone maker", "J&J stock". */
const AROUND_ALIAS = /^(?:the\s+)|\s+(?:maker|makers|company|owner|parent|stock|stocks|shares)$/gi;

/**
 * The one ticker a company's common name points to in COMPANY_ALIASES ("J&J", "BofA", "the
 * iPhone maker", "JPM Chase": a symbol of the table with words of its line). Several tickers (a
 * company's share classes, or one word shared by two lines) or none: undefined, the name is left
 * to the directory lookup. Pure.
 */
export function tickerOfAlias(phrase: string): string | undefined {
  const words = phrase.replace(AROUND_ALIAS, '').trim().split(/\s+/).filter(Boolean);
  const symbols = words.filter((word) => word in COMPANY_ALIASES);
  const rest = words.filter((word) => !(word in COMPANY_ALIASES)).join(' ');
  if (rest.length < 2) return symbols.length === 1 ? symbols[0] : undefined;
  const escaped = rest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?:^|\\s)${escaped}(?=\\s|$)`, 'i');
  const found = Object.entries(COMPANY_ALIASES)
    .filter(([ticker, line]) => pattern.test(line) && (symbols.length === 0 || symbols.includes(ticker)))
    .map(([ticker]) => ticker);
  return found.length === 1 ? found[0] : undefined;
}

/** How a concept phrase is looked for in a question: its stems and its own words, each spaced. */
interface PhraseForms {
  /** ` stem stem ` or undefined when the phrase matches only as written. */
  stems: string | undefined;
  plain: string;
}

// The vocabulary's phrases are few and fixed: each is stemmed once, not on every question.
const phraseForms = new Map<string, PhraseForms>();

function formsOf(candidate: string): PhraseForms {
  let forms = phraseForms.get(candidate);
  if (!forms) {
    const wanted = phraseWords(candidate);
    // A one-word phrase written in the plural ("chips", "banks") matches only as written: its
    // singular is often a name ("Chip Roy").
    const plural = wanted.length === 1 && wanted[0] !== candidate.toLowerCase();
    forms = {
      stems: wanted.length > 0 && !plural ? ` ${wanted.join(' ')} ` : undefined,
      plain: ` ${candidate.toLowerCase()} `,
    };
    phraseForms.set(candidate, forms);
  }
  return forms;
}

/** The concepts whose phrases the question holds, whole words, singular or plural. Pure. */
export function conceptsIn(question: string, concepts: readonly Concept[] = CONCEPTS): ConceptMatch[] {
  const stems = ` ${phraseWords(question).join(' ')} `;
  const plain = ` ${question.toLowerCase().replace(/[^a-z0-9&]+/g, ' ')} `;
  const found: ConceptMatch[] = [];
  for (const concept of concepts) {
    const phrase = concept.phrases.find((candidate) => {
      const forms = formsOf(candidate);
      return (forms.stems !== undefined && stems.includes(forms.stems)) || plain.includes(forms.plain);
    });
    if (phrase) found.push({ id: concept.id, phrase });
  }
  return found;
}

/**
 * A question word of 4+ letters that sounds like a name word of `item` other than `taken` (same
 * Double Metaphone code) and is within the typo budget of it; the closest. `terms`: the words with
 * their codes, computed once per question.
 */
function nearWord(
  item: Entity,
  terms: readonly { term: string; codes: readonly string[] }[],
  taken: string,
): NameMatch['matched'][number] | undefined {
  let best: NameMatch['matched'][number] | undefined;
  for (const { term, codes } of terms) {
    if (term === taken) continue;
    const budget = typoBudget(term.length);
    for (const { word, codes: wordCodes } of item.words) {
      if (word === taken || word === term || Math.abs(word.length - term.length) > budget) continue;
      if (!wordCodes.some((code) => codes.includes(code))) continue;
      const edits = distance(term, word);
      if (edits <= budget && (!best || edits < best.edits)) best = { term, word, edits };
    }
  }
  return best;
}

export class EntityIndex {
  private constructor(
    private readonly members: Entity[],
    private readonly companies: Company[],
    /** Phonetic code -> entities with a name word of that code. */
    private readonly byCode: Map<string, Entity[]>,
  ) {}

  static empty(): EntityIndex {
    return new EntityIndex([], [], new Map());
  }

  /** Reads and words every member and company: a turn of the event loop every slice (turns.ts). */
  static async load(db: Kysely<Database>): Promise<EntityIndex> {
    const slices = new Slices();
    const documents = new Map((await entityDocumentIds(db)).map((row) => [row.doc_key, row.id]));
    await slices.tick();
    const members: Entity[] = [];
    for (const row of await memberNameRows(db)) {
      await slices.tick();
      const documentId = documents.get(`politician:${row.slug}`);
      if (documentId === undefined) continue;
      const names = new Set([row.name, row.first_name ?? '', row.last_name ?? '', row.nickname ?? '']);
      for (const form of givenNameForms((row.first_name ?? '').toLowerCase())) names.add(form);
      members.push({
        ...entity(`politician:${row.slug}`, documentId, Number(row.n ?? 0), [...names].join(' ')),
        lastName: nameWords(row.last_name ?? ''),
      });
    }
    const companies: Company[] = [];
    // The companies with a document, a hundred at a time: each read takes their trades by index.
    const symbols = [...documents.keys()]
      .filter((key) => key.startsWith('ticker:'))
      .map((key) => key.slice('ticker:'.length));
    const traded = [];
    for (let at = 0; at < symbols.length; at += 100) {
      traded.push(...(await tradedTickerRows(db, new Set(symbols.slice(at, at + 100)))));
      await slices.tick();
    }
    for (const row of traded) {
      await slices.tick();
      const documentId = documents.get(`ticker:${row.ticker}`);
      if (documentId === undefined) continue;
      const name = (row.company ?? row.description ?? '').replace(/\([^)]*\)/g, ' ');
      const base = entity(`ticker:${row.ticker}`, documentId, Number(row.trade_count), name, GENERIC);
      const concepts = new Set(
        CONCEPTS.filter((concept) => inConcept(concept, row)).map((concept) => concept.id),
      );
      const aliases = new Set(
        nameWords(COMPANY_ALIASES[row.ticker] ?? '').filter((word) => !GENERIC.has(word) && !/\d/.test(word)),
      );
      companies.push({ ...base, concepts, aliases });
    }
    companies.sort((a, b) => b.trades - a.trades || a.key.localeCompare(b.key));
    return EntityIndex.indexed(members, companies, slices);
  }

  /** The members and companies with their phonetic codes listed, a turn of the event loop every slice. */
  private static async indexed(
    members: Entity[],
    companies: Company[],
    slices: Slices,
  ): Promise<EntityIndex> {
    const byCode = new Map<string, Entity[]>();
    for (const item of [...members, ...companies]) {
      await slices.tick();
      for (const { codes } of item.words) {
        for (const code of codes) {
          const list = byCode.get(code);
          if (list) {
            if (list[list.length - 1] !== item) list.push(item);
          } else byCode.set(code, [item]);
        }
      }
    }
    return new EntityIndex(members, companies, byCode);
  }

  /**
   * The index as plain data (JSON-safe), for another process to take over with fromSnapshot()
   * instead of reading and wording every member and company again (the serve warm-up's hand-over).
   */
  snapshot(): EntitySnapshot {
    return {
      members: inChunks(this.members),
      companies: inChunks(
        this.companies.map(
          (company): CompanySnapshot => ({
            ...company,
            concepts: [...company.concepts],
            aliases: [...company.aliases],
          }),
        ),
      ),
    };
  }

  /** The index a snapshot() describes, a turn of the event loop every slice. */
  static async fromSnapshot(snapshot: EntitySnapshot): Promise<EntityIndex> {
    const slices = new Slices();
    const members = await fromChunks(snapshot.members, slices, (member: Entity) => member);
    const companies = await fromChunks(
      snapshot.companies,
      slices,
      (company: CompanySnapshot): Company => ({
        ...company,
        concepts: new Set(company.concepts),
        aliases: new Set(company.aliases),
      }),
    );
    return EntityIndex.indexed(members, companies, slices);
  }

  get size(): number {
    return this.members.length + this.companies.length;
  }

  /** The companies of the concepts, most traded by members first. */
  conceptCompanies(concepts: readonly ConceptMatch[], limit: number): { id: number; key: string }[] {
    if (concepts.length === 0) return [];
    const lists = this.conceptPositions();
    const positions = new Set(concepts.flatMap((concept) => lists.get(concept.id) ?? []));
    return [...positions]
      .sort((a, b) => a - b)
      .slice(0, limit)
      .flatMap((at) => {
        const company = this.companies[at];
        return company ? [{ id: company.documentId, key: company.key }] : [];
      });
  }

  /** Each concept's companies as positions in `companies` (most traded first), built on first use. */
  private conceptPositions(): Map<string, number[]> {
    this.byConcept ??= positionsBy(this.companies, (company) => company.concepts);
    return this.byConcept;
  }

  private byConcept: Map<string, number[]> | undefined;

  /**
   * Members and companies whose name words sound like the question's words (same Double Metaphone
   * code) within the typo budget, best first: more words matched, fewer edits, more trades.
   * Question words that are exactly a name word count too, so "Kelley Loeffler" prefers the member
   * with both words; an entity needs at least one misspelled word to be listed here at all (the
   * full-text side finds the exact names).
   */
  misspelled(terms: readonly string[], limit: number): NameMatch[] {
    const words = [...new Set(terms.map((term) => term.toLowerCase()).filter((term) => term.length >= 4))];
    if (words.length === 0) return [];
    const found = new Map<Entity, NameMatch & { edits: number; typos: number }>();
    for (const term of words) {
      if (/\d/.test(term)) continue;
      const budget = typoBudget(term.length);
      const seen = new Set<Entity>();
      for (const code of codesOf(term)) {
        for (const item of this.byCode.get(code) ?? []) {
          if (seen.has(item)) continue;
          seen.add(item);
          let best: { word: string; edits: number } | undefined;
          for (const { word } of item.words) {
            if (Math.abs(word.length - term.length) > budget) continue;
            const edits = distance(term, word);
            if (edits <= budget && (!best || edits < best.edits)) best = { word, edits };
          }
          if (!best) continue;
          const match = found.get(item) ?? {
            key: item.key,
            documentId: item.documentId,
            matched: [],
            edits: 0,
            typos: 0,
          };
          match.matched.push({ term, word: best.word, edits: best.edits });
          match.edits += best.edits;
          if (best.edits > 0) match.typos += 1;
          found.set(item, match);
        }
      }
    }
    const trades = (key: string) => this.tradesOf.get(key) ?? 0;
    return [...found.values()]
      .filter((match) => match.typos > 0)
      .sort(
        (a, b) =>
          b.matched.length - a.matched.length ||
          a.edits - b.edits ||
          trades(b.key) - trades(a.key) ||
          a.key.localeCompare(b.key),
      )
      .slice(0, limit)
      .map(({ key, documentId, matched }) => ({ key, documentId, matched }));
  }

  /** The question's words that are exactly a word of the entity's name. */
  private exactWords(item: Entity, terms: readonly string[]): NameMatch['matched'] {
    const names = new Set(item.words.map((entry) => entry.word));
    return [...new Set(terms.map((term) => term.toLowerCase()))]
      .filter((term) => names.has(term))
      .map((term) => ({ term, word: term, edits: 0 }));
  }

  /**
   * Members the question names: two words of the name ("nancy pelosi", "bernie sanders"), one of
   * them possibly misspelled ("mitch mcconnel"), or a last name no other indexed member has. Exact
   * names first, then the most traded.
   */
  named(terms: readonly string[]): NameMatch[] {
    const words = new Set(terms.map((term) => term.toLowerCase()).filter((term) => term.length >= 3));
    if (words.size === 0) return [];
    const lastNames = this.lastNameCounts();
    const spelled = [...words]
      .filter((term) => term.length >= 4 && !/\d/.test(term))
      .map((term) => ({ term, codes: codesOf(term) }));
    const out: (NameMatch & { trades: number; edits: number })[] = [];
    // Only members with a name word among the question's can match; visited in index order, as
    // the stable sort below keeps it among equals.
    const byWord = this.memberPositions();
    const asked = [...words];
    const candidates = new Set(asked.flatMap((word) => byWord.get(word) ?? []));
    for (const at of [...candidates].sort((a, b) => a - b)) {
      const member = this.members[at];
      if (!member) continue;
      const matched = this.exactWords(member, asked);
      const unique = matched.some(
        (entry) =>
          member.lastName?.includes(entry.word) && lastNames.get(entry.word) === 1 && entry.word.length >= 5,
      );
      // A misspelled word beside an exact one: the misspelling path alone does not see it when the
      // full-text index holds the word as the stem of another ("mcconnel" of "mcconnell").
      const near = matched.length === 1 ? nearWord(member, spelled, matched[0]?.word ?? '') : undefined;
      if (near) matched.push(near);
      if (matched.length >= 2 || unique)
        out.push({
          key: member.key,
          documentId: member.documentId,
          matched,
          trades: member.trades,
          edits: near?.edits ?? 0,
        });
    }
    return out
      .sort((a, b) => b.matched.length - a.matched.length || a.edits - b.edits || b.trades - a.trades)
      .slice(0, 10)
      .map(({ key, documentId, matched }) => ({ key, documentId, matched }));
  }

  /**
   * Companies the question names by a reviewed other name ("Windows", "Ozempic", "Buffett"): words
   * of 3+ letters that are an alias word of at most ALIAS_SPREAD companies and that `rare` accepts
   * (the caller's test against the full-text index, so "big" or "food" name nothing). More matched
   * words first, then the most traded.
   */
  aliased(terms: readonly string[], rare: (word: string) => boolean): NameMatch[] {
    const words = [...new Set(terms.map((term) => term.toLowerCase()))].filter(
      (word) => word.length >= 3 && !GENERIC.has(word),
    );
    if (words.length === 0) return [];
    const spread = this.aliasSpread();
    const wanted = words.filter(
      (word) => (spread.get(word) ?? 0) > 0 && (spread.get(word) ?? 0) <= ALIAS_SPREAD && rare(word),
    );
    if (wanted.length === 0) return [];
    const out: (NameMatch & { trades: number })[] = [];
    for (const company of this.companies) {
      const matched = wanted.filter((word) => company.aliases.has(word));
      if (matched.length === 0) continue;
      out.push({
        key: company.key,
        documentId: company.documentId,
        matched: matched.map((word) => ({ term: word, word, edits: 0 })),
        trades: company.trades,
      });
    }
    return out
      .sort(
        (a, b) => b.matched.length - a.matched.length || b.trades - a.trades || a.key.localeCompare(b.key),
      )
      .slice(0, 10)
      .map(({ key, documentId, matched }) => ({ key, documentId, matched }));
  }

  /** Each name word's members as positions in `members`, built on first use. */
  private memberPositions(): Map<string, number[]> {
    this.byMemberWord ??= positionsBy(this.members, (member) => member.words.map(({ word }) => word));
    return this.byMemberWord;
  }

  private byMemberWord: Map<string, number[]> | undefined;

  private aliasSpread(): Map<string, number> {
    if (!this.aliasCounts) {
      this.aliasCounts = new Map();
      for (const company of this.companies)
        for (const word of company.aliases) this.aliasCounts.set(word, (this.aliasCounts.get(word) ?? 0) + 1);
    }
    return this.aliasCounts;
  }

  private aliasCounts: Map<string, number> | undefined;

  private lastNameCounts(): Map<string, number> {
    if (!this.lastNames) {
      this.lastNames = new Map();
      for (const member of this.members)
        for (const word of member.lastName ?? [])
          this.lastNames.set(word, (this.lastNames.get(word) ?? 0) + 1);
    }
    return this.lastNames;
  }

  private lastNames: Map<string, number> | undefined;

  private get tradesOf(): Map<string, number> {
    this.tradeCounts ??= new Map([...this.members, ...this.companies].map((item) => [item.key, item.trades]));
    return this.tradeCounts;
  }

  private tradeCounts: Map<string, number> | undefined;
}

/** Each key's items as their positions in `items`, ascending, each position once per key. */
function positionsBy<T>(items: readonly T[], keysOf: (item: T) => Iterable<string>): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  for (const [at, item] of items.entries())
    for (const key of keysOf(item)) {
      const list = positions.get(key);
      if (!list) positions.set(key, [at]);
      else if (list[list.length - 1] !== at) list.push(at);
    }
  return positions;
}

function entity(
  key: string,
  documentId: number,
  trades: number,
  names: string,
  skip?: ReadonlySet<string>,
): Entity {
  const words = [...new Set(nameWords(names))].filter((word) => !skip?.has(word) && !/\d/.test(word));
  return { key, documentId, trades, words: words.map((word) => ({ word, codes: codesOf(word) })) };
}
