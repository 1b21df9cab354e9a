// USAspending as a source of contract awards: award searches and each award's detail
// (connector.ts), stored with the recipient's company match and a contract.awarded event for an
// award seen the first time (store.ts).
import { recordsSource } from '../source-definition.js';
import type { ContractAwardRecord } from './award.js';
import { UsaspendingConnector } from './connector.js';
import { contractsManifest } from './manifest.js';
import { usaspendingReplay } from './replay.js';
import { ContractRecordStore } from './store.js';

export const definition = recordsSource<
  typeof contractsManifest,
  ContractAwardRecord,
  { id: string; url: string | null }
>({
  manifest: contractsManifest,
  feed: ({ http, settings }) => {
    const connector = new UsaspendingConnector(http, settings.baseUrl);
    return { pages: (since, now, signal) => connector.pages(since, now, signal) };
  },
  store: ({ matcher }) => new ContractRecordStore(matcher),
  matchesCompanies: true,
  replay: usaspendingReplay,
});
