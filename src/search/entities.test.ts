// The entity index handed from the warm-up's process to the API's (snapshot → JSON → fromSnapshot)
// is the index it was: every member and company with its words, concepts and aliases, over more
// entities than one chunk of the snapshot holds. The concepts' companies and the members named by
// two words of their names are what a scan of every entity in the index's order finds. On a copy of
// the real-data fixture.
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

  /** The index's members and companies in its own order (most traded companies first), from a snapshot. */
  function entitiesOf(index: EntityIndex) {
    const snapshot = index.snapshot();
    type Item = { key: string; documentId: number; trades: number; words: { word: string }[] };
    const members = snapshot.members.flatMap((chunk) => JSON.parse(chunk) as Item[]);
    const companies = snapshot.companies.flatMap(
      (chunk) => JSON.parse(chunk) as (Item & { concepts: string[] })[],
    );
    return { members, companies };
  }

  it("lists several concepts' companies as one list, most traded first, up to the limit", async () => {
    const index = await EntityIndex.load(store.db);
    const { companies } = entitiesOf(index);
    const concepts = [
      { id: 'tech', phrase: 'tech stocks' },
      { id: 'financials', phrase: 'financials' },
    ];
    const ids = new Set(concepts.map((concept) => concept.id));
    const scanned = companies
      .filter((company) => company.concepts.some((id) => ids.has(id)))
      .map((company) => ({ id: company.documentId, key: company.key }));
    // Both concepts hold companies of the fixture, interleaved by trade count.
    for (const concept of concepts)
      expect(companies.some((company) => company.concepts.includes(concept.id))).toBe(true);
    expect(scanned.length).toBeGreaterThan(4);
    expect(index.conceptCompanies(concepts, 1000)).toEqual(scanned);
    expect(index.conceptCompanies(concepts, 4)).toEqual(scanned.slice(0, 4));
    expect(index.conceptCompanies([{ id: 'no-such-concept', phrase: 'x' }], 10)).toEqual([]);
  });

  it('names the members with two words of their names, more words first, then the most traded', async () => {
    const index = await EntityIndex.load(store.db);
    const { members } = entitiesOf(index);
    // Given names and their short forms only: none is a last name of the fixture's members, and a
    // member matched by one form is matched by the other exactly, never by a near spelling.
    const terms = ['michael', 'mike', 'james', 'jim', 'robert', 'bob'];
    const scanned = members
      .map((member) => ({
        member,
        matched: terms.filter((term) => member.words.some((entry) => entry.word === term)),
      }))
      .filter((entry) => entry.matched.length >= 2)
      .sort((a, b) => b.matched.length - a.matched.length || b.member.trades - a.member.trades)
      .slice(0, 10);
    expect(scanned.length).toBeGreaterThan(2);
    expect(index.named(terms).map((match) => [match.key, match.matched.map((entry) => entry.term)])).toEqual(
      scanned.map((entry) => [entry.member.key, entry.matched]),
    );
  });
});

describe('EntityIndex.named among equals', () => {
  it("keeps the index's order for members matched alike, whichever word found them first", async () => {
    // Constructed: two members with as many trades, each named by two of the question's words.
    const member = (key: string, documentId: number, words: string[]) => ({
      key,
      documentId,
      trades: 3,
      words: words.map((word) => ({ word, codes: [] })),
      lastName: [words[1]],
    });
    const index = await EntityIndex.fromSnapshot({
      members: [
        JSON.stringify([
          member('politician:john-adams', 1, ['john', 'adams']),
          member('politician:john-smith', 2, ['john', 'smith']),
        ]),
      ],
      companies: [],
    });
    const keys = (terms: string[]) => index.named(terms).map((match) => match.key);
    expect(keys(['smith', 'adams', 'john'])).toEqual(['politician:john-adams', 'politician:john-smith']);
    expect(keys(['adams', 'smith', 'john'])).toEqual(['politician:john-adams', 'politician:john-smith']);
    expect(keys(['smith', 'john'])).toEqual(['politician:john-smith']);
  });
});
