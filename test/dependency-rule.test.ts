// The dependency rule of src/, checked over the real import graph (TypeScript's own pre-parser
// reads every import and re-export): imports flow one way, http → services → resources/storage,
// ingest → market/storage/webhooks/resources, nothing imports http, nothing below imports
// services, and SQL is written only in storage/; each source's specifics stay in its folder under
// ingest/sources/, and only its manifest is read outside it; storage/ keeps no per-connection state
// in module-level WeakMaps, and no source file passes 600 lines. docs/architecture.md explains the layers.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

const EVERY_LAYER = [
  'domain',
  'resources',
  'storage',
  'market',
  'webhooks',
  'ingest',
  'accounts',
  'analytics',
  'search',
  'services',
  'http',
  'app',
  'cli',
  'main',
  'config',
  'errors',
  'files',
  'logging',
  'threads',
] as const;
type Layer = (typeof EVERY_LAYER)[number];

/**
 * What each top-level folder (or root file) of src/ may import besides itself. A new folder must
 * be placed here: the test fails for a layer it does not know.
 */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  domain: [],
  config: ['domain'],
  errors: [],
  files: [],
  logging: [],
  threads: ['config'],
  // Resources load their rows and refuse an unknown id with the one error type.
  resources: ['domain', 'storage', 'errors'],
  storage: ['domain', 'config'],
  market: ['domain', 'storage', 'config', 'files'],
  accounts: ['domain', 'storage', 'config', 'errors'],
  webhooks: ['domain', 'resources', 'storage', 'accounts', 'config', 'errors'],
  ingest: ['domain', 'resources', 'storage', 'market', 'webhooks', 'config', 'files', 'errors', 'threads'],
  // The stored company dossiers are the API's answer, built from the resources' own loaders and
  // mappers (the SEC lists, the linked trades), as webhook payloads are.
  analytics: ['domain', 'resources', 'storage', 'market', 'config'],
  // The search engine trains its model in a worker thread (search/lsa-training.ts).
  search: ['domain', 'storage', 'threads'],
  // The review queue (services/review-queue.ts) decides through the ingest's own rules, so that a
  // decided row flows on as an ingested trade does; nothing else in services reads ingest.
  services: [
    'domain',
    'resources',
    'storage',
    'ingest',
    'analytics',
    'search',
    'accounts',
    'market',
    'webhooks',
    'config',
    'errors',
    'threads',
  ],
  http: ['domain', 'resources', 'services', 'storage', 'accounts', 'webhooks', 'search', 'config', 'errors'],
  app: [
    'domain',
    'resources',
    'storage',
    'accounts',
    'webhooks',
    'search',
    'services',
    'http',
    'config',
    'errors',
  ],
  // Commands are entry points beside app.ts: they compose services (the MCP server, the assistant's
  // provider) but reach the HTTP layer only through app.ts.
  cli: EVERY_LAYER.filter((layer) => !['http', 'main'].includes(layer)),
  // main reads the typed error a broken database throws, to print its one line.
  main: ['cli', 'config', 'storage'],
};

/** Rules inside a layer: a file under the first path may not import anything under the second. */
const FORBIDDEN_WITHIN: ReadonlyArray<readonly [string, string]> = [
  // A source owns its connector and its parser; the pipeline drives sources, never the reverse.
  ['ingest/sources', 'ingest/pipeline'],
];

interface Import {
  from: string;
  to: string;
}

/**
 * The source manifests and the registry that lists them: plain data every layer may read (the
 * domain tables and the configuration are built from them), so they import nothing at run time
 * but each other.
 */
function isManifest(path: string): boolean {
  return (
    path === 'ingest/sources/registry.ts' ||
    path === 'ingest/sources/manifest.ts' ||
    /^ingest\/sources\/[^/]+\/manifest\.ts$/.test(path)
  );
}

/** The source folder (`house`, `sec`, …) a file belongs to; null outside ingest/sources/<name>/. */
function sourceFolderOf(path: string): string | null {
  return /^ingest\/sources\/([^/]+)\//.exec(path)?.[1] ?? null;
}

/**
 * Files outside a source's folder that read some of it besides its manifest, with why. Everything
 * else reaches a source through the registry (its definition, loaded by name).
 */
const READ_SOURCE_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  // `dcledger import bills|votes` read the files the congress.gov and Voteview sources download,
  // with those sources' parsers.
  'ingest/bills/import.ts': ['congress'],
  'ingest/votes/import.ts': ['voteview'],
  'cli/import.ts': ['congress'],
  // The OCR reader reads House paper PTRs, with the House source's asset codes (until it plugs
  // into the House source as its reader of scans).
  'ingest/ocr/scanned-document.ts': ['house'],
};

