// How fresh each trade-documents source is, for /status: the newest document its index listed,
// what is still waiting (to be fetched, read again, OCR'd, reviewed) and when its newest trade
// was stored.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

export interface SourceFreshness {
  source: string;
  /** The document listed last (ties: the latest filing date, then the highest id). */
  newestDocument: { id: string; filedDate: string | null; listedAt: string } | null;
  waiting: {
    /** Listed in the index, not fetched yet. */
    fetch: number;
    /** Listed, but fetching or reading it failed: read again by the next poll. */
    parse: number;
    /** Stored without usable text: waiting for OCR (filings with parse status needs_ocr). */
    ocr: number;
    /** Read, but a value needs a person's check (parse status needs_review). */
    review: number;
    /** Rows of those documents waiting for a person's decision (`dcledger review`). */
    review_rows: number;
  };
  /** When the source's newest trade was stored. */
  newestTradeAt: string | null;
}

export async function sourceFreshness(db: Kysely<Database>): Promise<SourceFreshness[]> {
  const [listed, flagged, reviewRows, newestTrades, sources] = await Promise.all([
    db
      .selectFrom('ingest_documents')
      .select([
        'source',
        sql<number>`sum(case when attempts = 0 then 1 else 0 end)`.as('fresh'),
        sql<number>`sum(case when attempts > 0 then 1 else 0 end)`.as('retried'),
      ])
      .where('status', '=', 'listed')
      .groupBy('source')
      .execute(),
    db
      .selectFrom('ingest_documents as d')
      .innerJoin('filings as f', 'f.id', 'd.filing_id')
      .select(['d.source', 'f.parse_status', sql<number>`count(*)`.as('n')])
      .where('f.parse_status', 'in', ['needs_ocr', 'needs_review'])
      .groupBy(['d.source', 'f.parse_status'])
      .execute(),
    db
      .selectFrom('review_items as r')
      .innerJoin('ingest_documents as d', 'd.filing_id', 'r.filing_id')
      .select(['d.source', sql<number>`count(*)`.as('n')])
      .where('r.status', '=', 'pending')
      .groupBy('d.source')
      .execute(),
    db
      .selectFrom('ingest_documents as d')
      .innerJoin('trades as t', 't.filing_id', 'd.filing_id')
      .select(['d.source', sql<string | null>`max(t.created_at)`.as('newest')])
      .groupBy('d.source')
      .execute(),
    db.selectFrom('ingest_documents').select('source').distinct().orderBy('source').execute(),
  ]);
  const result: SourceFreshness[] = [];
  for (const { source } of sources) {
    const newest = await db
      .selectFrom('ingest_documents as d')
      .innerJoin('filings as f', 'f.id', 'd.filing_id')
      .select(['d.source_doc_id', 'd.listed_at', 'f.filed_date'])
      .where('d.source', '=', source)
      .orderBy('d.listed_at', 'desc')
      // Undated documents last, on both databases (PostgreSQL sorts nulls first when descending).
      .orderBy(sql`case when f.filed_date is null then 1 else 0 end`)
      .orderBy('f.filed_date', 'desc')
      .orderBy('d.source_doc_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const counts = listed.find((row) => row.source === source);
    const flaggedCount = (status: string) =>
      Number(flagged.find((row) => row.source === source && row.parse_status === status)?.n ?? 0);
    result.push({
      source,
      newestDocument: newest
        ? { id: newest.source_doc_id, filedDate: newest.filed_date, listedAt: newest.listed_at }
        : null,
      waiting: {
        fetch: Number(counts?.fresh ?? 0),
        parse: Number(counts?.retried ?? 0),
        ocr: flaggedCount('needs_ocr'),
        review: flaggedCount('needs_review'),
        review_rows: Number(reviewRows.find((row) => row.source === source)?.n ?? 0),
      },
      newestTradeAt: newestTrades.find((row) => row.source === source)?.newest ?? null,
    });
  }
  return result;
}
