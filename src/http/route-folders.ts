// The route folders load themselves: every folder under routes/ has an index that exports `routes`
// (a RouteFolder), and buildApp registers them all, in their declared order, with one options
// object. A new folder needs no line anywhere else. Why a loader of our own and not
// @fastify/autoload: docs/adding-an-endpoint.md ("How the folders are loaded").
import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import type { Metrics } from './plugins/metrics.js';
import type { AccountArea } from './plugins/session.js';
import type { RouteCatalog } from './route-catalog.js';
import type { App, AppDeps } from './types.js';

/** What every route folder is given: the same object for all of them. */
export interface RouteFolderOptions {
  deps: AppDeps;
  /** The routes registered so far, with their schemas (/credits/endpoints, /v1/tools, the assistant). */
  catalog: RouteCatalog;
  /** SSRF policy, secret box and sender of the webhook routes and pages. */
  webhooks: WebhookRuntime;
  /** The request metrics GET /metrics serves. */
  metrics: Metrics;
  /** The account area's mail, payments and throttles, and what its actions need of a request. */
  accountArea: AccountArea;
}

export interface RouteFolder {
  /**
   * Where the folder registers among the others, lowest first (ties by folder name). The order is
   * observable: /openapi.json lists the paths in registration order.
   */
  order: number;
  register(app: App, options: RouteFolderOptions): void;
}

/** Where the route folders are, and the extension their files have here: .ts from source, .js built. */
const ROUTES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'routes');
const EXTENSION = extname(fileURLToPath(import.meta.url));

export interface LoadedFolder {
  name: string;
  folder: RouteFolder;
}

/** Every folder under `dir` with its `routes` export, in registration order; a folder without one is an error. */
export async function loadRouteFolders(
  dir: string = ROUTES_DIR,
  extension = EXTENSION,
): Promise<LoadedFolder[]> {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const loaded = await Promise.all(
    names.map(async (name) => {
      const index = join(dir, name, `index${extension}`);
      if (!existsSync(index)) throw new Error(`route folder ${name} has no index${extension}`);
      const module = (await import(pathToFileURL(index).href)) as { routes?: RouteFolder };
      if (!isRouteFolder(module.routes))
        throw new Error(`route folder ${name}: index${extension} exports no \`routes\` (a RouteFolder)`);
      return { name, folder: module.routes };
    }),
  );
  return loaded.sort((a, b) => a.folder.order - b.folder.order || (a.name < b.name ? -1 : 1));
}

function isRouteFolder(value: unknown): value is RouteFolder {
  const folder = value as Partial<RouteFolder> | undefined;
  return typeof folder?.order === 'number' && typeof folder.register === 'function';
}

/** Registers every route folder on `app`, in order. */
export async function registerRouteFolders(
  app: App,
  options: RouteFolderOptions,
  folders?: readonly LoadedFolder[],
): Promise<void> {
  for (const { folder } of folders ?? (await loadRouteFolders())) folder.register(app, options);
}
