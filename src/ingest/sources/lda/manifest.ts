// The Senate LDA's lobbying filings (see source.ts for how they are read).
import type { RecordsManifest } from '../manifest.js';

export const lobbyingManifest = {
  name: 'lobbying',
  title: 'Senate LDA lobbying filings (API and bulk files)',
  kind: 'records',
  stateKey: 'lda',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_LDA_BASE_URL',
      default: 'https://lda.senate.gov',
      description: 'the LDA site: /api/v1/filings/ and the bulk downloads',
    },
  },
  baseUrlSetting: 'baseUrl',
  // The quarterly bulk files are zips of XML, each read whole.
  maxDocumentMb: 250,
  events: ['lobbying.filed'],
} as const satisfies RecordsManifest;
