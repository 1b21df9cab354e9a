// The Senate eFD site (efdsearch.senate.gov), a Django app behind a terms-of-use agreement:
//   1. GET /search/home/ gives the agreement form with a CSRF token (and a csrftoken cookie);
//   2. POST /search/home/ with the token and prohibition_agreement=1 starts a session (cookie);
//   3. POST /search/report/data/ (DataTables: start, length, report_types=[11] for PTRs,
//      submitted_start_date ...) answers JSON {draw, recordsTotal, recordsFiltered, result, data};
//   4. GET /search/view/ptr/<uuid>/ is one electronic PTR page; /search/view/paper/<uuid>/ a paper
//      filing shown as page images (`img.filingImage`, served from the site's media host): the
//      connector fetches the images and hands them on as one bundle, which the OCR stage reads.
// A session that lapses sends every request back to the agreement page; the connector agrees
// again once and retries.
import { decodeEntities } from '../../../domain/asset.js';
import type { ListingValidators } from '../../fetch/conditional.js';
import type { FetchedDocument, HttpClient } from '../../fetch/http-client.js';
import { decodePageImages, encodePageImages, isPageImages } from '../../ocr/page-images.js';
import {
  type Connector,
  ConnectorError,
  type ListedDocument,
  type Listing,
  type ParseOptions,
  type StoredListing,
  UnfetchableDocumentError,
} from '../connector.js';
import { emptyFiling, type ParsedDocument, unreadDocument } from '../document.js';
import { looseFile } from '../loose-file.js';
import { oneReport } from '../one-report.js';
import { senateLooseFiles } from './loose-file.js';
import { paperImageUrls } from './ptr-page.js';
import { parseSenateSearchResults, type SenateSearchPage, type SenateSearchRow } from './search-results.js';

/** eFD's report type code for Periodic Transaction Reports. */
const PTR_REPORT_TYPE = '[11]';
const PAGE_SIZE = 100;
/** The content type of a paper filing's bundle of page images (not a type the site sends). */
const PAGE_IMAGES_TYPE = 'application/x-dcledger-page-images';

export class SenateConnector implements Connector {
  readonly name = 'senate';
  readonly source = 'senate_efd';
  private agreed = false;

  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  /** The agreement flow; returns the CSRF token the search form posts. */
  async agree(signal?: AbortSignal): Promise<string> {
    const home = `${this.baseUrl}/search/home/`;
    const landing = await this.http.get(home, { signal });
    const formToken = csrfFromForm(landing.body.toString('utf8'));
    if (!formToken) throw new ConnectorError(`${home}: no csrfmiddlewaretoken in the agreement form`);
    await this.http.request(home, {
      method: 'POST',
      form: { csrfmiddlewaretoken: formToken, prohibition_agreement: '1' },
      headers: { referer: home },
      signal,
    });
    this.agreed = true;
    return this.csrfToken() ?? formToken;
  }

  private csrfToken(): string | undefined {
    const host = new URL(this.baseUrl).host;
    return this.http.cookie(host, 'csrftoken') ?? this.http.cookie(host, 'csrf');
  }

  async list(
    since: string,
    _now: Date,
    signal?: AbortSignal,
    _validators?: ListingValidators,
    stored?: StoredListing,
  ): Promise<Listing> {
    const first = await this.searchPage(0, since, signal);
    const rows: SenateSearchRow[] = [...first.rows];
    const notes: string[] = [];
    const counted = first.records_filtered;
    const more = counted !== null && first.rows.length > 0 && first.rows.length < counted;
    // The search is a POST and carries no validators; its count of the window is what tells an
    // unchanged listing. The first page's rows are diffed by id all the same.
    const unchanged =
      more && stored !== undefined && !stored.wholeReadDue && (await stored.countSince(since)) === counted;
    if (unchanged) {
      notes.push(
        `the search counts ${counted} reports filed since ${since}, as many as are stored: its other pages were not read`,
      );
    } else {
      for (let page = first, start = first.rows.length; !lastPage(page, start); ) {
        page = await this.searchPage(start, since, signal);
        rows.push(...page.rows);
        start += page.rows.length;
      }
    }
    const documents: ListedDocument[] = [];
    const seen = new Set<string>();
    let ignored = 0;
    for (const row of rows) {
      if (!row.is_ptr || !row.report_id || !row.report_path || (row.report_kind !== 'ptr' && !row.is_paper)) {
        ignored += 1;
        continue;
      }
      if (seen.has(row.report_id)) continue;
      seen.add(row.report_id);
      if (row.filed_date !== null && row.filed_date < since) continue;
      documents.push(this.listed(row));
    }
    return { documents, ignored, notes, partial: unchanged };
  }

  private async searchPage(start: number, since: string, signal?: AbortSignal) {
    const url = `${this.baseUrl}/search/report/data/`;
    for (let attempt = 0; ; attempt++) {
      const token = this.agreed ? (this.csrfToken() ?? (await this.agree(signal))) : await this.agree(signal);
      const response = await this.http.request(url, {
        method: 'POST',
        form: searchForm(start, since, token),
        headers: { referer: `${this.baseUrl}/search/`, 'x-csrftoken': token, accept: 'application/json' },
        acceptStatuses: [403],
        signal,
      });
      const json = parseJson(response.body.toString('utf8'));
      if (response.status === 200 && json !== undefined) {
        try {
          return parseSenateSearchResults(json);
        } catch (error) {
          throw new ConnectorError(`${url}: ${(error as Error).message}`);
        }
      }
      // Not JSON (the agreement page again) or 403 (CSRF refused): the session lapsed.
      this.agreed = false;
      if (attempt >= 1) {
        throw new ConnectorError(
          `${url}: the search did not answer JSON after agreeing to the terms (status ${response.status})`,
        );
      }
    }
  }

