// Federal contract awards as USAspending publishes them: rows of the award search
// (`POST /api/v2/search/spending_by_award/`), the award detail (`GET /api/v2/awards/{id}/`), and
// the FPDS contract transactions USAspending loads from the Data Broker (`detached_award_procurement`
// rows). Pure: parsed JSON in, records out.
import { obj, text } from '../parsed-values.js';

export interface ContractAwardRecord {
  /** USAspending's award key (CONT_AWD_<PIID>_<agency>_<parent PIID>_<parent agency>), or the FPDS transaction key. */
  sourceId: string;
  /** The PIID the agency gave the award. */
  awardId: string;
  recipientName: string;
  recipientUei: string | null;
  /** The recipient's ultimate parent, when the source names one. */
  parentName: string | null;
  parentUei: string | null;
  /** Obligated amount in dollars (the award's total, or one FPDS action's obligation). */
  amount: number | null;
  awardingAgency: string | null;
  awardingSubAgency: string | null;
  /** When the award was signed (its base obligation date), YYYY-MM-DD. */
  awardDate: string | null;
  startDate: string | null;
  endDate: string | null;
  awardType: string | null;
  description: string | null;
  naicsCode: string | null;
  naicsDescription: string | null;
  pscCode: string | null;
  pscDescription: string | null;
  placeCity: string | null;
  placeState: string | null;
  placeCountry: string | null;
  origin: 'spending_by_award' | 'award_detail' | 'fpds';
}

export interface SpendingByAwardPage {
  page: number;
  hasNext: boolean;
  awards: ContractAwardRecord[];
  /** Rows left out, with why (not a contract, no award key). */
  skipped: Array<{ row: number; reason: string }>;
}

export class UsaspendingFormatError extends Error {}

