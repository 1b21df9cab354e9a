// USAspending as a record source: contract awards acted on, or loaded or changed, since `since`, from
//   POST <base>/api/v2/search/spending_by_award/   pages of award rows (page numbers, hasNext)
//   GET  <base>/api/v2/awards/<award key>/         each award's detail (parent, NAICS, place);
//                                                  a detail that is not there (404) leaves the row as is.
import type { HttpClient } from '../../fetch/http-client.js';
import { MAX_PAGES, type RecordConnector, type RecordPage, RecordSourceError } from '../record-connector.js';
import {
  type ContractAwardRecord,
  mergeAwardDetail,
  parseAwardDetail,
  parseSpendingByAward,
  UsaspendingFormatError,
} from './award.js';

export const SPENDING_BY_AWARD_PATH = '/api/v2/search/spending_by_award/';
export const AWARD_DETAIL_PATH = '/api/v2/awards/';
/** The contract award type codes: A BPA call, B purchase order, C delivery order, D definitive contract. */
export const CONTRACT_TYPE_CODES = ['A', 'B', 'C', 'D'] as const;
export const SEARCH_FIELDS = [
  'Award ID',
  'Recipient Name',
  'Recipient UEI',
  'Award Amount',
  'Description',
  'Start Date',
  'End Date',
  'Base Obligation Date',
  'Awarding Agency',
  'Awarding Sub Agency',
  'Contract Award Type',
  'NAICS',
  'PSC',
  'Primary Place of Performance',
  'generated_internal_id',
] as const;

export class UsaspendingConnector implements RecordConnector<ContractAwardRecord> {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
    private readonly pageSize = 100,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** The search body for one page (what the replay server and the real API both read). */
  searchBody(since: string, until: string, page: number) {
    return {
      filters: {
        award_type_codes: [...CONTRACT_TYPE_CODES],
        // Two periods, either of which may match: awards acted on in the window (the API's default
        // comparison) and awards whose record was last modified in it. An action reported late
        // carries an old action date but a recent last-modified date, so the second period finds it
        // when the first, from the cursor, no longer can; the first keeps every award the search
        // found before. One search: the API ORs the periods, so it costs no more requests.
        time_period: [
          { start_date: since, end_date: until },
          { start_date: since, end_date: until, date_type: 'last_modified_date' },
        ],
      },
      fields: [...SEARCH_FIELDS],
      page,
      limit: this.pageSize,
      sort: 'Award Amount',
      order: 'desc',
      subawards: false,
    };
  }

  async *pages(
    since: string,
    now: Date,
    signal?: AbortSignal,
  ): AsyncIterable<RecordPage<ContractAwardRecord>> {
    const until = now.toISOString().slice(0, 10);
    const url = `${this.base}${SPENDING_BY_AWARD_PATH}`;
    // An award can come back on two pages (or twice on one, with different modification dates):
    // the first row wins, so every run stores the same thing.
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const document = await this.http.request(url, {
        method: 'POST',
        json: this.searchBody(since, until, page),
        signal,
      });
      let parsed: ReturnType<typeof parseSpendingByAward>;
      try {
        parsed = parseSpendingByAward(JSON.parse(document.body.toString('utf8')));
      } catch (error) {
        if (error instanceof UsaspendingFormatError || error instanceof SyntaxError) {
          throw new RecordSourceError(`${url} page ${page}: ${error.message}`);
        }
        throw error;
      }
      const awards: ContractAwardRecord[] = [];
      const skipped = parsed.skipped.map((skip) => ({
        id: `${url} page ${page} row ${skip.row}`,
        reason: skip.reason,
      }));
      for (const award of parsed.awards) {
        if (seen.has(award.sourceId)) {
          skipped.push({
            id: award.sourceId,
            reason: 'listed again (an earlier row of this run was stored)',
          });
          continue;
        }
        seen.add(award.sourceId);
        awards.push(await this.withDetail(award, signal));
      }
      yield {
        label: `${url} page ${page}`,
        bytes: document.body,
        records: awards,
        skipped,
        total: null,
      };
      if (!parsed.hasNext) return;
    }
  }

  private async withDetail(award: ContractAwardRecord, signal?: AbortSignal): Promise<ContractAwardRecord> {
    const url = `${this.base}${AWARD_DETAIL_PATH}${encodeURIComponent(award.sourceId)}/`;
    const document = await this.http.get(url, { signal, acceptStatuses: [404] });
    if (document.status === 404) return award;
    try {
      return mergeAwardDetail(award, parseAwardDetail(JSON.parse(document.body.toString('utf8'))));
    } catch (error) {
      if (error instanceof UsaspendingFormatError || error instanceof SyntaxError) {
        throw new RecordSourceError(`${url}: ${error.message}`);
      }
      throw error;
    }
  }
}
