// OGE 278-T reports of executive-branch officials (see source.ts for how they are read).
import type { TradeDocumentsManifest } from '../manifest.js';

export const ogeManifest = {
  name: 'oge',
  title: 'OGE 278-T reports of executive-branch officials (PDF)',
  kind: 'trade-documents',
  column: 'oge',
  chamber: 'Executive',
  chamberFilter: 'executive',
  executiveRows: true,
  stateKey: 'oge',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_OGE_BASE_URL',
      description: 'a site serving a listing of 278-T PDFs (OGE publishes no index); unset: skipped',
    },
    indexPath: {
      kind: 'path',
      env: 'DCLEDGER_OGE_INDEX_PATH',
      default: '/278t/',
      description: 'the path of the listing under the base URL',
    },
  },
  baseUrlSetting: 'baseUrl',
  maxDocumentMb: 25,
  events: ['disclosure.detected', 'trade.created'],
} as const satisfies TradeDocumentsManifest;
