// congress.gov API v3 as a record source of bills:
//   GET <base>/v3/bill?fromDateTime=<since>T00:00:00Z&sort=updateDate+asc&limit=250&format=json
//       the bills changed since the cursor, pages {bills, pagination: {count, next}} followed
//       through `next`;
//   GET <base>/v3/bill/<congress>/<type>/<number>?format=json
//       each bill's own answer, which links its actions, committees, cosponsors, subjects and
//       related bills by URL; every linked list is read (and its `next` pages) and merged.
// The API wants a key (api.data.gov): it goes in the X-Api-Key header, never in a URL, so it is
// neither archived nor printed. Links name api.congress.gov; they are followed on the configured
// base so a replay server or a mirror serves the whole walk. A bill whose own answer is missing
// (404) keeps what the list said of it (number, title, latest action) and is reported as skipped.
import type { FetchedDocument, HttpClient } from '../../fetch/http-client.js';
import { type Obj, obj } from '../parsed-values.js';
import { MAX_PAGES, type RecordConnector, type RecordPage, RecordSourceError } from '../record-connector.js';
import { type BillDetail, BillFileError, billId, mergeBillDetails, readBillDetails } from './bill-status.js';
import { billsManifest } from './manifest.js';

/** Where congress.gov serves its API: a key is needed there (a replay or a mirror may do without). */
const CONGRESS_GOV_BASE_URL = billsManifest.settings.baseUrl.default;

export const CONGRESS_GOV_BILLS_PATH = '/v3/bill';
/** The bill answer's links, in the order they are read. */
const LINKED_PARTS = ['actions', 'committees', 'cosponsors', 'subjects', 'relatedBills'] as const;
/** The API's largest page. */
const PAGE_SIZE = 250;

export class CongressGovConnector implements RecordConnector<BillDetail> {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
    private readonly apiKey: string | null,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** One page per bill: the bill's documents archived together, its merged detail stored. */
  async *pages(since: string, _now: Date, signal?: AbortSignal): AsyncIterable<RecordPage<BillDetail>> {
    if (!this.apiKey && this.base === CONGRESS_GOV_BASE_URL)
      throw new RecordSourceError(
        'congress.gov wants an API key: set DCLEDGER_CONGRESS_API_KEY (a free key from api.data.gov)',
      );
    const query = new URLSearchParams({
      fromDateTime: `${since}T00:00:00Z`,
      sort: 'updateDate+asc',
      limit: String(PAGE_SIZE),
      format: 'json',
    });
    const seen = new Set<string>();
    for await (const list of this.walk(`${this.base}${CONGRESS_GOV_BILLS_PATH}?${query}`, 'bills', signal)) {
      for (const entry of this.listEntries(list)) {
        if (seen.has(entry.key)) continue;
        seen.add(entry.key);
        const bill = await this.readBill(entry, signal);
        // The page is the bill: its own answer is its content (the list it came from is kept beside it).
        const [own, ...parts] = bill.documents;
        yield {
          label: bill.label,
          bytes: own ?? list.body,
          documents: own ? [list.body, ...parts] : [],
          records: bill.details,
          skipped: bill.skipped,
          total: list.total,
        };
        if (signal?.aborted) return;
      }
    }
  }

  /** The bills a list names; a new bill may have no title yet, so entries are read by number only. */
  private listEntries(list: ListPage): ListEntry[] {
    const data = obj(JSON.parse(list.body.toString('utf8')));
    if (!Array.isArray(data.bills))
      throw new RecordSourceError(`${list.url}: not a congress.gov list of bills`);
    return data.bills.flatMap((raw): ListEntry[] => {
      const entry = obj(raw);
      const congress = Number(entry.congress);
      const type = String(entry.type ?? '').toLowerCase();
      const number = String(entry.number ?? '');
      if (!Number.isInteger(congress) || !/^[a-z]+$/.test(type) || !/^\d+$/.test(number)) return [];
      // What the list says of the bill (its title, latest action) when it has a title.
      const fromList = readBillDetails(list.url, JSON.stringify({ bills: [entry] }))[0] ?? null;
      return [
        { key: billId(type, Number(number), congress), path: `${congress}/${type}/${number}`, fromList },
      ];
    });
  }

