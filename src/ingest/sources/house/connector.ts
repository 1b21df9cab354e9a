// The House Clerk: one index per year, `/public_disc/financial-pdfs/{YEAR}FD.zip`, listing every
// disclosure (name, FilingType, seat, filing date, DocID), and each PTR as a PDF at
// `/public_disc/ptr-pdfs/{YEAR}/{DocID}.pdf`. Only PTRs (FilingType P) are taken; e-filed ones have
// 8-digit DocIDs and a text layer, paper ones (7 digits or fewer) are scans that need OCR.

import type { ListingValidators } from '../../fetch/conditional.js';
import type { FetchedDocument, HttpClient } from '../../fetch/http-client.js';
import type { Connector, ListedDocument, Listing, ParseOptions } from '../connector.js';
import { ConnectorError } from '../connector.js';
import { type ParsedDocument, unreadDocument } from '../document.js';
import { looseFile } from '../loose-file.js';
import { oneReport } from '../one-report.js';
import { HouseIndexFormatError, type HouseIndexRow, parseHouseIndexZip } from './index-file.js';
import { houseLooseFiles } from './loose-file.js';

export class HouseConnector implements Connector {
  readonly name = 'house';
  readonly source = 'house_clerk';

  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  indexUrl(year: number): string {
    return `${this.baseUrl}/public_disc/financial-pdfs/${year}FD.zip`;
  }

  async list(
    since: string,
    now: Date,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): Promise<Listing> {
    const first = Number(since.slice(0, 4));
    const last = now.getUTCFullYear();
    const documents: ListedDocument[] = [];
    const notes: string[] = [];
    let ignored = 0;
    for (let year = first; year <= last; year++) {
      const url = this.indexUrl(year);
      // The Clerk publishes a year's index once the year has filings; until then it answers 404.
      const response = await this.http.getListing(url, validators, { acceptStatuses: [404], signal });
      if (response.status === 404) {
        notes.push(`no ${year} index yet (${url} answered 404)`);
        continue;
      }
      // Not changed since it was last read whole: every PTR it lists is recorded already.
      if (response.status === 304) continue;
      let rows: HouseIndexRow[];
      try {
        rows = parseHouseIndexZip(new Uint8Array(response.body));
      } catch (error) {
        if (error instanceof HouseIndexFormatError) throw new ConnectorError(`${url}: ${error.message}`);
        throw error;
      }
      for (const row of rows) {
        if (!row.is_ptr) {
          ignored += 1;
          continue;
        }
        // Rows without a filing date are kept when their year is in range: the date is unknown, not old.
        if (row.filing_date !== null && row.filing_date < since) continue;
        documents.push(this.listed(row, year));
      }
    }
    return { documents, ignored, notes };
  }

  private listed(row: HouseIndexRow, indexYear: number): ListedDocument {
    const year = row.year ?? indexYear;
    return {
      source: this.source,
      docId: row.doc_id,
      url: `${this.baseUrl}/public_disc/ptr-pdfs/${year}/${row.doc_id}.pdf`,
      kind: 'PTR',
      title: row.filing_type_label,
      filedDate: row.filing_date,
      filer: {
        name: row.filer_name,
        firstName: row.first || null,
        lastName: row.last || null,
        seat: row.state_district,
        office: null,
      },
      filerName: [row.prefix, row.filer_name].filter(Boolean).join(' '),
      isPaper: row.is_paper,
      // The index does not say; amended rows are marked inside the PDF.
      isAmendment: false,
      known: null,
    };
  }

  fetchDocument(document: ListedDocument, signal?: AbortSignal): Promise<FetchedDocument> {
    if (!document.url) throw new ConnectorError(`House document ${document.docId} has no URL`);
    return this.http.get(document.url, { signal });
  }

  /** A PTR prints its DocID ("Filing ID #…"): a PDF naming another is not the document listed. */
  async parse(document: ListedDocument, bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
    const report = oneReport(document, await houseLooseFiles.read(looseFile(bytes, options.pdfText)));
    const printedId = report.filing.source_doc_id;
    if (printedId === null || printedId === document.docId) return report;
    return unreadDocument(
      this.source,
      'unknown',
      'failed',
      `the PDF says "Filing ID #${printedId}", but the index lists it as ${document.docId}`,
    );
  }
}