/** The route folder (`trades`, `ui`, …) a file belongs to; null outside http/routes/<name>/. */
function routeFolderOf(path: string): string | null {
  return /^http\/routes\/([^/]+)\//.exec(path)?.[1] ?? null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC);

function relativeImports(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => ({
      from: toPosix(relative(SRC, file)),
      to: toPosix(relative(SRC, normalize(join(dirname(file), name.replace(/\.js$/, '.ts'))))),
    }));
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function layerOf(path: string): string {
  const [top = ''] = path.split('/');
  return top.replace(/\.ts$/, '');
}

function isLayer(name: string): name is Layer {
  return (EVERY_LAYER as readonly string[]).includes(name);
}

const imports = files.flatMap(relativeImports);

describe('the dependency rule of src/', () => {
  it('reads the real import graph', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(imports).toContainEqual({ from: 'http/routes/trades/list.ts', to: 'services/trades.ts' });
  });

  it('knows every top-level folder of src/', () => {
    const unknown = [...new Set(files.map((file) => layerOf(toPosix(relative(SRC, file)))))].filter(
      (layer) => !isLayer(layer),
    );
    expect(unknown, 'place the new folder in MAY_IMPORT of test/dependency-rule.test.ts').toEqual([]);
  });

  it('has imports flow one way between layers (nothing imports http, nothing below imports services)', () => {
    const breaking = imports
      .filter(({ from, to }) => {
        const source = layerOf(from);
        const target = layerOf(to);
        if (source === target || !isLayer(source) || isManifest(to)) return false;
        return !isLayer(target) || !MAY_IMPORT[source].includes(target);
      })
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(breaking).toEqual([]);
  });

  it('keeps the rules inside a layer', () => {
    const breaking = imports
      .filter(({ from, to }) =>
        FORBIDDEN_WITHIN.some(([lower, upper]) => from.startsWith(`${lower}/`) && to.startsWith(`${upper}/`)),
      )
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(breaking).toEqual([]);
  });

  it('lets the source manifests import nothing at run time but each other', () => {
    const manifests = files.map((file) => toPosix(relative(SRC, file))).filter(isManifest);
    expect(manifests.length).toBeGreaterThan(8);
    const runtime = manifests.flatMap((path) =>
      [...readFileSync(join(SRC, path), 'utf8').matchAll(/^import (?!type\b)[^;]*? from '([^']+)'/gms)]
        .map((match) =>
          toPosix(
            relative(SRC, normalize(join(SRC, dirname(path), (match[1] ?? '').replace(/\.js$/, '.ts')))),
          ),
        )
        .filter((to) => !isManifest(to))
        .map((to) => `${path} imports ${to}`),
    );
    expect(runtime).toEqual([]);
  });

  it('keeps each source inside its folder: outside it, only the registry reads it, and only its manifest', () => {
    const breaking = imports
      .filter(({ from, to }) => {
        const folder = sourceFolderOf(to);
        if (folder === null || sourceFolderOf(from) === folder) return false;
        if (from === 'ingest/sources/registry.ts' && to === `ingest/sources/${folder}/manifest.ts`)
          return false;
        return !READ_SOURCE_FOLDERS[from]?.includes(folder);
      })
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(breaking).toEqual([]);
  });

  it('names no source in the pipeline, the replay server or the commands that run sources', () => {
    const names = ['house', 'senate', 'oge', 'sec', 'lobbying', 'contracts', 'bills', 'votes'];
    const quoted = new RegExp(`'(${names.join('|')})'`);
    const naming = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter(
        (path) =>
          path.startsWith('ingest/pipeline/') ||
          path.startsWith('ingest/replay/') ||
          path.startsWith('config/') ||
          ['cli/ingest.ts', 'cli/parse.ts', 'cli/serve.ts', 'config.ts'].includes(path),
      )
      .filter((path) => quoted.test(readFileSync(join(SRC, path), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('keeps each route folder to its own files (a shape two routes serve is a resource or in http/schemas/, a page layout in http/pages/)', () => {
    const crossing = imports
      .filter(({ from, to }) => {
        const source = routeFolderOf(from);
        const target = routeFolderOf(to);
        return source !== null && target !== null && source !== target;
      })
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(crossing).toEqual([]);
  });

  it("declares no route in a route folder's index.ts: it registers the folder's operation files", () => {
    const declaring = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter((path) => /^http\/routes\/[^/]+\/index\.ts$/.test(path))
      .filter((path) =>
        /\.(get|post|put|patch|delete|head|options|all|route)(<[^>]*>)?\(/.test(
          readFileSync(join(SRC, path), 'utf8'),
        ),
      );
    expect(declaring).toEqual([]);
  });

  it('keeps response shapes in resources/ and request shapes with their operations: no route folder has a schema.ts', () => {
    const schemaFiles = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter((path) => /^http\/routes\/[^/]+\/schema\.ts$/.test(path));
    expect(schemaFiles).toEqual([]);
  });

  it('writes SQL only in storage/', () => {
    const query =
      /\bsql`|\bsql<|\bsql\.(raw|ref|id|join|lit)\(|\.(selectFrom|insertInto|updateTable|deleteFrom)\(/;
    const outside = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter((path) => layerOf(path) !== 'storage')
      .filter((path) => query.test(readFileSync(join(SRC, path), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('writes the events outbox only through the typed constructors of webhooks/events.ts', () => {
    const callers = imports
      .filter(({ to }) => to === 'storage/repositories/events.ts')
      .map(({ from }) => from)
      .filter((from) => /\bemitEvent\b/.test(readFileSync(join(SRC, from), 'utf8')));
    expect(callers).toEqual(['webhooks/events.ts']);
  });
  it('keeps per-connection state in the Store, not in module-level WeakMaps of storage/', () => {
    const holders = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter((path) => layerOf(path) === 'storage')
      .filter((path) =>
        /^(?:export\s+)?(?:const|let)\s+\w+(?:\s*:[^=\n]+)?\s*=\s*new WeakMap\b/m.test(
          readFileSync(join(SRC, path), 'utf8'),
        ),
      );
    expect(holders).toEqual([]);
  });

  it('keeps every source file under 600 lines (migrations are a frozen record and may be longer)', () => {
    const long = files
      .map((file) => toPosix(relative(SRC, file)))
      .filter((path) => !path.startsWith('storage/migrations/'))
      .filter((path) => readFileSync(join(SRC, path), 'utf8').split('\n').length > 600);
    expect(long).toEqual([]);
  });
});
