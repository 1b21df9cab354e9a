// The sector vocabulary: the eleven GICS sectors, the only values a trade's or company's `sector`
// takes, and the other names sources and clients use for them. One table for the data (the
// company directory maps every source's sector through it), the `sector` filter (which accepts
// any of these names, case-insensitively) and the OpenAPI enum of the `sector` field.
import { ownEntry } from './lookup.js';

export const GICS_SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
] as const;

export type Sector = (typeof GICS_SECTORS)[number];

/**
 * Other names of the sectors, lower case: Nasdaq's screener sectors, the GICS sector merged into
 * Communication Services in September 2018, and short forms clients type.
 */
const SECTOR_ALIASES: Readonly<Record<string, Sector>> = {
  technology: 'Information Technology',
  tech: 'Information Technology',
  it: 'Information Technology',
  finance: 'Financials',
  financial: 'Financials',
  'basic materials': 'Materials',
  telecommunications: 'Communication Services',
  'telecommunication services': 'Communication Services',
  healthcare: 'Health Care',
  industrial: 'Industrials',
};

const BY_NAME: Readonly<Record<string, Sector>> = Object.fromEntries(
  GICS_SECTORS.map((sector) => [sector.toLowerCase(), sector]),
);

/** The GICS sector a name means, case-insensitively; null for a name that is no sector. */
export function normalizeSector(raw: string | null | undefined): Sector | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  if (text === '') return null;
  return ownEntry(BY_NAME, text) ?? ownEntry(SECTOR_ALIASES, text) ?? null;
}
