// The dcledger bench server as it runs in production: the compiled build (dist/, what
// `npm start` and bin/dcledger.js run), in plain Node without a TypeScript loader. Under
// `--import tsx` the process also carries the loader's own thread and caches, ~60 MB of resident
// memory the product never has (measured: 210 MB against 149 MB idle for the same dist server),
// which the memory readings of `npm run bench -- http` would otherwise count.
// Usage: node bench/http-server-built.mjs <db> <clock ISO time>, the database a SQLite file or a
// postgres:// URL; bench/http.ts builds dist first.
import { buildApp } from '../dist/app.js';
import { openStore } from '../dist/storage/database.js';
import { startWalCheckpoints } from '../dist/storage/wal-checkpoints.js';

const [file, clock] = process.argv.slice(2);
if (!file || !clock) throw new Error('usage: http-server-built.mjs <db> <clock ISO time>');
const now = new Date(clock);
const postgres = /^postgres(ql)?:\/\//.test(file);
const store = openStore(postgres ? { kind: 'postgres', url: file } : { kind: 'sqlite', file });
// As `dcledger serve` does: on SQLite the write-ahead log is checkpointed from a worker thread.
const checkpoints = await startWalCheckpoints(store);
// The default in-process rate-limit store: the bench account has a custom per-minute limit
// (`dcledger accounts limit`) high enough for the load generator.
const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => now });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(
  `listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
);
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => checkpoints?.stop())
    .then(() => store.close())
    .then(() => process.exit(0));
});
