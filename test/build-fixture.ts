// Builds the run's real-data fixture database (test/global-setup.ts starts it as a process of its
// own, so that the files that do not read the fixture run meanwhile):
//
//   node --import tsx test/build-fixture.ts '<FixtureLocation as JSON>' <shared data directory>
//
// It loads the shared data, enriches it, builds the semantic-search index and compacts the
// database for copying, then closes every connection and exits 0; the setup then marks the
// fixture ready.
import {
  compactFixture,
  createFixtureStoreAt,
  type FixtureLocation,
  testDialect,
} from '../src/test-support/database.js';
import { indexForSearch, loadRealData } from '../src/test-support/real-data.js';

const [locationJson, dataDir] = process.argv.slice(2);
if (!locationJson || !dataDir) {
  console.error('usage: build-fixture.ts <location JSON> <data directory>');
  process.exit(2);
}
const location = JSON.parse(locationJson) as FixtureLocation;
const started = Date.now();
const store = await createFixtureStoreAt(location);
try {
  await loadRealData(store.db, dataDir);
  // Once here rather than at the first question of every file that searches.
  await indexForSearch(store.db);
  await compactFixture(store, location);
} finally {
  await store.close();
}
console.log(
  `[dcledger tests] ${testDialect()} real-data fixture built in ${((Date.now() - started) / 1000).toFixed(1)}s`,
);
