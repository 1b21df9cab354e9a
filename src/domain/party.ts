// Party as the API serves it: `party` is always D, R or I (the interface promises nothing else),
// `party_name` keeps the name the roster gives ("Libertarian", "Independent Democrat", "Whig").
// Only the two major parties have their own letter; every other party, and no party, is I.
import { ownEntry } from './lookup.js';

export type PartyCode = 'D' | 'R' | 'I';

/** The roster's names (and the letters themselves) of the two major parties and independents. */
const PARTY_CODES: Readonly<Record<string, PartyCode>> = {
  d: 'D',
  democrat: 'D',
  democratic: 'D',
  r: 'R',
  republican: 'R',
  i: 'I',
  independent: 'I',
};

/** The full name served beside a letter the roster gave alone. */
export const PARTY_NAMES: Readonly<Record<PartyCode, string>> = {
  D: 'Democrat',
  R: 'Republican',
  I: 'Independent',
};

/** D, R or I for any party the roster names; null when it names none. */
export function partyCode(raw: string | null | undefined): PartyCode | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  return ownEntry(PARTY_CODES, text.toLowerCase()) ?? 'I';
}

/** The party's full name: the roster's own words, or the name of a bare letter. */
export function partyName(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  const code = ownEntry(PARTY_CODES, text.toLowerCase());
  return code && text.length === 1 ? PARTY_NAMES[code] : text;
}
