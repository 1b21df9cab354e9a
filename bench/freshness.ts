// `npm run bench -- freshness`: how soon a filing published on an official site reaches a
// subscriber. The replay server holds real recorded documents back (`withhold`); `dcledger serve`
// from its build (as `npm start` runs it, every role in one process) polls it every 15 s with a
// webhook subscription per event type pointing at a receiver on 127.0.0.1; the bench publishes an
// e-filed House PTR, an eFD page and a 278-T at a time and measures, per source, publication →
// `disclosure.detected` delivered and → `trade.created` delivered.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../src/accounts/admin.js';
import { parseCidrList } from '../src/config/webhooks.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import { openStore, type Store } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { findDataDir, repoRoot } from '../src/test-support/data-dir.js';
import { createWebhookRuntime } from '../src/webhooks/runtime.js';
import { createSubscription } from '../src/webhooks/subscriptions.js';
import { serveEnv } from './process.js';
import { REPLAYED_SOURCES, type ReplayedSource, recordedDocuments } from './replay-documents.js';
import { buildDist, freePort } from './under-load.js';

const INTERVAL_MINUTES = 0.25;
/** The window every poll lists: the Senate recordings are of 2020–21, the House ones reach 2025. */
const WINDOW = '2020-01-01';
const ROUNDS = 3;
const TARGET_DETECTED_S = 30;
const TARGET_CREATED_S = 60;
const SOURCES = REPLAYED_SOURCES;
type Source = ReplayedSource;

interface Delivery {
  type: string;
  sourceDocId: string | null;
  filingId: number | null;
  at: number;
}

/** One receiver on 127.0.0.1 for both subscriptions: what arrived, and when. */
async function startReceiver(): Promise<{ server: Server; port: number; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const at = Date.now();
      try {
        const json = JSON.parse(body) as { event?: string; data?: Record<string, unknown> };
        const data = json.data ?? {};
        deliveries.push({
          type: json.event ?? '',
          sourceDocId: typeof data.source_doc_id === 'string' ? data.source_doc_id : null,
          filingId:
            typeof data.filing_id === 'number'
              ? data.filing_id
              : typeof data.id === 'number' && json.event === 'disclosure.detected'
                ? data.id
                : null,
          at,
        });
      } catch {
        // Not an event: counted nowhere.
      }
      response.writeHead(204).end();
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return { server, port, deliveries };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);
};

