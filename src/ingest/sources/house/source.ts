// The House Clerk as a source: the yearly index lists every disclosure, each periodic transaction
// report is a PDF (connector.ts), read by ptr-pdf.ts; rows marked "Amended" replace rows of an
// earlier report.
import { tradeDocumentsSource } from '../source-definition.js';
import { HouseConnector } from './connector.js';
import { houseLooseFiles } from './loose-file.js';
import { houseManifest } from './manifest.js';
import { houseReplay } from './replay.js';

export const definition = tradeDocumentsSource({
  manifest: houseManifest,
  connector: ({ http, settings }) => new HouseConnector(http, settings.baseUrl),
  amendments: 'amended-rows',
  looseFiles: houseLooseFiles,
  replay: houseReplay,
});
