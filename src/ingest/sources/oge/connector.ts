// OGE 278-T periodic transaction reports of executive-branch officials, from the listing at
// `{base}{indexPath}` (see listing.ts for what it may be). The filer is known only once the PDF
// is read ("Criswell, Deanne", position, agency): file names are a mirror's, not OGE's.
import type { ListingValidators } from '../../fetch/conditional.js';
import type { FetchedDocument, HttpClient } from '../../fetch/http-client.js';
import {
  type Connector,
  ConnectorError,
  type ListedDocument,
  type Listing,
  type ParseOptions,
} from '../connector.js';
import type { ParsedDocument } from '../document.js';
import { looseFile } from '../loose-file.js';
import { oneReport } from '../one-report.js';
import { OgeListingError, parseOgeListing } from './listing.js';
import { ogeLooseFiles } from './loose-file.js';

export class OgeConnector implements Connector {
  readonly name = 'oge';
  readonly source = 'oge';

  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
    private readonly indexPath: string,
  ) {}

  get indexUrl(): string {
    return `${this.baseUrl}${this.indexPath}`;
  }

  async list(
    since: string,
    _now: Date,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): Promise<Listing> {
    const url = this.indexUrl;
    const response = await this.http.getListing(url, validators, { signal });
    // Not changed since it was last read whole: every document it lists is recorded already.
    if (response.status === 304) return { documents: [], ignored: 0, notes: [] };
    let entries: ReturnType<typeof parseOgeListing>;
    try {
      entries = parseOgeListing(response.body.toString('utf8'), response.url || url);
    } catch (error) {
      if (error instanceof OgeListingError) throw new ConnectorError(`${url}: ${error.message}`);
      throw error;
    }
    const notes: string[] = [];
    if (entries.every((entry) => entry.filedDate === null)) {
      notes.push('the listing gives no dates: every listed document is taken, whatever --since says');
    }
    const documents: ListedDocument[] = entries
      .filter((entry) => entry.filedDate === null || entry.filedDate >= since)
      .map((entry) => ({
        source: this.source,
        docId: entry.fileName,
        url: entry.url,
        kind: 'PTR',
        title: entry.label,
        filedDate: entry.filedDate,
        filer: null,
        filerName: entry.filer,
        isPaper: false,
        isAmendment: false,
        known: null,
      }));
    return { documents, ignored: 0, notes };
  }

  fetchDocument(document: ListedDocument, signal?: AbortSignal): Promise<FetchedDocument> {
    if (!document.url) throw new ConnectorError(`OGE document ${document.docId} has no URL`);
    return this.http.get(document.url, { signal });
  }

  async parse(document: ListedDocument, bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
    return oneReport(document, await ogeLooseFiles.read(looseFile(bytes, options.pdfText)));
  }
}
