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

// Given names that stand for each other (hypocorisms), reviewed by hand: on filings ("Thomas
// Udall" is Tom Udall) and in what people type ("Bob Casey", "Chuck Schumer", "Bernie Sanders"
// find Robert, Charles and Bernard). Extend it with a reviewed group at a time.
export const NAME_GROUPS: readonly (readonly string[])[] = [
  ['thomas', 'tom', 'tommy'],
  ['william', 'bill', 'billy', 'will', 'willie'],
  ['robert', 'bob', 'bobby', 'rob', 'robbie'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['richard', 'dick', 'rick', 'rich'],
  ['charles', 'chuck', 'charlie', 'chip'],
  ['michael', 'mike'],
  ['joseph', 'joe'],
  ['patrick', 'pat'],
  ['patricia', 'pat', 'patty'],
  ['edward', 'ed', 'ted', 'eddie'],
  ['theodore', 'ted'],
  ['christopher', 'chris'],
  ['daniel', 'dan', 'danny'],
  ['kenneth', 'ken', 'kenny'],
  ['steven', 'stephen', 'steve'],
  ['benjamin', 'ben'],
  ['timothy', 'tim'],
  ['gregory', 'greg'],
  ['jeffrey', 'jeff'],
  ['mitchell', 'mitch'],
  ['john', 'jack', 'johnny'],
  ['elizabeth', 'liz', 'beth', 'betsy'],
  ['susan', 'sue', 'suzan'],
  ['katherine', 'catherine', 'kathy', 'cathy', 'kate', 'katie'],
  ['deborah', 'debbie', 'debra'],
  ['margaret', 'peggy', 'maggie'],
  ['anthony', 'tony'],
  ['david', 'dave'],
  ['donald', 'don'],
  ['douglas', 'doug'],
  ['frederick', 'fred'],
  ['gerald', 'jerry'],
  ['harold', 'hal'],
  ['lawrence', 'larry'],
  ['leonard', 'leo', 'len'],
  ['matthew', 'matt'],
  ['nicholas', 'nick'],
  ['peter', 'pete'],
  ['raymond', 'ray'],
  ['ronald', 'ron'],
  ['samuel', 'sam'],
  ['vincent', 'vince'],
  ['zachary', 'zach'],
  ['andrew', 'andy', 'drew'],
  ['alexander', 'alex'],
  ['gustavus', 'gus'],
  ['rafael', 'ted'],
  ['jerome', 'jerry'],
  ['earl', 'buddy'],
  ['abraham', 'abe'],
  ['alexandria', 'alex'],
  ['bernard', 'bernie'],
  ['henry', 'hank'],
  ['jonathan', 'jon'],
  ['joshua', 'josh'],
  ['kathleen', 'kathy'],
];

const GROUPS_OF = new Map<string, Set<string>>();
for (const group of NAME_GROUPS) {
  for (const name of group) {
    const known = GROUPS_OF.get(name) ?? new Set<string>();
    for (const other of group) known.add(other);
    GROUPS_OF.set(name, known);
  }
}

/** The given name and the names that commonly stand for it. */
export function givenNameForms(name: string): Set<string> {
  return GROUPS_OF.get(name) ?? new Set([name]);
}
