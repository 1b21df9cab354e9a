// Upgrading a database that holds lobbying filings through 0111: the stored lobbyists move to the
// keys the Lobbying resource serves, with the values GET /lobbying wrote from them before, and
// back on the way down. CONSTRUCTED filings (the LDA readers' entries, a covered position over two
// lines and outside ASCII, a lobbyist without the new flag, a filing without lobbyists); runs on
// SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { migrateToLatest, migrations } from '../migrate.js';
import type { Database } from '../schema.js';

const NAME = '0111-lobbyists-as-served';

async function migrateTo(db: Kysely<Database>, upTo: (name: string) => boolean, down = false): Promise<void> {
  const chosen = Object.fromEntries(Object.entries(migrations).filter(([name]) => upTo(name)));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => (down ? migrations : chosen) },
    allowUnorderedMigrations: true,
  });
  const { error } = down
    ? await migrator.migrateTo('0110-overlap-records')
    : await migrator.migrateToLatest();
  if (error) throw error;
}

const READ = [
  [
    {
      name: 'JANE ROE',
      coveredPosition: 'Counsel, Sen. Doe 2001–2003;\nStaff, Committee on Finance',
      isNew: true,
    },
    { name: 'JOHN POE', coveredPosition: null, isNew: false },
    { name: 'RAY MOE', coveredPosition: null },
  ],
  [],
];

describe('migration 0111 on a database that already has lobbying filings', () => {
  let store: TestStore;
  const stamp = '2024-06-01T00:00:00.000Z';
  const lobbyists = async () =>
    (await store.db.selectFrom('lobbying_filings').select('lobbyists').orderBy('id').execute()).map(
      (row) => row.lobbyists,
    );

  beforeAll(async () => {
    store = await openTestStore(undefined, { migrate: false });
    await migrateTo(store.db, (name) => name < NAME);
    for (const [index, entries] of READ.entries())
      await store.db
        .insertInto('lobbying_filings')
        .values({
          filing_uuid: `constructed-${index}`,
          filing_type: 'Q1',
          filing_type_display: '1st Quarter - Report',
          filing_year: 2024,
          filing_period: 'first_quarter',
          no_activity: 0,
          registrant_id: null,
          registrant_name: 'Constructed Registrant',
          registrant_description: null,
          client_id: null,
          client_name: 'Constructed Client',
          client_description: null,
          income: null,
          expenses: null,
          amount: null,
          posted_at: null,
          filed_date: null,
          document_url: null,
          issues: '[]',
          lobbyists: JSON.stringify(entries),
          government_entities: '[]',
          ticker: null,
          match_method: null,
          match_confidence: null,
          origin: 'lda_api',
          content_hash: `hash-${index}`,
          raw_sha256: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
  });
  afterAll(async () => store?.dispose());

  it('stores the lobbyists as the resource serves them, written as JSON.stringify writes them', async () => {
    const report = await migrateToLatest(store.db);
    expect(report.applied).toContain(NAME);
    const served = READ.map((entries) =>
      JSON.stringify(
        entries.map((entry) => ({
          name: entry.name,
          covered_position: entry.coveredPosition,
          is_new: entry.isNew ?? null,
        })),
      ),
    );
    expect(await lobbyists()).toEqual(served);
    // The content hashes are the filings' as read: untouched.
    const hashes = await store.db
      .selectFrom('lobbying_filings')
      .select('content_hash')
      .orderBy('id')
      .execute();
    expect(hashes.map((row) => row.content_hash)).toEqual(['hash-0', 'hash-1']);
  });

  it('moves them back to the readers’ keys on the way down', async () => {
    await migrateTo(store.db, () => true, true);
    const read = READ.map((entries) =>
      JSON.stringify(entries.map((entry) => ({ ...entry, isNew: entry.isNew ?? null }))),
    );
    expect(await lobbyists()).toEqual(read);
  });
});
