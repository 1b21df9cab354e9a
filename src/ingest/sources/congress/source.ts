// congress.gov as a source of bills: the bills changed since the cursor and every part their
// answers link (congress-gov-connector.ts), each stored whole (store.ts). Bills have no event.

import { recordsSource } from '../source-definition.js';
import type { BillDetail } from './bill-status.js';
import { CongressGovConnector } from './congress-gov-connector.js';
import { billsManifest } from './manifest.js';
import { congressReplay } from './replay.js';
import { BillRecordStore } from './store.js';

export const definition = recordsSource<typeof billsManifest, BillDetail, { id: string; url: string | null }>(
  {
    manifest: billsManifest,
    feed: ({ http, settings }) => {
      const connector = new CongressGovConnector(http, settings.baseUrl, settings.apiKey ?? null);
      return { pages: (since, now, signal) => connector.pages(since, now, signal) };
    },
    store: () => new BillRecordStore(),
    matchesCompanies: false,
    replay: congressReplay,
  },
);
