// Which GICS sectors (and industries) a bill touches: from its CRS policy area, and from topic
// words in its legislative subjects (or, for a bill whose record carries neither, in its title or
// the roll call's description). The basis of GET /legislation/suspicious-timing; the same
// sector names as committee-sectors.ts. Areas that span everything (Taxation, Economics and
// Public Finance, Government Operations and Politics, Congress) touch no particular sector.

import { ownEntry } from './lookup.js';

export interface SectorTouch {
  sectors: readonly string[];
  /** GICS sub-industries (or Nasdaq industries) matched by name, beyond whole sectors. */
  industries?: RegExp;
}

const DEFENSE = /aerospace|defen[cs]e/i;
const FOOD = /agricultur|fertilizer|farm|food/i;

/** CRS policy areas (congress.gov's 32) that name an industry, and the sectors they touch. */
export const POLICY_AREA_SECTORS: Readonly<Record<string, SectorTouch>> = {
  'Agriculture and Food': { sectors: ['Consumer Staples'], industries: FOOD },
  'Armed Forces and National Security': { sectors: [], industries: DEFENSE },
  Commerce: { sectors: ['Consumer Discretionary'] },
  Education: { sectors: [], industries: /education/i },
  Energy: { sectors: ['Energy', 'Utilities'] },
  'Environmental Protection': { sectors: ['Utilities', 'Materials'] },
  'Finance and Financial Sector': { sectors: ['Financials'] },
  Health: { sectors: ['Health Care'] },
  'Housing and Community Development': { sectors: ['Real Estate'] },
  'Public Lands and Natural Resources': { sectors: ['Energy', 'Materials'] },
  'Science, Technology, Communications': { sectors: ['Information Technology', 'Communication Services'] },
  'Transportation and Public Works': {
    sectors: ['Industrials'],
    industries: /airline|automobile|auto parts/i,
  },
};

export interface TopicWords extends SectorTouch {
  topic: string;
  words: RegExp;
}

/** Topic words read in subjects, titles and roll-call descriptions (whole words, any case). */
export const TOPIC_WORDS: readonly TopicWords[] = [
  {
    topic: 'energy',
    words: /\b(energy|oil|natural gas|petroleum|pipelines?|coal|electricity|electric utilit\w*)\b/i,
    sectors: ['Energy', 'Utilities'],
  },
  {
    topic: 'health',
    words:
      /\b(health care|health insurance|medicare|medicaid|prescription drugs?|pharmaceutical\w*|hospitals?)\b/i,
    sectors: ['Health Care'],
  },
  {
    topic: 'finance',
    words:
      /\b(banks?|banking|financial institutions?|securities|mortgages?|digital assets?|cryptocurrenc\w*|stablecoins?)\b/i,
    sectors: ['Financials'],
  },
  {
    topic: 'defense',
    words:
      /\b(national defense|defense authorization|military procurement|weapons? systems?|armed forces)\b/i,
    sectors: [],
    industries: DEFENSE,
  },
  {
    topic: 'technology',
    words:
      /\b(telecommunications?|broadband|internet|semiconductors?|artificial intelligence|cybersecurity|social media)\b/i,
    sectors: ['Information Technology', 'Communication Services'],
  },
  {
    topic: 'agriculture',
    words: /\b(agricultur\w*|farm bill|crop insurance|food safety)\b/i,
    sectors: ['Consumer Staples'],
    industries: FOOD,
  },
  {
    topic: 'transportation',
    words: /\b(aviation|airlines?|railroads?|highways?|motor vehicles?)\b/i,
    sectors: ['Industrials'],
    industries: /airline|automobile|auto parts/i,
  },
  { topic: 'housing', words: /\b(housing|real estate)\b/i, sectors: ['Real Estate'] },
  { topic: 'mining', words: /\b(mining|critical minerals?|steel)\b/i, sectors: ['Materials'] },
];

function touches(touch: SectorTouch, sector: string | null, industry: string | null): boolean {
  if (sector !== null && touch.sectors.includes(sector)) return true;
  return industry !== null && touch.industries?.test(industry) === true;
}

