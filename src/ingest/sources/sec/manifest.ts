// SEC EDGAR Forms 3/4/5 and Schedules 13D/G (see source.ts for how they are read).
import type { RecordsManifest } from '../manifest.js';

export const secManifest = {
  name: 'sec',
  title: 'SEC EDGAR Forms 3, 4, 5 and Schedules 13D/G',
  kind: 'records',
  stateKey: 'sec_edgar',
  settings: {
    baseUrl: {
      kind: 'url',
      env: 'DCLEDGER_SEC_BASE_URL',
      default: 'https://www.sec.gov',
      description: 'EDGAR',
    },
    contact: {
      kind: 'text',
      env: 'DCLEDGER_SEC_CONTACT',
      description:
        "the contact (an e-mail address) EDGAR's fair-access policy wants in the User-Agent; required against sec.gov",
    },
    intervalMs: {
      kind: 'integer',
      env: 'DCLEDGER_SEC_INTERVAL_MS',
      default: 100,
      minimum: 0,
      // EDGAR allows at most 10 requests a second.
      floor: 100,
      description: 'least time between two EDGAR requests (never below 100: at most 10 a second)',
    },
  },
  baseUrlSetting: 'baseUrl',
  // A submission carries its exhibits.
  maxDocumentMb: 50,
  events: ['insider.filed', 'whale.filed'],
} as const satisfies RecordsManifest;
