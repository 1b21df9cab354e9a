// Words of a question or a document as semantic search compares them: lower case, accents
// dropped, stop words out, a light suffix stemmer. Pure.

const STOP_WORDS = new Set(
  'a an and are as at be by did do does for from has have how in into is it its me of on or over show that the their them these they this those to under was were what when where which who whom why will with about any all my our your'.split(
    ' ',
  ),
);

export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/** The words of `text` before stemming: accents dropped, lower case, stop words and single letters out. */
function words(text: string): string[] {
  return folded(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
}

/** `text` with accents dropped and in lower case: words are its runs of a-z and 0-9. */
function folded(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

const isWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

/**
 * Which of `stems` some word of `text` stems to (tokenize(text) ∩ stems), without splitting the
 * whole text: a stem keeps its word's first three letters, so only the words starting with one
 * of the stems' heads are found (indexOf) and stemmed.
 */
export function stemsIn(text: string, stems: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (stems.size === 0) return found;
  const plain = folded(text);
  for (const head of new Set(Array.from(stems, (stemmed) => stemmed.slice(0, 3)))) {
    for (let at = plain.indexOf(head); at >= 0; at = plain.indexOf(head, at + 1)) {
      if (at > 0 && isWordCode(plain.charCodeAt(at - 1))) continue;
      let end = at + head.length;
      while (end < plain.length && isWordCode(plain.charCodeAt(end))) end++;
      const word = plain.slice(at, end);
      if (word.length < 2 || STOP_WORDS.has(word)) continue;
      const stemmed = stem(word);
      if (stems.has(stemmed)) found.add(stemmed);
    }
  }
  return found;
}

/** A light suffix stemmer: "options" and "option", "trading" and "trade" meet. */
export function stem(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    // "taxes", "boxes", "matches" lose "es"; "airlines", "sales" only their "s".
    ['sses', 'ss'],
    ['xes', 'x'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['ss', 'ss'],
    ['s', ''],
  ] as const) {
    if (token.endsWith(suffix) && token.length - suffix.length >= 3)
      return token.slice(0, -suffix.length) + replacement;
  }
  return token;
}

/** The question's words for the database's full-text engine, which stems them itself. */
export function queryWords(text: string): string[] {
  return [...new Set(words(text))];
}
