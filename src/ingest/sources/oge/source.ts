// OGE 278-T reports of executive-branch officials as a source. OGE publishes no machine-readable
// index, so the connector reads whatever listing of their PDFs the operator points it at
// (listing.ts); each PDF is read by t278-pdf.ts.
import { tradeDocumentsSource } from '../source-definition.js';
import { OgeConnector } from './connector.js';
import { ogeLooseFiles } from './loose-file.js';
import { ogeManifest } from './manifest.js';
import { ogeReplay } from './replay.js';

export const OGE_NOT_CONFIGURED =
  'OGE publishes no machine-readable index of 278-T reports: set DCLEDGER_OGE_BASE_URL (and DCLEDGER_OGE_INDEX_PATH) to a listing of their PDFs';

export const definition = tradeDocumentsSource({
  manifest: ogeManifest,
  connector: ({ http, settings }) =>
    settings.baseUrl
      ? new OgeConnector(http, settings.baseUrl, settings.indexPath)
      : { skipped: OGE_NOT_CONFIGURED },
  amendments: 'none',
  looseFiles: ogeLooseFiles,
  replay: ogeReplay,
});
