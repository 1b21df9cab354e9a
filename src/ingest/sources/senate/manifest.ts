// The Senate eFD site's periodic transaction reports (see source.ts for how they are read).
import type { TradeDocumentsManifest } from '../manifest.js';

export const senateManifest = {
  name: 'senate',
  title: 'Senate eFD periodic transaction reports (HTML pages)',
  kind: 'trade-documents',
  column: 'senate_efd',
  chamber: 'Senate',
  chamberFilter: 'senate',
  executiveRows: false,
  stateKey: 'senate_efd',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_SENATE_BASE_URL',
      default: 'https://efdsearch.senate.gov',
      description: 'the Senate eFD site',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 10,
  events: ['disclosure.detected', 'trade.created'],
} as const satisfies TradeDocumentsManifest;
