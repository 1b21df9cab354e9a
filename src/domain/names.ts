// Member names as filers and data sets write them: "Hon. Mark Dr Green", "Ron L Wyden",
// "Collins, Susan M. (Senator)", "Charles J. \"Chuck\" Grassley".

const HONORIFICS = new Set([
  'hon',
  'honorable',
  'the',
  'mr',
  'mrs',
  'ms',
  'dr',
  'senator',
  'sen',
  'rep',
  'representative',
]);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

export function foldAccents(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** Lower-case word tokens without accents, punctuation, honorifics or suffixes. */
export function nameTokens(raw: string): string[] {
  const tokens = foldAccents(raw)
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/["'’.]/g, '')
    .split(/[^a-z]+/)
    .filter((token) => token !== '');
  while (tokens.length > 1 && HONORIFICS.has(tokens[0] ?? '')) tokens.shift();
  while (tokens.length > 1 && SUFFIXES.has(tokens[tokens.length - 1] ?? '')) tokens.pop();
  return tokens;
}

/** "Collins, Susan M. (Senator)" -> "Susan M. Collins". */
export function uncommaName(raw: string): string {
  const withoutRole = raw.replace(/\([^)]*\)/g, '').trim();
  const comma = withoutRole.indexOf(',');
  if (comma === -1) return withoutRole;
  const after = withoutRole.slice(comma + 1).trim();
  // "A. Mitchell McConnell, Jr." is not "Last, First".
  if (SUFFIXES.has(after.toLowerCase().replace(/\./g, ''))) return withoutRole.slice(0, comma).trim();
  return `${withoutRole.slice(comma + 1).trim()} ${withoutRole.slice(0, comma).trim()}`.trim();
}

export function slugify(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/["'’.]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Does the token list contain `phrase` (itself tokenized) as a contiguous run? */
export function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let start = 0; start + phrase.length <= tokens.length; start++) {
    if (phrase.every((token, offset) => tokens[start + offset] === token)) return true;
  }
  return false;
}