  private listed(row: SenateSearchRow): ListedDocument {
    return {
      source: this.source,
      docId: row.report_id ?? '',
      url: `${this.baseUrl}${row.report_path}`,
      kind: 'PTR',
      title: row.report_title,
      filedDate: row.filed_date,
      filer: {
        name: row.filer_name,
        firstName: row.first_name || null,
        lastName: row.last_name || null,
        seat: null,
        office: row.office,
      },
      filerName: row.filer_name,
      isPaper: row.is_paper,
      isAmendment: row.is_amendment,
      known: null,
    };
  }

  /** A report page, or for a paper filing the bundle of its page images (read by the OCR stage). */
  async fetchDocument(document: ListedDocument, signal?: AbortSignal): Promise<FetchedDocument> {
    const url = document.url;
    if (!url) throw new ConnectorError(`eFD report ${document.docId} has nothing to fetch`);
    if (!document.isPaper) return this.sitePage(url, [], signal);
    const page = await this.sitePage(url, [404], signal);
    const unfetched = (why: string) =>
      new UnfetchableDocumentError({
        status: 'paper',
        reason: `eFD paper filing (${url}): ${why}, so its page images could not be fetched for OCR; its transactions need manual entry`,
      });
    if (page.status === 404) throw unfetched('its page answered 404');
    const imageUrls = paperImageUrls(page.body.toString('utf8'), page.url);
    if (imageUrls.length === 0) throw unfetched('its page shows no page image');
    // The bundle is one document: the images together stay within the source's document limit.
    const limit = this.http.maxBytes;
    const images: Uint8Array[] = [];
    let size = 0;
    for (const imageUrl of imageUrls) {
      const maxBytes = limit === undefined ? undefined : Math.max(0, limit - size);
      const image = await this.http.get(imageUrl, {
        signal,
        ...(maxBytes === undefined ? {} : { maxBytes }),
      });
      images.push(new Uint8Array(image.body));
      size += image.body.length;
    }
    return {
      url,
      status: 200,
      contentType: PAGE_IMAGES_TYPE,
      body: Buffer.from(encodePageImages(images)),
    };
  }

  /** A page of the site behind the agreement, agreeing again once when the session lapsed. */
  private async sitePage(
    url: string,
    acceptStatuses: readonly number[],
    signal?: AbortSignal,
  ): Promise<FetchedDocument> {
    if (!this.agreed) await this.agree(signal);
    const page = await this.http.get(url, { signal, acceptStatuses });
    if (!isAgreementPage(page.body.toString('utf8'))) return page;
    // The session lapsed and the site showed the terms instead of the report.
    await this.agree(signal);
    const again = await this.http.get(url, { signal, acceptStatuses });
    if (isAgreementPage(again.body.toString('utf8'))) {
      throw new ConnectorError(`${url}: the site keeps answering with the terms-of-use agreement`);
    }
    return again;
  }

  async parse(document: ListedDocument, bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
    if (isPageImages(bytes)) return paperFiling(document, decodePageImages(bytes).length);
    return oneReport(document, await senateLooseFiles.read(looseFile(bytes, options.pdfText)));
  }
}

/** A paper filing's page images, fetched: the OCR stage reads them as the Senate paper form. */
function paperFiling(document: ListedDocument, pages: number): ParsedDocument {
  return unreadDocument(
    'senate_efd',
    'senate_paper_ptr_images',
    'needs_ocr',
    `eFD paper filing: ${pages} page image(s), read by OCR`,
    emptyFiling({
      title: document.title,
      filer_name: document.filerName,
      filer_first_name: document.filer?.firstName ?? null,
      filer_last_name: document.filer?.lastName ?? null,
      filed_date: document.filedDate,
      is_amendment: document.isAmendment,
      is_paper: true,
    }),
  );
}

/** Whether the search has no rows past `start` (the rows read so far), by the page last answered. */
function lastPage(page: SenateSearchPage, start: number): boolean {
  const total = page.records_filtered ?? page.records_total;
  return page.rows.length === 0 || (total !== null && start >= total);
}

function searchForm(start: number, since: string, token: string): Record<string, string> {
  const [year, month, day] = since.split('-');
  return {
    start: String(start),
    length: String(PAGE_SIZE),
    report_types: PTR_REPORT_TYPE,
    filer_types: '[]',
    submitted_start_date: `${month}/${day}/${year} 00:00:00`,
    submitted_end_date: '',
    candidate_state: '',
    senator_state: '',
    office_id: '',
    first_name: '',
    last_name: '',
    csrfmiddlewaretoken: token,
  };
}

export function csrfFromForm(html: string): string | null {
  const input = /<input[^>]*name=["']csrfmiddlewaretoken["'][^>]*>/i.exec(html)?.[0];
  const value = input ? /value=["']([^"']*)["']/i.exec(input)?.[1] : undefined;
  return value ? decodeEntities(value) : null;
}

export function isAgreementPage(html: string): boolean {
  return /name=["']prohibition_agreement["']/i.test(html);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
