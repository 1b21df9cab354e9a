// Storing one contract award: match the recipient (then its parent) to a company, upsert on the
// award key, link the name and UEI in the company identity table, and emit contract.awarded for
// an award seen the first time — in the caller's transaction.
import type { Kysely } from 'kysely';
import { normalizeIdentifier } from '../../../market/company-links.js';
import type { CompanyMatcher } from '../../../market/company-match.js';
import { toContractResource } from '../../../resources/contract.js';
import { saveCompanyLinks } from '../../../storage/repositories/company-links.js';
import {
  type ContractWrite,
  findContractAward,
  upsertContractAward,
} from '../../../storage/repositories/contracts.js';
import type { Database } from '../../../storage/schema.js';
import { emitTypedEvent, eventFor } from '../../../webhooks/events.js';
import type { RecordStore, StoredRecord } from '../record-connector.js';
import { contentHash, linkName } from '../record-rows.js';
import type { ContractAwardRecord } from './award.js';

export class ContractRecordStore implements RecordStore<ContractAwardRecord> {
  constructor(
    private readonly matcher: CompanyMatcher,
    /** False for data-set loads (fixtures, benchmarks) that must not fill the webhook outbox. */
    private readonly emitEvents = true,
  ) {}

  async store(
    db: Kysely<Database>,
    record: ContractAwardRecord,
    rawSha256: string,
    now: Date,
  ): Promise<StoredRecord> {
    const match = this.matcher.match(record.recipientName, record.parentName);
    const unmatchedName = match ? null : record.recipientName;
    const stamp = now.toISOString();
    const { id, outcome } = await upsertContractAward(db, contractWrite(record, match, rawSha256), stamp);
    if (outcome === 'unchanged') return { outcome, emitted: false, unmatchedName };
    await linkName(db, record.recipientName, match, stamp, 'usaspending');
    const uei = record.recipientUei ? normalizeIdentifier('uei', record.recipientUei) : null;
    if (uei && match) {
      await saveCompanyLinks(
        db,
        [
          {
            identifier_kind: 'uei',
            identifier_value: uei,
            ticker: match.ticker,
            display_name: record.recipientName,
            method: match.method,
            confidence: match.confidence,
            source: 'usaspending',
          },
        ],
        stamp,
      );
    }
    if (outcome !== 'new' || !this.emitEvents) return { outcome, emitted: false, unmatchedName };
    const row = await findContractAward(db, id);
    if (!row) return { outcome, emitted: false, unmatchedName };
    const emitted = await emitTypedEvent(db, eventFor('contract.awarded', toContractResource(row)), stamp);
    return { outcome, emitted, unmatchedName };
  }
}

export function contractWrite(
  record: ContractAwardRecord,
  match: ReturnType<CompanyMatcher['match']>,
  rawSha256: string | null,
): ContractWrite {
  const columns = {
    award_key: record.sourceId,
    award_id: record.awardId,
    recipient_name: record.recipientName,
    recipient_uei: record.recipientUei,
    parent_name: record.parentName,
    parent_uei: record.parentUei,
    amount: record.amount,
    awarding_agency: record.awardingAgency,
    awarding_sub_agency: record.awardingSubAgency,
    award_date: record.awardDate,
    start_date: record.startDate,
    end_date: record.endDate,
    award_type: record.awardType,
    description: record.description,
    naics_code: record.naicsCode,
    naics_description: record.naicsDescription,
    psc_code: record.pscCode,
    psc_description: record.pscDescription,
    place_city: record.placeCity,
    place_state: record.placeState,
    place_country: record.placeCountry,
    ticker: match?.ticker ?? null,
    match_method: match?.method ?? null,
    match_confidence: match?.confidence ?? null,
    origin: record.origin,
  };
  return { ...columns, content_hash: contentHash(columns), raw_sha256: rawSha256 };
}
