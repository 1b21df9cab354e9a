// The recorded documents as the trade-document connectors list them from a replay server: what a
// bench holds back (`withhold`) so that a `serve` polling the replay server finds only what the
// bench publishes.
import { HttpClient } from '../src/ingest/fetch/http-client.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import type { ListedDocument } from '../src/ingest/sources/connector.js';
import { HouseConnector } from '../src/ingest/sources/house/connector.js';
import { OgeConnector } from '../src/ingest/sources/oge/connector.js';
import { SenateConnector } from '../src/ingest/sources/senate/connector.js';

export const REPLAYED_SOURCES = ['house_clerk', 'senate_efd', 'oge'] as const;
export type ReplayedSource = (typeof REPLAYED_SOURCES)[number];

/** The recorded documents listed since `since` (YYYY-MM-DD), per source. */
export async function recordedDocuments(
  dataDir: string,
  since: string,
): Promise<Record<ReplayedSource, ListedDocument[]>> {
  const open = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  await open.start();
  const http = () =>
    new HttpClient({
      timeoutMs: 20_000,
      retries: 0,
      minIntervalMs: 0,
      backoffMs: 1,
      userAgent: 'dcledger-bench',
    });
  const now = new Date();
  try {
    return {
      house_clerk: (await new HouseConnector(http(), open.url).list(since, now)).documents,
      senate_efd: (await new SenateConnector(http(), open.url).list(since, now)).documents,
      oge: (await new OgeConnector(http(), open.url, '/278t/').list(since, now)).documents,
    };
  } finally {
    await open.close();
  }
}
