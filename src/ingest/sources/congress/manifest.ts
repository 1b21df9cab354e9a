// congress.gov's bills (see source.ts for how they are read).
import type { RecordsManifest } from '../manifest.js';

export const billsManifest = {
  name: 'bills',
  title: 'congress.gov API v3 bills',
  kind: 'records',
  stateKey: 'congress-gov',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_CONGRESS_BASE_URL',
      default: 'https://api.congress.gov',
      description: 'the congress.gov API v3',
    },
    apiKey: {
      kind: 'secret',
      env: 'DCLEDGER_CONGRESS_API_KEY',
      description: 'a free api.data.gov key, sent in a header, never printed',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 25,
  events: [],
} as const satisfies RecordsManifest;