  private async readBill(
    entry: ListEntry,
    signal?: AbortSignal,
  ): Promise<{
    label: string;
    details: BillDetail[];
    documents: Buffer[];
    skipped: RecordPage<BillDetail>['skipped'];
  }> {
    const url = `${this.base}${CONGRESS_GOV_BILLS_PATH}/${entry.path}?format=json`;
    const answer = await this.get(url, signal, [404]);
    if (answer.status === 404) {
      const reason = entry.fromList
        ? "the bill's own answer is missing (404): kept what the list gives"
        : "the bill's own answer is missing (404) and the list gives no title yet";
      return {
        label: url,
        details: entry.fromList ? [entry.fromList] : [],
        documents: [],
        skipped: [{ id: entry.key, reason }],
      };
    }
    const own = this.read(answer)[0];
    if (!own) throw new RecordSourceError(`${url}: a bill answer without its number or title`);
    let detail = entry.fromList ? mergeBillDetails(entry.fromList, own) : own;
    const documents = [answer.body];
    const bill = obj(obj(JSON.parse(answer.body.toString('utf8'))).bill);
    for (const part of LINKED_PARTS) {
      const link = obj(bill[part]);
      if (typeof link.url !== 'string') continue;
      let partDetail: BillDetail | null = null;
      for await (const page of this.walk(this.onBase(link.url, 'limit'), part, signal)) {
        documents.push(page.body);
        for (const read of this.read(page)) partDetail = partDetail ? appendPage(partDetail, read) : read;
      }
      if (partDetail) detail = mergeBillDetails(detail, partDetail);
    }
    return { label: url, details: [detail], documents, skipped: [] };
  }

  private read(document: FetchedDocument): BillDetail[] {
    try {
      return readBillDetails(document.url, document.body.toString('utf8'));
    } catch (error) {
      if (error instanceof BillFileError) throw new RecordSourceError(error.message);
      throw error;
    }
  }

  /** A list and its `next` pages. */
  private async *walk(first: string, what: string, signal?: AbortSignal): AsyncIterable<ListPage> {
    let url: string | null = first;
    const seen = new Set<string>();
    for (let n = 0; url && n < MAX_PAGES; n++) {
      if (seen.has(url)) throw new RecordSourceError(`congress.gov's next link loops back to ${url}`);
      seen.add(url);
      const document = await this.get(url, signal);
      let page: Obj;
      try {
        page = obj(JSON.parse(document.body.toString('utf8')));
      } catch {
        throw new RecordSourceError(`${url}: not JSON (the ${what} list of the congress.gov API)`);
      }
      const pagination = obj(page.pagination);
      const total = typeof pagination.count === 'number' ? pagination.count : null;
      yield { ...document, total };
      url = typeof pagination.next === 'string' ? this.onBase(pagination.next) : null;
    }
  }

  private get(url: string, signal?: AbortSignal, acceptStatuses: readonly number[] = []) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    return this.http.get(url, { signal, headers, acceptStatuses });
  }

  /** A link the API gives, moved onto the configured base (same path and query). */
  private onBase(link: string, widen?: 'limit'): string {
    const parsed = new URL(link, `${this.base}/`);
    if (
      !parsed.pathname.startsWith(`${CONGRESS_GOV_BILLS_PATH}/`) &&
      parsed.pathname !== CONGRESS_GOV_BILLS_PATH
    )
      throw new RecordSourceError(`a congress.gov link outside the bills: ${link}`);
    if (widen && !parsed.searchParams.has('limit')) parsed.searchParams.set('limit', String(PAGE_SIZE));
    parsed.searchParams.delete('api_key');
    return `${this.base}${parsed.pathname}${parsed.search}`;
  }
}

interface ListEntry {
  /** The bill's id as stored (hr21-117). */
  key: string;
  /** Its path under /v3/bill (117/hr/21). */
  path: string;
  /** What the list entry says of it, when it has a title. */
  fromList: BillDetail | null;
}

interface ListPage extends FetchedDocument {
  total: number | null;
}

/** The next page of one linked list: its rows follow the earlier pages' rows. */
function appendPage(a: BillDetail, b: BillDetail): BillDetail {
  const join = <T>(x: T[] | null, y: T[] | null): T[] | null => (x && y ? [...x, ...y] : (y ?? x));
  return {
    ...mergeBillDetails(a, b),
    committees: join(a.committees, b.committees),
    actions: join(a.actions, b.actions),
    subjects: join(a.subjects, b.subjects),
    relatedBills: join(a.relatedBills, b.relatedBills),
    recordedVotes: join(a.recordedVotes, b.recordedVotes),
  };
}
