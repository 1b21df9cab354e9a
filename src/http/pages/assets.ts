// The static files every page loads from this service itself (never a CDN): the stylesheet, the
// favicon, the page scripts of ./assets/, and Chart.js from node_modules. Read once at start and
// served from memory; the pages name them with a content hash (`?v=`), so a browser may keep them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import type { App } from '../types.js';

/** The repository root: this file sits at src/http/pages/ (dist/http/pages/ when built). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OWN = join(ROOT, 'src', 'http', 'pages', 'assets');

interface Asset {
  type: string;
  body: Buffer;
  hash: string;
}

function chartJsFile(): string {
  // chart.js's "require" entry is dist/chart.cjs; the browser build sits beside it.
  return join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
}

const SOURCES: Readonly<Record<string, { file: () => string; type: string }>> = {
  'dcledger.css': { file: () => join(OWN, 'dcledger.css'), type: 'text/css; charset=utf-8' },
  'favicon.svg': { file: () => join(OWN, 'favicon.svg'), type: 'image/svg+xml' },
  'copy.js': { file: () => join(OWN, 'copy.js'), type: 'text/javascript; charset=utf-8' },
  'explore.js': { file: () => join(OWN, 'explore.js'), type: 'text/javascript; charset=utf-8' },
  'chart.umd.min.js': { file: chartJsFile, type: 'text/javascript; charset=utf-8' },
};

export type AssetName = keyof typeof SOURCES & string;

let loaded: Map<string, Asset> | undefined;

function assets(): Map<string, Asset> {
  if (loaded) return loaded;
  loaded = new Map(
    Object.entries(SOURCES).map(([name, source]) => {
      const body = readFileSync(source.file());
      return [
        name,
        { type: source.type, body, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) },
      ];
    }),
  );
  return loaded;
}

/** The address a page links an asset by: its content hash in the query, so a new version is a new URL. */
export function assetUrl(name: AssetName): string {
  return `/ui/assets/${name}?v=${assets().get(name)?.hash ?? ''}`;
}

export const ASSET_PREFIX = '/ui/assets/';

const AssetParams = Type.Object({ name: Type.String({ maxLength: 40 }) }, { additionalProperties: false });
const AssetQuery = Type.Object(
  { v: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);

export function assetRoutes(app: App): void {
  app.get(
    `${ASSET_PREFIX}:name`,
    { schema: { hide: true, params: AssetParams, querystring: AssetQuery } },
    async (request, reply) => {
      const asset = assets().get(request.params.name);
      if (!asset) throw notFound(`no file ${request.params.name} here`);
      const current = request.query.v === asset.hash;
      return reply
        .header('content-type', asset.type)
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
        .header('etag', `"${asset.hash}"`)
        .send(asset.body);
    },
  );
}

/** Browsers ask for /favicon.ico on pages that name no icon (JSON answers): point them at ours. */
export function faviconRoute(app: App): void {
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(assetUrl('favicon.svg'), 301),
  );
}
