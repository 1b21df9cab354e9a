// The Senate eFD site as a source: its search lists the periodic transaction reports behind a
// terms-of-use session, each electronic report is an HTML page (connector.ts) read by ptr-page.ts;
// paper filings are page images, recorded as such without a fetch. An "(Amendment N)" report
// restates the report filed on the date in its title.
import { tradeDocumentsSource } from '../source-definition.js';
import { SenateConnector } from './connector.js';
import { senateLooseFiles } from './loose-file.js';
import { senateManifest } from './manifest.js';
import { senateReplay } from './replay.js';

export const definition = tradeDocumentsSource({
  manifest: senateManifest,
  connector: ({ http, settings }) => new SenateConnector(http, settings.baseUrl),
  amendments: 'restated-report',
  looseFiles: senateLooseFiles,
  replay: senateReplay,
});
