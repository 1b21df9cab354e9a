// The House Clerk's periodic transaction reports (see source.ts for how they are read).
import type { TradeDocumentsManifest } from '../manifest.js';

export const houseManifest = {
  name: 'house',
  title: 'House Clerk periodic transaction reports (PDF)',
  kind: 'trade-documents',
  column: 'house_clerk',
  chamber: 'House',
  chamberFilter: 'house',
  executiveRows: false,
  stateKey: 'house_clerk',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_HOUSE_BASE_URL',
      default: 'https://disclosures-clerk.house.gov',
      description: 'the House Clerk site',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 25,
  events: ['disclosure.detected', 'trade.created'],
} as const satisfies TradeDocumentsManifest;
