// What the replay server (ingest/replay/server.ts) answers for one source: the source's own paths,
// served from the recorded real documents of the shared data directory, so tests and newcomers can
// run an ingest without the network. Each source folder that has recordings has a replay.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ReplayRequest {
  method: string;
  /** URL-decoded path. */
  path: string;
  query: URLSearchParams;
  /** The request body (form posts, JSON searches), read whole. */
  body: string;
  cookies: Readonly<Record<string, string>>;
  header(name: string): string | undefined;
  /** Where the replay server listens (for links the answers carry). */
  baseUrl: string;
  /**
   * Whether a document is held back (`dcledger replay-server --withhold`): a site leaves it out of
   * every index and listing and answers 404 for it until it is published. Ids are the ones the
   * official site uses: House DocID, eFD report UUID, OGE file name, EDGAR accession number,
   * USAspending award key.
   */
  withheld(id: string): boolean;
}

export interface ReplayAnswer {
  status: number;
  type: string;
  body: string | Uint8Array;
  headers?: Readonly<Record<string, string>>;
}

export interface ReplayRoutes {
  /** What it serves, one phrase for the server's banner ("House: 59 PTR PDFs in the 2025 index"). */
  readonly summary: string;
  /** The answer to a request on one of the source's paths; undefined for any other path. */
  answer(request: ReplayRequest): ReplayAnswer | undefined | Promise<ReplayAnswer | undefined>;
  /** Forgets every session the source's site handed out (as when a site's sessions expire). */
  expireSessions?(): void;
}

export interface ReplaySite {
  /** The routes over the recordings under `dataDir`; null when nothing of this source is recorded. */
  load(dataDir: string): ReplayRoutes | null;
}

/** The shared data directory's or its `congress` folder's recordings of the official sites. */
export class ReplayDataError extends Error {}

/** Accepts the shared data directory or its `congress` folder. */
export function congressDir(dataDir: string): string {
  const nested = join(dataDir, 'congress');
  if (existsSync(join(nested, 'raw-house'))) return nested;
  if (existsSync(join(dataDir, 'raw-house'))) return dataDir;
  throw new ReplayDataError(
    `${dataDir} holds no congress/raw-house folder (expected the shared data directory)`,
  );
}

export function notFound(type = 'text/plain'): ReplayAnswer {
  return { status: 404, type, body: type === 'application/json' ? '{"detail":"Not found."}' : 'not found' };
}

export function json(value: unknown): ReplayAnswer {
  return { status: 200, type: 'application/json', body: JSON.stringify(value) };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
