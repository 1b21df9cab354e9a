// Words of a question or a document as semantic search compares them: lower case, accents
// dropped, stop words out, a light suffix stemmer. Pure.

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
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}
