// The entity index handed from the warm-up's process to the API's (snapshot → JSON → fromSnapshot)
// is the index it was: every member and company with its words, concepts and aliases, over more
// entities than one chunk of the snapshot holds. On a copy of the real-data fixture.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { refreshSearchDocuments } from './documents.js';
import { EntityIndex, type EntitySnapshot } from './entities.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('EntityIndex.snapshot and fromSnapshot', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
    await refreshSearchDocuments(store.db, FIXTURE_NOW);
  });
  afterAll(async () => store?.dispose());

  it('gives back the same index, members and companies parsed a chunk at a time', async () => {
    const loaded = await EntityIndex.load(store.db);
    const snapshot = loaded.snapshot();
    expect(snapshot.members.length).toBeGreaterThan(1);
    expect(snapshot.companies.length).toBeGreaterThan(1);
    // As it travels in the hand-over file.
    const carried = JSON.parse(JSON.stringify(snapshot)) as EntitySnapshot;
    const taken = await EntityIndex.fromSnapshot(carried);
    expect(taken.size).toBe(loaded.size);
    expect(taken.snapshot()).toEqual(snapshot);
    // The phonetic codes are listed again from the words: a misspelled name finds the same members.
    const misspelled = loaded.misspelled(['pelosy'], 5);
    expect(misspelled.length).toBeGreaterThan(0);
    expect(taken.misspelled(['pelosy'], 5)).toEqual(misspelled);
    expect(taken.named(['nvidia'])).toEqual(loaded.named(['nvidia']));
  });
});
