// Voteview's House and Senate roll calls (see source.ts for how they are read).
import type { RecordsManifest } from '../manifest.js';

export const votesManifest = {
  name: 'votes',
  title: 'Voteview House and Senate roll-call votes',
  kind: 'records',
  stateKey: 'voteview',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_VOTEVIEW_BASE_URL',
      default: 'https://voteview.com',
      description: 'the Voteview site',
    },
  },
  baseUrlSetting: 'baseUrl',
  // A Congress's votes file lists every member's position on every roll call.
  maxDocumentMb: 250,
  events: [],
} as const satisfies RecordsManifest;