/** Why a bill touches a company: the field read, the text that matched, and how. */
export interface TopicMatch {
  /** policy_area | subject | title | vote_description */
  field: string;
  text: string;
  /** policy_area, a topic of TOPIC_WORDS, or company_name. */
  basis: string;
}

export interface BillText {
  policyArea: string | null;
  subjects: readonly string[];
  /** The bill's title, or the roll call's description when the bill itself is not stored. */
  title: string | null;
  titleField: 'title' | 'vote_description';
}

export interface CompanyText {
  sector: string | null;
  industry: string | null;
  /** The company's name as the directory knows it (e.g. "Lockheed Martin"), if any. */
  name: string | null;
}

const CORPORATE_SUFFIX =
  /[,.]?\s+(inc|incorporated|corp|corporation|co|company|companies|ltd|plc|llc|lp|holdings?|group|the)\.?$/i;

/** A company's name without its corporate suffixes ("Apple Inc." -> "Apple"); null when too short to match safely. */
export function matchableCompanyName(name: string | null): string | null {
  if (name === null) return null;
  let core = name.trim();
  for (let previous = ''; previous !== core; ) {
    previous = core;
    core = core.replace(CORPORATE_SUFFIX, '').trim();
  }
  return core.length >= 4 ? core : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How a bill touches a company's sector or names the company: every match found, empty when it
 * does not. Subjects and the policy area are read always; topic words in the title (or roll-call
 * description) only when the bill carries neither, since titles are short and general. The sector
 * matches come first, then the name matches (billTouchesSector, billNamesCompany: the two halves,
 * which a caller matching many trades can cache apart).
 */
export function billTouchesCompany(bill: BillText, company: CompanyText): TopicMatch[] {
  return [
    ...billTouchesSector(bill, company.sector, company.industry),
    ...billNamesCompany(bill, companyNamePattern(company.name)),
  ];
}

/** The policy area and topic-word matches of a bill against a sector and industry. */
export function billTouchesSector(
  bill: BillText,
  sector: string | null,
  industry: string | null,
): TopicMatch[] {
  const matches: TopicMatch[] = [];
  if (sector === null && industry === null) return matches;
  const area = bill.policyArea === null ? undefined : ownEntry(POLICY_AREA_SECTORS, bill.policyArea);
  if (bill.policyArea !== null && area && touches(area, sector, industry)) {
    matches.push({ field: 'policy_area', text: bill.policyArea, basis: 'policy_area' });
  }
  const texts: { field: string; text: string }[] = bill.subjects.map((text) => ({ field: 'subject', text }));
  const describedOnlyByTitle = bill.policyArea === null && bill.subjects.length === 0;
  if (describedOnlyByTitle && bill.title !== null) texts.push({ field: bill.titleField, text: bill.title });
  for (const { field, text } of texts) {
    for (const topic of TOPIC_WORDS) {
      const found = topic.words.exec(text);
      if (found && touches(topic, sector, industry)) {
        matches.push({ field, text: found[0], basis: topic.topic });
      }
    }
  }
  return matches;
}

/** The pattern a company's name is found by in bill texts; null when the name is too short to match safely. */
export function companyNamePattern(companyName: string | null): RegExp | null {
  const name = matchableCompanyName(companyName);
  // The name as the company writes it (case-sensitive), so that "Visa" does not match "visa".
  return name === null ? null : new RegExp(`\\b${escapeRegExp(name)}\\b`);
}

/** Where a bill's subjects or title name the company (companyNamePattern). */
export function billNamesCompany(bill: BillText, named: RegExp | null): TopicMatch[] {
  const matches: TopicMatch[] = [];
  if (named === null) return matches;
  const nameTexts = [...bill.subjects.map((text) => ({ field: 'subject', text }))];
  if (bill.title !== null) nameTexts.push({ field: bill.titleField, text: bill.title });
  for (const { field, text } of nameTexts) {
    const found = named.exec(text);
    if (found) matches.push({ field, text: found[0], basis: 'company_name' });
  }
  return matches;
}