export async function runFreshnessBench(): Promise<string> {
  const dataDir = findDataDir();
  if (!dataDir) throw new Error('freshness: the recorded documents (../shared/data) are not there');
  const started = Date.now();
  const dist = await buildDist();
  const all = await recordedDocuments(dataDir, WINDOW);
  // Per source: one document visible from the start (the first poll reads little), then ROUNDS
  // e-filed documents published one round at a time; everything else stays held back.
  const efiled = (source: Source) =>
    all[source].filter((document) => document.url !== null && !document.isPaper);
  const chosen = Object.fromEntries(
    SOURCES.map((source) => {
      // OGE's list also holds annual 278e reports, which list no transactions: the 278-T
      // (periodic transaction) reports go first, so that each published one has trades to deliver.
      const documents =
        source === 'house_clerk'
          ? efiled(source).filter((document) => /^\d{8}$/.test(document.docId))
          : source === 'oge'
            ? [
                ...efiled(source).filter((document) => /278-?T/i.test(document.docId)),
                ...efiled(source).filter((document) => !/278-?T/i.test(document.docId)),
              ]
            : efiled(source);
      if (documents.length < ROUNDS + 1) throw new Error(`freshness: too few recorded ${source} documents`);
      return [source, documents.slice(0, ROUNDS + 1).map((document) => document.docId)];
    }),
  ) as Record<Source, string[]>;
  const visible = new Set(SOURCES.map((source) => chosen[source][0]));
  const withhold = SOURCES.flatMap((source) => all[source].map((document) => document.docId)).filter(
    (id) => !visible.has(id),
  );

  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-freshness-'));
  const replay = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0, withhold });
  await replay.start();
  const receiver = await startReceiver();
  const secretKey = randomBytes(32);
  const database = join(dir, 'bench.db');
  const store = openStore({ kind: 'sqlite', file: database });
  let child: ChildProcessByStdio<null, Readable, null> | undefined;
  let reader: Store | undefined;
  try {
    await migrateToLatest(store.db);
    const runtime = createWebhookRuntime({
      allowCidrs: parseCidrList('127.0.0.1/32'),
      secretKey,
      timeoutMs: 15_000,
    });
    const account = await createAccount(
      store.db,
      { email: 'bench@example.org', plan: 'pro', paid: true },
      new Date(),
    );
    for (const type of ['disclosure.detected', 'trade.created'] as const)
      await createSubscription(
        store.db,
        runtime,
        { accountId: account.account_id, keyId: account.key.key_id },
        {
          alert_type: type,
          webhook_url: `http://127.0.0.1:${receiver.port}/hook`,
          webhook_secret: 'whsec_freshness_bench_secret',
        },
        new Date(),
      );
    await store.close();

    const port = await freePort();
    const env = serveEnv({
      DCLEDGER_DB: database,
      DCLEDGER_ARCHIVE_DIR: join(dir, 'archive'),
      DCLEDGER_PRICE_REFRESH_AT: 'off',
      DCLEDGER_INGEST_INTERVAL_MINUTES: String(INTERVAL_MINUTES),
      DCLEDGER_INGEST_SINCE: WINDOW,
      DCLEDGER_HOUSE_BASE_URL: replay.url,
      DCLEDGER_SENATE_BASE_URL: replay.url,
      DCLEDGER_OGE_BASE_URL: replay.url,
      DCLEDGER_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      DCLEDGER_WEBHOOK_SECRET_KEY: secretKey.toString('hex'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    child = spawn(process.execPath, [join(repoRoot, 'bin', 'dcledger.js'), 'serve'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.resume();
    // Ready once the first poll has announced the visible document of every source.
    const announced = (docId: string) =>
      receiver.deliveries.some(
        (delivery) => delivery.type === 'disclosure.detected' && delivery.sourceDocId === docId,
      );
    const firstDeadline = Date.now() + 600_000;
    while (![...visible].every((id) => announced(id ?? ''))) {
      if (Date.now() > firstDeadline)
        throw new Error('freshness: the first poll did not announce its documents in 600 s');
      await sleep(250);
    }

    const detected: Record<Source, number[]> = { house_clerk: [], senate_efd: [], oge: [] };
    const created: Record<Source, number[]> = { house_clerk: [], senate_efd: [], oge: [] };
    const withoutTrades: Record<Source, string[]> = { house_clerk: [], senate_efd: [], oge: [] };
    reader = openStore({ kind: 'sqlite', file: database });
    const loadBefore = loadavg()[0] ?? 0;
    for (let round = 1; round <= ROUNDS; round++) {
      // Publication at a random point of the poll cycle, as a site's would be.
      await sleep(Math.round(Math.random() * INTERVAL_MINUTES * 60_000));
      const ids = SOURCES.map((source) => chosen[source][round] ?? '');
      const publishedAt = Date.now();
      replay.publish(ids);
      const deadline = publishedAt + 180_000;
      const pending = new Set<Source>(SOURCES);
      const filingOf = new Map<Source, number>();
      while (pending.size > 0 && Date.now() < deadline) {
        for (const source of [...pending]) {
          const docId = chosen[source][round] ?? '';
          const detection = receiver.deliveries.find(
            (delivery) => delivery.type === 'disclosure.detected' && delivery.sourceDocId === docId,
          );
          if (!detection) continue;
          if (!filingOf.has(source)) {
            filingOf.set(source, detection.filingId ?? -1);
            detected[source].push((detection.at - publishedAt) / 1000);
          }
          const trade = receiver.deliveries.find(
            (delivery) => delivery.type === 'trade.created' && delivery.filingId === filingOf.get(source),
          );
          if (trade) {
            created[source].push((trade.at - publishedAt) / 1000);
            pending.delete(source);
            continue;
          }
          // A document read without any transaction (a 278-T of other assets) owes no trade.created.
          const filing = await reader.db
            .selectFrom('filings')
            .select(['parse_status', 'trade_count'])
            .where('id', '=', filingOf.get(source) ?? -1)
            .executeTakeFirst();
          if (filing && filing.parse_status !== 'pending' && filing.trade_count === 0) {
            withoutTrades[source].push(docId);
            pending.delete(source);
          }
        }
        await sleep(100);
      }
      if (pending.size > 0)
        throw new Error(
          `freshness: round ${round}: nothing delivered for ${[...pending].join(', ')} in 180 s`,
        );
    }
    const loadAfter = loadavg()[0] ?? 0;
    const s = (value: number) => value.toFixed(1);
    const rows = SOURCES.map((source) => {
      const d = detected[source];
      const c = created[source];
      const ok =
        Math.max(...d) <= TARGET_DETECTED_S && (c.length === 0 || Math.max(...c) <= TARGET_CREATED_S);
      const none =
        withoutTrades[source].length > 0 ? ` (${withoutTrades[source].join(', ')}: no transactions)` : '';
      const cs = c.length > 0 ? `${s(percentile(c, 0.5))} | ${s(Math.max(...c))}` : '— | —';
      return `| ${source} | ${chosen[source].slice(1).join(', ')}${none} | ${s(percentile(d, 0.5))} | ${s(Math.max(...d))} | ${cs} | ${ok ? 'yes' : 'no'} | ${c.length} |`;
    });
    const total = (Date.now() - started) / 1000;
    return `## Freshness: publication → webhook delivered

Command: \`npm run bench -- freshness\` (${total.toFixed(0)} s in all; dist/ ${dist === 'built' ? 'built first' : 'was current'}).
Load average (1 min) ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on a shared 2-core machine.

\`dcledger serve\` from its build (as \`npm start\` runs it, every role in one process) with
\`DCLEDGER_INGEST_INTERVAL_MINUTES=${INTERVAL_MINUTES}\` (a poll every ${INTERVAL_MINUTES * 60} s), \`DCLEDGER_INGEST_SINCE=${WINDOW}\`,
against the replay server holding the recorded documents back; one subscription per event type to a
receiver on 127.0.0.1. Each of ${ROUNDS} rounds publishes one real document per source
(the replay server's \`publish\`, what \`POST /_replay/publish\` calls) at a random point of the poll cycle; seconds from publication to the
delivery arriving at the receiver. Targets: ≤ ${TARGET_DETECTED_S} s to \`disclosure.detected\`, ≤ ${TARGET_CREATED_S} s to \`trade.created\`.

| source | documents published | detected p50 s | detected max s | trade.created p50 s | trade.created max s | within targets | documents with trades |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  } finally {
    if (child && child.exitCode === null) {
      const done = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    }
    await reader?.close();
    await replay.close();
    await new Promise((resolve) => receiver.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
