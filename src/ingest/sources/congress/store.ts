// Storing one bill read from congress.gov: the bill and its parts upserted (each part replaced
// whole only when it changed), in the caller's transaction. Bills have no webhook event.
import type { Kysely } from 'kysely';
import type { Database } from '../../../storage/schema.js';
import { saveBillDetails } from '../../bills/import.js';
import type { RecordStore, StoredRecord } from '../record-connector.js';
import type { BillDetail } from './bill-status.js';

export class BillRecordStore implements RecordStore<BillDetail> {
  async store(
    db: Kysely<Database>,
    record: BillDetail,
    _rawSha256: string,
    now: Date,
  ): Promise<StoredRecord> {
    const saved = await saveBillDetails(db, [record], now);
    const outcome = saved.inserted.length > 0 ? 'new' : saved.updated.length > 0 ? 'updated' : 'unchanged';
    return { outcome, emitted: false, unmatchedName: null };
  }
}
