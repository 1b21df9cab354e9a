// The route folders load themselves: a folder under routes/ is registered because it is there, in
// its declared order, without a line in app.ts; a folder that cannot be loaded stops the app.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRouteFolders, type RouteFolderOptions, registerRouteFolders } from './route-folders.js';
import type { App } from './types.js';

const ROUTES = new URL('./routes/', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'dcledger-route-folders-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A routes directory holding `folders` (name → index.ts text). */
function routesDir(name: string, folders: Record<string, string | null>): string {
  const dir = join(scratch, name);
  for (const [folder, index] of Object.entries(folders)) {
    mkdirSync(join(dir, folder), { recursive: true });
    if (index !== null) writeFileSync(join(dir, folder, 'index.ts'), index);
  }
  return dir;
}

/** A folder whose one route answers its own name. */
function folder(order: number, path: string): string {
  return `export const routes = {
  order: ${order},
  register(app) {
    app.get('${path}', async () => ({ from: '${path}' }));
  },
};
`;
}

describe('the route folders', () => {
  it('loads every folder of a routes directory, lowest order first, ties by name', async () => {
    const dir = routesDir('ordered', {
      'b-second': folder(20, '/example/b'),
      'a-first': folder(20, '/example/a'),
      zzz: folder(5, '/example/z'),
    });
    const loaded = await loadRouteFolders(dir, '.ts');
    expect(loaded.map((entry) => entry.name)).toEqual(['zzz', 'a-first', 'b-second']);

    const app = Fastify({ exposeHeadRoutes: false }) as unknown as App;
    const registered: string[] = [];
    app.addHook('onRoute', (route) => {
      registered.push(route.url);
    });
    await registerRouteFolders(app, {} as RouteFolderOptions, loaded);
    await app.ready();
    expect(registered).toEqual(['/example/z', '/example/a', '/example/b']);
    expect((await app.inject({ url: '/example/a' })).json()).toEqual({ from: '/example/a' });
    await app.close();
  });

  it('refuses a folder without an index or without a `routes` export, naming it', async () => {
    await expect(loadRouteFolders(routesDir('no-index', { empty: null }), '.ts')).rejects.toThrow(
      /route folder empty has no index\.ts/,
    );
    const wrong = routesDir('no-export', { other: 'export function otherRoutes() {}\n' });
    await expect(loadRouteFolders(wrong, '.ts')).rejects.toThrow(
      /route folder other: index\.ts exports no `routes`/,
    );
  });

  it('loads every folder of src/http/routes, none named in app.ts', async () => {
    const folders = readdirSync(ROUTES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const loaded = await loadRouteFolders();
    expect(loaded.map((entry) => entry.name).sort()).toEqual(folders.sort());
    expect(loaded.length).toBeGreaterThan(25);
    const app = readFileSync(new URL('../app.ts', import.meta.url), 'utf8');
    expect(app).not.toMatch(/from '\.\/http\/routes\//);
  });
});
