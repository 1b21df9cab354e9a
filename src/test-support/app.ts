// An app over a copy of the real-data fixture, for route tests.
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import type { App } from '../http/types.js';
import { openTestStore, type TestStore } from './database.js';
import { FIXTURE_NOW } from './real-data.js';

export interface FixtureApp {
  app: App;
  store: TestStore;
  close(): Promise<void>;
}

export function realDataAvailable(): boolean {
  return inject('fixture') !== null;
}

export async function openFixtureApp(now: Date = FIXTURE_NOW): Promise<FixtureApp> {
  const fixture = inject('fixture');
  if (!fixture) throw new Error('real-data fixture not built (shared data missing)');
  const store = await openTestStore(fixture);
  const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => now });
  return {
    app,
    store,
    close: async () => {
      await app.close();
      await store.dispose();
    },
  };
}

export async function getJson<T = unknown>(
  app: App,
  url: string,
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
}
