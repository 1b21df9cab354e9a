// The Senate LDA as a source of lobbying filings: the REST API's pages and the quarterly bulk
// files (connector.ts), each filing stored with its company match and a lobbying.filed event for a
// filing seen the first time (store.ts).
import { recordsSource } from '../source-definition.js';
import { LdaConnector } from './connector.js';
import type { LobbyingFilingRecord } from './filing.js';
import { lobbyingManifest } from './manifest.js';
import { ldaReplay } from './replay.js';
import { LobbyingRecordStore } from './store.js';

export const definition = recordsSource<
  typeof lobbyingManifest,
  LobbyingFilingRecord,
  { id: string; url: string | null }
>({
  manifest: lobbyingManifest,
  feed: ({ http, settings }) => {
    const connector = new LdaConnector(http, settings.baseUrl);
    return { pages: (since, now, signal, validators) => connector.pages(since, now, signal, validators) };
  },
  store: ({ matcher }) => new LobbyingRecordStore(matcher),
  matchesCompanies: true,
  replay: ldaReplay,
});
