// What a question means before any retriever runs: whether it asks for people, the concepts of the
// vocabulary it names ("airlines", "defense contractors") and the companies in them, and the
// members' and companies' names it spells, misspells or calls by another name. Pure: the entity
// index and the full-text index's word counts are given.
import { type ConceptMatch, conceptsIn, EntityIndex, type NameMatch } from './entities.js';
import { tokenize } from './text.js';

/**
 * A question word in this many documents or fewer may be a misspelling: the records themselves hold
 * a few ("Mcconnel" in one filing), a name people type is in many more.
 */
const TYPO_RARE = 2;
/** A question word in more documents than this is not taken as a company's other name. */
const ALIAS_RARE = 1_000;

/** Whether a question asks for people ("who ...", "senators who ..."): its trades then answer as members. */
export function asksForPeople(question: string): boolean {
  return /\b(?:who|whom|members?|senators?|representatives?|congress(?:wo)?m[ae]n|lawmakers?|politicians?|legislators?|democrats|republicans)\b/i.test(
    question,
  );
}

export interface Understood {
  concepts: ConceptMatch[];
  /** The companies of the question's concepts, as ticker documents (when stocks are asked for). */
  conceptCompanies: ReturnType<EntityIndex['conceptCompanies']>;
  /** Names the question spells, misspells or calls otherwise, one match per document. */
  misspelled: NameMatch[];
  /** Whether one of those names is a member's. */
  namesMember: boolean;
}

/**
 * The concepts and named entities of a question, as documents of the asked kinds. `documentsWith`
 * tells in how many documents the full-text index holds a word (0 when it does not know it).
 */
export function understandQuestion(
  q: string,
  words: readonly string[],
  kinds: readonly string[],
  entities: EntityIndex | undefined,
  documentsWith: (word: string) => number,
  depth: number,
): Understood {
  const concepts: ConceptMatch[] = conceptsIn(q);
  const index = entities ?? EntityIndex.empty();
  // Trades answer as their company or member (grouping), so those lists serve a trades question too.
  const companies = kinds.includes('tickers');
  const members = kinds.includes('politicians');
  const conceptCompanies = companies ? index.conceptCompanies(concepts, depth) : [];
  // Only words the full-text index holds (almost) nowhere can be misspellings: an exact match is not one.
  const unknown = words.filter((word) => documentsWith(word) <= TYPO_RARE);
  const named = index.named(words);
  // A company's other name counts where the word is rare in the index and no concept explains
  // it ("big" of "big banks" is not the Big Mac).
  const conceptStems = new Set(concepts.flatMap((concept) => tokenize(concept.phrase)));
  const aliased = index.aliased(
    words,
    (word) => !conceptStems.has(tokenize(word)[0] ?? word) && documentsWith(word) <= ALIAS_RARE,
  );
  const seen = new Set<number>();
  const misspelled: NameMatch[] = [...named, ...aliased, ...index.misspelled(unknown, 20)].filter((match) => {
    if (seen.has(match.documentId)) return false;
    seen.add(match.documentId);
    return match.key.startsWith('ticker:') ? companies : members;
  });
  const namesMember = misspelled.some((match) => match.key.startsWith('politician:'));
  return { concepts, conceptCompanies, misspelled, namesMember };
}
