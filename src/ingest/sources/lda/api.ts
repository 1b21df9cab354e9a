// The LDA REST API's filings list (`GET /api/v1/filings/`): a page `{count, next, previous,
// results}` of LD-1/LD-2 filings. Pure: the page's text in, records and the next page's URL out.

import { type Obj, obj, text } from '../parsed-values.js';
import {
  decimalText,
  issueCodeOfName,
  LDA_ISSUE_CODES,
  LdaFormatError,
  type LobbyingFilingRecord,
  type LobbyingIssue,
  type LobbyistEntry,
} from './filing.js';

export interface LdaFilingsPage {
  /** Filings the query matches in all (every page). */
  count: number;
  next: string | null;
  previous: string | null;
  filings: LobbyingFilingRecord[];
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function parseLdaFilingsPage(json: string): LdaFilingsPage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new LdaFormatError(`not JSON: ${(error as Error).message}`);
  }
  const page = obj(parsed);
  if (!Array.isArray(page.results) || typeof page.count !== 'number') {
    throw new LdaFormatError('not an LDA filings page (expected {count, next, previous, results})');
  }
  return {
    count: page.count,
    next: text(page.next),
    previous: text(page.previous),
    filings: page.results.map((result, index) => parseApiFiling(obj(result), index)),
  };
}

function parseApiFiling(raw: Obj, index: number): LobbyingFilingRecord {
  const uuid = text(raw.filing_uuid);
  if (!uuid) throw new LdaFormatError(`result ${index} has no filing_uuid`);
  const registrant = obj(raw.registrant);
  const client = obj(raw.client);
  const registrantName = text(registrant.name);
  const clientName = text(client.name);
  if (!registrantName || !clientName)
    throw new LdaFormatError(`filing ${uuid} lacks a registrant or client name`);
  const year = Number(raw.filing_year);
  if (!Number.isInteger(year)) throw new LdaFormatError(`filing ${uuid} has no filing_year`);
  const activities = list(raw.lobbying_activities).map(obj);
  const typeDisplay = text(raw.filing_type_display) ?? text(raw.filing_type) ?? '';
  return {
    filingUuid: uuid.toLowerCase(),
    filingType: text(raw.filing_type) ?? '',
    filingTypeDisplay: typeDisplay,
    filingYear: year,
    filingPeriod: text(raw.filing_period),
    noActivity: /no activity/i.test(typeDisplay),
    registrantId: text(registrant.id),
    registrantName,
    registrantDescription: text(registrant.description),
    clientId: text(client.client_id) ?? text(client.id),
    clientName,
    clientDescription: text(client.general_description),
    income: decimalText(raw.income, `filing ${uuid} income`),
    expenses: decimalText(raw.expenses, `filing ${uuid} expenses`),
    postedAt: text(raw.dt_posted),
    documentUrl: text(raw.filing_document_url),
    issues: activities.map(activityIssue),
    lobbyists: uniqueLobbyists(activities.flatMap((activity) => list(activity.lobbyists).map(obj))),
    governmentEntities: uniqueTexts(
      activities.flatMap((activity) => list(activity.government_entities).map((entity) => obj(entity).name)),
    ),
    origin: 'lda_api',
  };
}

function activityIssue(activity: Obj): LobbyingIssue {
  const code = text(activity.general_issue_code);
  const display = text(activity.general_issue_code_display);
  const name = display ?? (code ? (LDA_ISSUE_CODES[code] ?? code) : 'Unknown');
  return {
    code: code ?? issueCodeOfName(name),
    name,
    description: text(activity.description),
  };
}

/** A lobbyist is listed once per activity; the filing lists each person once. */
function uniqueLobbyists(entries: readonly Obj[]): LobbyistEntry[] {
  const byKey = new Map<string, LobbyistEntry>();
  for (const entry of entries) {
    const person = obj(entry.lobbyist);
    const name = [
      person.prefix_display,
      person.first_name,
      person.middle_name,
      person.last_name,
      person.suffix_display,
    ]
      .map(text)
      .filter((part): part is string => part !== null)
      .join(' ');
    if (name === '') continue;
    const key = text(person.id) ?? name;
    const covered = text(entry.covered_position);
    const existing = byKey.get(key);
    if (existing) {
      existing.coveredPosition ??= covered;
      continue;
    }
    byKey.set(key, {
      name,
      coveredPosition: covered,
      isNew: typeof entry.new === 'boolean' ? entry.new : null,
    });
  }
  return [...byKey.values()];
}

export function uniqueTexts(values: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const name = text(value);
    if (name) seen.add(name);
  }
  return [...seen];
}
