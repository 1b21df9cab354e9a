// Record kinds a question names by their own words: "bills about taxes", "pharmaceutical
// lobbying", "NASA contracts". Such a question asks for records of that kind, not for the
// members, companies or trades that share its other words ("cloud computing security bill" is not
// Representative Cloud). Pure.
import type { SearchKind } from '../storage/repositories/search-index.js';

const KIND_WORDS: readonly { kind: SearchKind; words: RegExp }[] = [
  { kind: 'bills', words: /\b(?:bills?|legislation|resolutions?)\b/i },
  { kind: 'lobbying', words: /\b(?:lobbying|lobbyists?|lobbied|lobby)\b/i },
  { kind: 'contracts', words: /\b(?:contracts?|contract awards?|federal awards?)\b/i },
];

/**
 * The kinds among `asked` that the question names; `asked` itself when it names none of them, or
 * when it asks for people ("who sponsored the infrastructure bill" wants members).
 */
export function kindsNamedIn(
  question: string,
  asked: readonly SearchKind[],
  people: boolean,
): readonly SearchKind[] {
  if (people) return asked;
  const named = KIND_WORDS.filter(({ kind, words }) => asked.includes(kind) && words.test(question)).map(
    ({ kind }) => kind,
  );
  return named.length > 0 ? named : asked;
}
