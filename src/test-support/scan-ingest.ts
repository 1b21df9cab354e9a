// One real House scan ingested through the OCR stage, as `dcledger ingest` reads it: the replay
// server serves every recorded House document but that scan as withheld, so the run lists and
// reads only it (in the OCR worker thread). The review-queue tests start from what it leaves.
import type { Kysely } from 'kysely';
import { openIngestOcr } from '../ingest/pipeline/ocr-stage.js';
import type { IngestReport } from '../ingest/pipeline/report.js';
import { ReplayServer } from '../ingest/replay/server.js';
import type { HouseReplay } from '../ingest/sources/house/replay.js';
import type { Database } from '../storage/schema.js';
import { type ReplayRun, replayRunner } from './replay.js';

export interface ScanReplay {
  server: ReplayServer;
  runner: ReplayRun;
  close(): Promise<void>;
}

/** A replay server that serves, of the House documents, only the scan `docId`. */
export async function scanReplay(dataDir: string, docId: string): Promise<ScanReplay> {
  const all = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  await all.start();
  const docIds = [...all.routesOf<HouseReplay>('house').years.values()].flatMap((year) => [...year.docIds]);
  await all.close();
  if (!docIds.includes(docId)) throw new Error(`the replay server does not know House document ${docId}`);
  const server = new ReplayServer({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    withhold: docIds.filter((other) => other !== docId),
  });
  await server.start();
  const runner = replayRunner(server.url);
  return {
    server,
    runner,
    close: async () => {
      await server.close();
      runner.dispose();
    },
  };
}

/**
 * Ingests the scan `docId` through the OCR stage into `db`; the replay (whose runner's archive holds
 * the scan, for the review crops) stays open until closed.
 */
export async function ingestScan(
  db: Kysely<Database>,
  dataDir: string,
  docId: string,
): Promise<{ replay: ScanReplay; report: IngestReport }> {
  const replay = await scanReplay(dataDir, docId);
  const ocr = openIngestOcr(db);
  try {
    const report = await replay.runner.run(db, { sources: ['house'], ocr: ocr.stage });
    return { replay, report };
  } catch (error) {
    await replay.close();
    throw error;
  } finally {
    await ocr.close();
  }
}