function money(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** "2017-05-01 00:00:00", "2016-06-03", "20160404" -> YYYY-MM-DD. */
export function isoDay(value: unknown): string | null {
  const s = text(value);
  if (!s) return null;
  const dashed = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (dashed) return `${dashed[1]}-${dashed[2]}-${dashed[3]}`;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  return compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : null;
}

function codeAndDescription(value: unknown): { code: string | null; description: string | null } {
  if (typeof value === 'object' && value !== null) {
    const o = obj(value);
    return { code: text(o.code), description: text(o.description) };
  }
  return { code: text(value), description: null };
}

export function parseSpendingByAward(json: unknown): SpendingByAwardPage {
  const page = obj(json);
  if (!Array.isArray(page.results)) {
    throw new UsaspendingFormatError('not a spending_by_award answer (expected {results, page_metadata})');
  }
  const meta = obj(page.page_metadata);
  const awards: ContractAwardRecord[] = [];
  const skipped: SpendingByAwardPage['skipped'] = [];
  page.results.forEach((raw, row) => {
    const result = obj(raw);
    const sourceId = text(result.generated_internal_id);
    const awardId = text(result['Award ID']);
    const recipientName = text(result['Recipient Name']);
    if (!sourceId || !awardId || !recipientName) {
      skipped.push({ row, reason: 'no generated_internal_id, Award ID or Recipient Name' });
      return;
    }
    if (!sourceId.startsWith('CONT_')) {
      skipped.push({ row, reason: `${sourceId} is not a contract award` });
      return;
    }
    const naics = codeAndDescription(result.NAICS ?? result['NAICS Code']);
    const psc = codeAndDescription(result.PSC ?? result['PSC Code']);
    const place = obj(result['Primary Place of Performance']);
    awards.push({
      sourceId,
      awardId,
      recipientName,
      recipientUei: text(result['Recipient UEI']),
      parentName: null,
      parentUei: null,
      amount: money(result['Award Amount']),
      awardingAgency: text(result['Awarding Agency']),
      awardingSubAgency: text(result['Awarding Sub Agency']),
      awardDate: isoDay(result['Base Obligation Date']) ?? isoDay(result['Start Date']),
      startDate: isoDay(result['Start Date']),
      endDate: isoDay(result['End Date']),
      awardType: text(result['Contract Award Type']),
      description: text(result.Description),
      naicsCode: naics.code,
      naicsDescription: naics.description,
      pscCode: psc.code,
      pscDescription: psc.description,
      placeCity: text(place.city_name),
      placeState: text(place.state_code),
      placeCountry: text(place.location_country_code),
      origin: 'spending_by_award',
    });
  });
  return { page: Number(meta.page ?? 1), hasNext: meta.hasNext === true, awards, skipped };
}

/** `GET /api/v2/awards/{generated_unique_award_id}/` for a contract. */
export function parseAwardDetail(json: unknown): ContractAwardRecord {
  const award = obj(json);
  const sourceId = text(award.generated_unique_award_id);
  const awardId = text(award.piid);
  const recipient = obj(award.recipient);
  const recipientName = text(recipient.recipient_name);
  if (!sourceId || !awardId || !recipientName) {
    throw new UsaspendingFormatError(
      'not a contract award detail (no generated_unique_award_id, piid or recipient)',
    );
  }
  const agency = obj(award.awarding_agency);
  const period = obj(award.period_of_performance);
  const place = obj(award.place_of_performance);
  const naics = obj(obj(award.naics_hierarchy).base_code);
  const psc = obj(obj(award.psc_hierarchy).base_code);
  return {
    sourceId,
    awardId,
    recipientName,
    recipientUei: text(recipient.recipient_uei),
    parentName: text(recipient.parent_recipient_name),
    parentUei: text(recipient.parent_recipient_uei),
    amount: money(award.total_obligation),
    awardingAgency: text(obj(agency.toptier_agency).name),
    awardingSubAgency: text(obj(agency.subtier_agency).name),
    awardDate: isoDay(award.date_signed),
    startDate: isoDay(period.start_date),
    endDate: isoDay(period.end_date),
    awardType: text(award.type_description),
    description: text(award.description),
    naicsCode: text(naics.code),
    naicsDescription: text(naics.description),
    pscCode: text(psc.code),
    pscDescription: text(psc.description),
    placeCity: text(place.city_name),
    placeState: text(place.state_code),
    placeCountry: text(place.location_country_code),
    origin: 'award_detail',
  };
}

/**
 * One FPDS contract action (a Data Broker `detached_award_procurement` row: column names cut at
 * about 26 characters). Its key is the transaction's, since one award has many actions.
 */
export function parseFpdsRow(raw: unknown): ContractAwardRecord {
  const row = obj(raw);
  const sourceId = text(row.detached_award_proc_unique);
  const awardId = text(row.piid);
  const recipientName = text(row.awardee_or_recipient_legal);
  if (!sourceId || !awardId || !recipientName) {
    throw new UsaspendingFormatError('not an FPDS row (no detached_award_proc_unique, piid or recipient)');
  }
  return {
    sourceId: `FPDS_${sourceId}`,
    awardId,
    recipientName,
    recipientUei: text(row.awardee_or_recipient_uei),
    parentName: text(row.ultimate_parent_legal_enti)?.replace(/\s{2,}/g, ' ') ?? null,
    parentUei: text(row.ultimate_parent_uei),
    amount: money(row.federal_action_obligation),
    awardingAgency: text(row.awarding_agency_name),
    awardingSubAgency: text(row.awarding_sub_tier_agency_n),
    awardDate: isoDay(row.action_date),
    startDate: isoDay(row.period_of_performance_star),
    endDate: isoDay(row.period_of_performance_curr),
    awardType: text(row.contract_award_type_desc),
    description: text(row.award_description),
    naicsCode: text(row.naics),
    naicsDescription: text(row.naics_description),
    pscCode: text(row.product_or_service_code),
    pscDescription: text(row.product_or_service_co_desc),
    placeCity: text(row.place_of_perform_city_name),
    placeState: text(row.place_of_perform_state_code),
    placeCountry: text(row.place_of_perform_country_c),
    origin: 'fpds',
  };
}

/** A search row completed by its detail: the detail's fields win where it has them. */
export function mergeAwardDetail(row: ContractAwardRecord, detail: ContractAwardRecord): ContractAwardRecord {
  const merged: ContractAwardRecord = { ...row };
  for (const key of Object.keys(detail) as Array<keyof ContractAwardRecord>) {
    const value = detail[key];
    if (value !== null && key !== 'origin') (merged as unknown as Record<string, unknown>)[key] = value;
  }
  merged.origin = 'award_detail';
  return merged;
}
