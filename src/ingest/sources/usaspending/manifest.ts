// USAspending's contract awards (see source.ts for how they are read).
import type { RecordsManifest } from '../manifest.js';

export const contractsManifest = {
  name: 'contracts',
  title: 'USAspending contract awards',
  kind: 'records',
  stateKey: 'usaspending',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_USASPENDING_BASE_URL',
      default: 'https://api.usaspending.gov',
      description: 'the USAspending API',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 25,
  events: ['contract.awarded'],
} as const satisfies RecordsManifest;
