// Storing one LDA filing: match the client to a company, upsert on the filing UUID, record the
// name link in the company identity table, and emit lobbying.filed for a filing seen the first
// time — all in the caller's transaction, so the event exists exactly when the filing does.
import type { Kysely } from 'kysely';
import type { CompanyMatcher } from '../../../market/company-match.js';
import { servedLobbyists, toLobbyingResource } from '../../../resources/lobbying.js';
import {
  findLobbyingFiling,
  findLobbyingFilingByUuid,
  type LobbyingWrite,
  upsertLobbyingFiling,
} from '../../../storage/repositories/lobbying.js';
import type { Database } from '../../../storage/schema.js';
import { emitTypedEvent, eventFor } from '../../../webhooks/events.js';
import type { RecordStore, StoredRecord } from '../record-connector.js';
import { contentHash, linkName } from '../record-rows.js';
import { filingAmount, type LobbyingFilingRecord } from './filing.js';

export class LobbyingRecordStore implements RecordStore<LobbyingFilingRecord> {
  constructor(
    private readonly matcher: CompanyMatcher,
    /** False for data-set loads (fixtures, benchmarks) that must not fill the webhook outbox. */
    private readonly emitEvents = true,
  ) {}

  async store(
    db: Kysely<Database>,
    record: LobbyingFilingRecord,
    rawSha256: string,
    now: Date,
  ): Promise<StoredRecord> {
    const match = this.matcher.match(record.clientName);
    const unmatchedName = match ? null : record.clientName;
    // The API is the maintained form of a filing: a bulk-file copy of a filing read from the API is not a change.
    if (record.origin === 'senate_bulk_xml') {
      const existing = await findLobbyingFilingByUuid(db, record.filingUuid);
      if (existing?.origin === 'lda_api') return { outcome: 'unchanged', emitted: false, unmatchedName };
    }
    const write = lobbyingWrite(record, match, rawSha256);
    const stamp = now.toISOString();
    const { id, outcome } = await upsertLobbyingFiling(db, write, stamp);
    if (outcome === 'unchanged') return { outcome, emitted: false, unmatchedName };
    await linkName(db, record.clientName, match, stamp, 'lda');
    if (outcome !== 'new' || !this.emitEvents) return { outcome, emitted: false, unmatchedName };
    const row = await findLobbyingFiling(db, id);
    if (!row) return { outcome, emitted: false, unmatchedName };
    const emitted = await emitTypedEvent(db, eventFor('lobbying.filed', toLobbyingResource(row)), stamp);
    return { outcome, emitted, unmatchedName };
  }
}

export function lobbyingWrite(
  record: LobbyingFilingRecord,
  match: ReturnType<CompanyMatcher['match']>,
  rawSha256: string | null,
): LobbyingWrite {
  const columns = {
    filing_uuid: record.filingUuid,
    filing_type: record.filingType,
    filing_type_display: record.filingTypeDisplay,
    filing_year: record.filingYear,
    filing_period: record.filingPeriod,
    no_activity: record.noActivity ? 1 : 0,
    registrant_id: record.registrantId,
    registrant_name: record.registrantName,
    registrant_description: record.registrantDescription,
    client_id: record.clientId,
    client_name: record.clientName,
    client_description: record.clientDescription,
    income: record.income,
    expenses: record.expenses,
    amount: filingAmount(record),
    posted_at: record.postedAt,
    filed_date: record.postedAt ? record.postedAt.slice(0, 10) : null,
    document_url: record.documentUrl,
    issues: JSON.stringify(record.issues),
    lobbyists: JSON.stringify(record.lobbyists),
    government_entities: JSON.stringify(record.governmentEntities),
    ticker: match?.ticker ?? null,
    match_method: match?.method ?? null,
    match_confidence: match?.confidence ?? null,
    origin: record.origin,
  };
  return {
    ...columns,
    lobbyists: JSON.stringify(servedLobbyists(record.lobbyists)),
    // Taken over the filing as read (the readers' lobbyist keys): a change of the stored form
    // does not make every stored filing look changed to the next ingest.
    content_hash: contentHash(columns),
    raw_sha256: rawSha256,
    issueCodes: record.issues.flatMap((issue) => (issue.code ? [issue.code] : [])),
  };
}
