// USAspending polled as the schedule polls it (no --since: from the cursor, a week before the last
// completed run) against the replay server, which filters its award searches by the request's
// time periods as the API documents them. An award whose latest action is months older than the
// window but whose record was modified inside it (an action reported late) is held back, then
// published: the next poll finds it by its last-modified date; a later version of it (modified
// again, a new amount) updates the stored award instead of adding a second one.
//
// The recording the replay serves is built at run time from real recorded search rows
// (awards__search_results_contracts.json): NASA's NAS1510000 as recorded, and NNM07AB03C with two
// CONSTRUCTED changes, marked in the file: a latest-action date of 2025-04-08 (the API's rows
// never show one; the real row is silent on it) and a second version modified 2025-07-18 with
// its amount raised by $1,000,000.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { publishOnReplay, runRecordsSource } from '../../test-support/replay.js';
import { ReplayServer } from '../replay/server.js';
import { SOURCES, SourceRegistry } from '../sources/registry.js';

const dataDir = inject('dataDir');
const RECORDED = 'related/usaspending/usaspending-orm-fixtures/awards__search_results_contracts.json';
/** Boeing's Ares I upper stage contract: signed 2007-08-28, last modified 2025-07-08 (recorded). */
const LATE = 'CONT_AWD_NNM07AB03C_8000_-NONE-_-NONE-';
/** Boeing's ISS contract: signed 1993-11-15, last modified 2025-07-16 (recorded). */
const ON_TIME = 'CONT_AWD_NAS1510000_8000_-NONE-_-NONE-';
/** Four days after the late award's recorded modification: the cursor's week still holds it. */
const FIRST_POLL = new Date('2025-07-12T12:00:00Z');
/** After the constructed second version (modified 2025-07-18). */
const LATER_POLL = new Date('2025-07-19T12:00:00Z');
const RAISE = 1_000_000;

type Row = Record<string, unknown>;

/** A data directory holding only the recording described above. */
function writeRecording(root: string): { lateAmount: number } {
  const recorded = JSON.parse(readFileSync(join(dataDir ?? '', RECORDED), 'utf8')) as { results: Row[] };
  const row = (key: string): Row => {
    const found = recorded.results.find((result) => result.generated_internal_id === key);
    if (!found) throw new Error(`the recording no longer holds ${key}`);
    return found;
  };
  const late: Row = { ...row(LATE), action_date: '2025-04-08' };
  const lateAmount = Number(late['Award Amount']);
  const modified = { ...late, 'Last Modified Date': '2025-07-18', 'Award Amount': lateAmount + RAISE };
  const folder = join(root, 'related', 'usaspending');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'late-award.constructed.json'),
    JSON.stringify({
      constructed: `Rows of ${RECORDED} as recorded, except ${LATE}: its action_date (constructed) and its second version (Last Modified Date and Award Amount constructed)`,
      spending_level: 'awards',
      limit: 100,
      results: [row(ON_TIME), late, modified],
      page_metadata: { page: 1, hasNext: false },
    }),
  );
  return { lateAmount };
}

describe.skipIf(!dataDir)('USAspending: an award reported late, with an old action date', () => {
  let store: TestStore;
  let server: ReplayServer;
  let root: string;
  let lateAmount: number;

  const poll = (at: Date) =>
    runRecordsSource(
      store.db,
      readIngest({
        DCLEDGER_ARCHIVE_DIR: join(root, 'archive'),
        DCLEDGER_FETCH_INTERVAL_MS: '0',
        DCLEDGER_FETCH_RETRIES: '0',
      }),
      'contracts',
      { baseUrl: server.url, clock: () => at },
    );
  const awards = (key: string) =>
    store.db.selectFrom('contract_awards').select(['id', 'amount']).where('award_key', '=', key).execute();
  const awardedEvents = async () =>
    Number(
      (
        await store.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('type', '=', 'contract.awarded')
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dcledger-contracts-late-'));
    ({ lateAmount } = writeRecording(root));
    store = await openTestStore();
    const contracts = SOURCES.filter((source) => source.manifest.name === 'contracts');
    server = new ReplayServer({
      dataDir: root,
      host: '127.0.0.1',
      port: 0,
      registry: new SourceRegistry(contracts),
      withhold: [LATE],
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('is found by the next poll from the cursor, and its later version updates it', {
    timeout: 60_000,
  }, async () => {
    const first = await poll(FIRST_POLL);
    expect(first).toMatchObject({ status: 'completed', sinceFrom: 'first run', new: 1, events: 1 });
    expect(await awards(ON_TIME)).toHaveLength(1);
    expect(await awards(LATE)).toEqual([]);

    const published = await publishOnReplay(server.url, [LATE]);
    expect(published.body).toMatchObject({ published: [LATE] });

    // From the cursor: its latest action (2025-04-08) is months before the window; its record was
    // modified inside it (2025-07-08).
    const next = await poll(new Date(FIRST_POLL.getTime() + 15_000));
    expect(next).toMatchObject({ status: 'completed', since: '2025-07-05', sinceFrom: 'cursor' });
    expect(next).toMatchObject({ new: 1, updated: 0, unchanged: 1, events: 1 });
    const [found] = await awards(LATE);
    expect(Number(found?.amount)).toBe(lateAmount);
    expect(await awardedEvents()).toBe(2);

    // Modified again (2025-07-18): the same row takes the new amount; no second award, no new event.
    const later = await poll(LATER_POLL);
    expect(later).toMatchObject({ status: 'completed', since: '2025-07-05', new: 0, updated: 1, events: 0 });
    const updated = await awards(LATE);
    expect(updated).toHaveLength(1);
    expect(updated[0]?.id).toBe(found?.id);
    expect(Number(updated[0]?.amount)).toBe(lateAmount + RAISE);
    expect(await awardedEvents()).toBe(2);
    const total = await store.db
      .selectFrom('contract_awards')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(2);
  });
});
