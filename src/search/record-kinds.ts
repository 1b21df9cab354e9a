// The kinds of record a question asks for. By their own words: "bills about taxes",
// "pharmaceutical lobbying", "NASA contracts" ask for records of that kind, not for the members,
// companies or trades that share their other words ("cloud computing security bill" is not
// Representative Cloud); a question about people asks for members. Pure.
import type { SearchKind } from '../storage/repositories/search-index.js';

const KIND_WORDS: readonly { kind: SearchKind; words: RegExp }[] = [
  { kind: 'bills', words: /\b(?:bills?|legislation|resolutions?)\b/i },
  { kind: 'lobbying', words: /\b(?:lobbying|lobbyists?|lobbied|lobby)\b/i },
  { kind: 'contracts', words: /\b(?:contracts?|contract awards?|federal awards?)\b/i },
];

/**
 * The kinds among `asked` that the question names; `asked` itself when it names none of them. A
 * question that asks for people ("who sponsored the infrastructure bill", "members trading
 * nvidia") is answered with members: their documents and their trades, which group into them.
 */
export function kindsNamedIn(
  question: string,
  asked: readonly SearchKind[],
  people: boolean,
): readonly SearchKind[] {
  if (people) {
    const members = asked.filter((kind) => kind === 'politicians' || kind === 'trades');
    return asked.includes('politicians') ? members : asked;
  }
  const named = KIND_WORDS.filter(({ kind, words }) => asked.includes(kind) && words.test(question)).map(
    ({ kind }) => kind,
  );
  return named.length > 0 ? named : asked;
}
