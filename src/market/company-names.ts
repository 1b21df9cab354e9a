// Company names as directories and filers write them, reduced to a key that two spellings of one
// company share: "PROCTER & GAMBLE Co", "Procter & Gamble Company (The) Common Stock" and
// "Procter and Gamble" are all "procter gamble". The share class is kept apart ("Alphabet Inc.
// (Class A)" is "alphabet" class A), because it decides between GOOGL and GOOG.
import { foldAccents } from '../domain/names.js';

export interface NameKey {
  key: string;
  shareClass: string | null;
}

// Words that say what kind of security it is, not whose.
const SECURITY_WORDS = [
  'american depositary shares',
  'american depository shares',
  'american depositary receipts',
  'sponsored adr',
  'common stock',
  'common shares',
  'ordinary shares',
  'capital stock',
  'class [a-e] shares',
  'common',
  'stock',
  'shares',
  'cmn',
  'adr',
  'ads',
];
// Abbreviations filers use for words directories spell out.
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  intl: 'international',
  hldgs: 'holdings',
  hldg: 'holding',
  grp: 'group',
  svcs: 'services',
  sys: 'systems',
  pmts: 'payments',
  inds: 'industries',
  mfg: 'manufacturing',
  natl: 'national',
  amer: 'american',
  tech: 'technologies',
  techs: 'technologies',
};

// Legal forms, dropped from the end (repeatedly: "Holdings Co Ltd" keeps "holdings").
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'cos',
  'companies',
  'ltd',
  'limited',
  'plc',
  'llc',
  'lp',
  'nv',
  'sa',
  'ag',
  'se',
  'the',
  'new',
]);

/** Null for names that say nothing (blank, or a single character once reduced). */
export function nameKey(raw: string): NameKey | null {
  let text = ` ${foldAccents(raw).toLowerCase()} `;
  // SEC titles carry the state of incorporation: "BANK OF AMERICA CORP /DE/", "WELLS FARGO & COMPANY/MN".
  text = text.replace(/\/[a-z]{2}\/?(?=\s|$)/g, ' ').replace(/\/(?=\s|$)/g, ' ');
  const shareClass = readShareClass(text);
  text = text
    .replace(/\((?:the|new)\)/g, ' ')
    .replace(/\bclass\s+[a-e]\b|\bcl\.?\s+[a-e]\b|\bseries\s+[a-e]\b|\s-\s+[a-e]\s*$/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ');
  for (const words of SECURITY_WORDS) text = text.replace(new RegExp(`\\b${words}\\b`, 'g'), ' ');
  let tokens = text
    .split(' ')
    .filter((token) => token !== '' && token !== 'and')
    .map((token) => ABBREVIATIONS[token] ?? token);
  tokens = joinInitials(tokens);
  while (tokens.length > 1 && LEGAL_FORMS.has(tokens[tokens.length - 1] as string)) tokens.pop();
  while (tokens.length > 1 && tokens[0] === 'the') tokens.shift();
  // Without spaces: "JP Morgan Chase" and "JPMORGAN CHASE", "Du Pont" and "Dupont" meet.
  const key = tokens.join('');
  return key.length < 2 ? null : { key, shareClass };
}

function readShareClass(text: string): string | null {
  const match =
    /\bclass\s+([a-e])\b/.exec(text) ??
    /\bcl\.?\s+([a-e])\b/.exec(text) ??
    /\bseries\s+([a-e])\b/.exec(text) ??
    /\s-\s+([a-e])\s*$/.exec(text);
  return match?.[1] ? match[1].toUpperCase() : null;
}

/** "j p morgan" and "jp morgan", "e i du pont" and "ei du pont" are one spelling. */
function joinInitials(tokens: readonly string[]): string[] {
  const joined: string[] = [];
  let afterInitial = false;
  for (const token of tokens) {
    const initial = /^[a-z]$/.test(token);
    if (initial && afterInitial) joined[joined.length - 1] += token;
    else joined.push(token);
    afterInitial = initial;
  }
  return joined;
}

/** Names of things that are not a company's common equity: preferreds, warrants, units, notes, funds' share classes. */
export function isNonCommonSecurity(name: string): boolean {
  return /\b(preferred|pfd|warrants?|units?|rights?|notes? due|debentures?|depositary shares? (each )?representing|perpetual|perptl|subordinated|trust preferred|when issued|%)/i.test(
    name,
  );
}
