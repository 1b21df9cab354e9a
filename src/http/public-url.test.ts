// /v1/tools publishes the configured public URL or the listening address, never the Host header.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testClock } from '../test-support/app.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { listeningUrl } from './public-url.js';
import type { App } from './types.js';

describe('/v1/tools base_url', () => {
  let app: App | undefined;
  let store: TestStore | undefined;
  afterEach(async () => {
    await app?.close();
    await store?.dispose();
  });

  async function open(publicUrl?: string): Promise<App> {
    store = await openTestStore();
    const clock = testClock();
    app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => clock.now, publicUrl });
    return app;
  }

  it('ignores a forged Host header and answers the listening address', async () => {
    const server = await open();
    await server.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/v1/tools`, {
      headers: { 'x-forwarded-host': 'evil.example' },
    });
    const forged = await server.inject({ url: '/v1/tools', headers: { host: 'evil.example' } });
    expect(((await response.json()) as { base_url: string }).base_url).toBe(`http://127.0.0.1:${port}`);
    expect(forged.json<{ base_url: string }>().base_url).toBe(`http://127.0.0.1:${port}`);
    expect(forged.payload).not.toContain('evil.example');
  });

  it('publishes DCLEDGER_PUBLIC_URL when configured', async () => {
    const server = await open('https://api.dcledger.example');
    const forged = await server.inject({ url: '/v1/tools', headers: { host: 'evil.example' } });
    expect(forged.json<{ base_url: string }>().base_url).toBe('https://api.dcledger.example');
  });

  it('names a reachable host for wildcard and IPv6 listeners', () => {
    expect(listeningUrl({ address: '0.0.0.0', family: 'IPv4', port: 8080 })).toBe('http://localhost:8080');
    expect(listeningUrl({ address: '::1', family: 'IPv6', port: 80 })).toBe('http://[::1]:80');
    expect(listeningUrl(null)).toBe('http://localhost');
  });
});
