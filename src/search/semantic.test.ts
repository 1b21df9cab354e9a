import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { LSA_TEST_CORPUS, LSA_TEST_OPTIONS } from '../test-support/lsa-corpus.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { EQUAL_WEIGHTS, explainMatch, fuseRankings, LSA_WEIGHTS, RRF_K } from './fusion.js';
import { embedLsa, trainLsa } from './lsa.js';
import { queryWords, stem, stemsIn, tokenize } from './text.js';

describe('search text', () => {
  it('stems and drops stop words; the full-text engine gets unstemmed words', () => {
    expect(tokenize('The Options traded by Senators')).toEqual(['option', 'trad', 'senator']);
    expect(stem('companies')).toBe('company');
    expect(stem('airlines')).toBe(stem('airline'));
    expect(stem('matches')).toBe('match');
    expect(queryWords('Which senators sold the airline stocks?')).toEqual([
      'senators',
      'sold',
      'airline',
      'stocks',
    ]);
  });

  it('finds which stems a text holds as tokenize() would, stemming only words that can match', () => {
    // Constructed: suffixes the stemmer removes or replaces, accents, digits, stop words, short words.
    const texts = [
      'Companies traded airline stocks; the company trades options.',
      'Café Société matches boxes, taxes and wishes: 10-K filings in 2020s',
      'Raytheon Technologies — defense contractor; Defence CONTRACTORS traded',
      'an at by it is ox ax 3M A.I. chips',
      '',
    ];
    const stems = [
      ['company', 'trad', 'airline', 'stock', 'option'],
      ['cafe', 'societe', 'match', 'box', 'tax', 'wish', '10', 'filing', '2020s'],
      ['defense', 'contractor', 'defence', 'technology', 'raytheon'],
      ['ox', 'ax', '3m', 'chip', 'ai', 'it'],
      ['anything'],
    ];
    for (const text of texts) {
      const tokens = new Set(tokenize(text));
      for (const wanted of stems) {
        const set = new Set(wanted);
        expect(stemsIn(text, set)).toEqual(new Set(wanted.filter((stemmed) => tokens.has(stemmed))));
      }
    }
    expect(stemsIn(texts[0] ?? '', new Set(['company', 'trad', 'missing']))).toEqual(
      new Set(['company', 'trad']),
    );
    // Seeded random texts over the same kinds of words, against stems they hold and some they do not.
    const vocabulary =
      'companies company trading trades traded airline Airlines boxes box matches café Société 3M 10-K AI an the is ox reinvested invest investing stocks stockholder e-mail naïve'.split(
        ' ',
      );
    const next = seededRandom(17);
    const pick = () => vocabulary[Math.floor(next() * vocabulary.length)] ?? '';
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, pick).join(next() < 0.5 ? ' ' : ', ');
      const held = tokenize(text);
      // The extras include words that occur inside others ("reinvested", "airline", "stockholder").
      const asked = new Set([
        ...held.filter(() => next() < 0.6),
        'compan',
        'stockhold',
        'trade',
        'xx',
        'invest',
        'line',
        'holder',
      ]);
      expect(stemsIn(text, asked)).toEqual(new Set(held.filter((stemmed) => asked.has(stemmed))));
    }
  });
});

describe('reciprocal rank fusion', () => {
  it('adds 1/(k + rank) from each list and keeps every part', () => {
    const fused = fuseRankings(
      [
        { id: 1, score: 9 },
        { id: 2, score: 5 },
      ],
      [
        { id: 2, similarity: 0.9 },
        { id: 3, similarity: 0.8 },
      ],
    );
    expect(fused.map((hit) => hit.id)).toEqual([2, 1, 3]);
    expect(fused[0]?.parts).toEqual({
      lexical: { rank: 2, score: 5 },
      vector: { rank: 1, similarity: 0.9 },
      fused: 1 / (RRF_K + 2) + 1 / (RRF_K + 1),
    });
    expect(fused[2]?.parts.lexical).toBeNull();
    // The same similarity as a float32 index and a float64 one compute it: the same report.
    const [fromMemory, fromDatabase] = [0.7666387557983398, 0.7666387477078693].map(
      (similarity) => fuseRankings([], [{ id: 7, similarity }])[0]?.parts.vector,
    );
    expect(fromMemory).toEqual({ rank: 1, similarity: 0.766639 });
    expect(fromDatabase).toEqual(fromMemory);
    expect(explainMatch(fused[0]?.parts ?? { lexical: null, vector: null, fused: 0 }, ['airline'])).toBe(
      'full-text rank 2: contains "airline"; embedding rank 1: cosine similarity 0.900',
    );
  });
});

describe('fusion weights', () => {
  it('lets weak vectors break ties among what other lists found and enter low on their own', () => {
    const lexical = [
      { id: 1, score: 9 },
      { id: 2, score: 8 },
      { id: 3, score: 7 },
    ];
    const vector = [
      { id: 4, similarity: 0.9 },
      { id: 3, similarity: 0.8 },
    ];
    // Equal weights: a document only the vectors found passes the full text's second.
    expect(fuseRankings(lexical, vector, RRF_K, {}, EQUAL_WEIGHTS).map((hit) => hit.id)).toEqual([
      3, 1, 4, 2,
    ]);
    const weighted = fuseRankings(lexical, vector, RRF_K, {}, LSA_WEIGHTS);
    expect(weighted.map((hit) => hit.id)).toEqual([3, 1, 2, 4]);
    expect(weighted[0]?.parts.fused).toBeCloseTo(1 / (RRF_K + 3) + LSA_WEIGHTS.vector / (RRF_K + 2), 12);
    expect(weighted[3]?.parts.fused).toBeCloseTo(LSA_WEIGHTS.vectorAlone / (RRF_K + 1), 12);
    // A name or concept list still counts in full beside the vectors.
    const named = fuseRankings([], vector, RRF_K, { fuzzy: [{ id: 5, edits: 0 }] }, LSA_WEIGHTS);
    expect(named[0]?.id).toBe(5);
  });
});

describe('LSA embeddings trained on a corpus', () => {
  const model = trainLsa(LSA_TEST_CORPUS, LSA_TEST_OPTIONS);
  const index = new Map(model.terms.map((term, i) => [term, i]));
  const cosine = (a: string, b: string) => {
    const x = embedLsa(model, a, index);
    const y = embedLsa(model, b, index);
    return x.reduce((sum, value, i) => sum + value * (y[i] ?? 0), 0);
  };

  it('puts texts about the same thing near each other, even without shared words', () => {
    expect(cosine('Delta', 'carrier flights')).toBeGreaterThan(cosine('Delta', 'vaccine drugs'));
    expect(cosine('aerospace', 'contractor')).toBeGreaterThan(0.8);
    expect(cosine('aerospace', 'vaccine')).toBeLessThan(0.3);
  });

  it('gives unit vectors, and none for words it never saw', () => {
    const vector = embedLsa(model, 'airline defense', index);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(embedLsa(model, 'zebra', index).every((x) => x === 0)).toBe(true);
  });
});

describe.skipIf(!realDataAvailable())('GET /v1/semantic-search on the real data', () => {
  let ctx: FixtureApp;
  let first: Awaited<ReturnType<typeof getJson<Answer>>>;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The first question starts loading the fixture's stored index (model, vectors, inverted lists)
    // into memory, in the background: sqlite-vec or the exact scan answer it.
    first = await getJson<Answer>(ctx, '/v1/semantic-search?q=nancy%20pelosi&types=politicians');
  });
  afterAll(async () => ctx?.close());

  type Answer = {
    mode: string;
    retrieval: { lexical: string; vector_index: string; model: string; provider: string };
    results: {
      type: string;
      key: string;
      title: string;
      score: number;
      score_parts: {
        lexical: { rank: number; score: number } | null;
        vector: { rank: number; similarity: number } | null;
        trades?: { rank: number; trade_count: number } | null;
        fused: number;
      };
      matched_terms: string[];
      why: string;
      slug?: string;
      ticker?: string;
      trade_id?: number;
    }[];
    total: number;
  };

  it('answers questions with members, stocks and trades, best first, with their score parts', async () => {
    const member = first;
    expect(member.status).toBe(200);
    expect(member.body.results[0]).toMatchObject({
      slug: 'nancy-pelosi',
      score: 1,
      key: 'politician:nancy-pelosi',
    });
    expect(member.body.retrieval.provider).toBe('lsa');
    expect(member.body.retrieval.lexical).toBe(
      ctx.store.dialect === 'sqlite' ? 'sqlite-fts5' : 'postgresql-tsvector',
    );
    expect(member.body.retrieval.vector_index).toBe(
      ctx.store.dialect === 'sqlite' ? 'sqlite-vec' : 'exact-scan',
    );
    const options = await getJson<Answer>(
      ctx,
      '/v1/semantic-search?q=pelosi%20nvidia%20call%20options&types=trades&limit=5',
    );
    expect(options.body.results.length).toBeGreaterThan(0);
    expect(options.body.results[0]?.title).toMatch(/Pelosi.*NVDA/);
    const top = options.body.results[0];
    expect(top?.score_parts.lexical?.rank).toBeGreaterThan(0);
    expect(top?.score_parts.vector?.rank).toBeGreaterThan(0);
    expect(top?.matched_terms).toEqual(expect.arrayContaining(['pelosi', 'nvidia']));
    expect(top?.why).toMatch(/full-text rank \d+: contains "pelosi"/);
    const scores = options.body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const stocks = await getJson<Answer>(ctx, '/v1/semantic-search?q=microsoft&types=tickers');
    expect(stocks.body.results[0]?.ticker).toBe('MSFT');
    expect(Number(stocks.headers['x-credits-charged'])).toBe(20 + stocks.body.results.length);
  });

  it('finds members and companies by misspelled names, below an exact match', async () => {
    const top = async (q: string, types: string) =>
      (await getJson<Answer>(ctx, `/v1/semantic-search?q=${encodeURIComponent(q)}&types=${types}&limit=5`))
        .body.results[0]?.key;
    // Sounded alike (phonetic codes), then within the edit budget of the word's length.
    expect(await top('Nansy Peloci', 'politicians')).toBe('politician:nancy-pelosi');
    expect(await top('josh gotheimer', 'politicians')).toBe('politician:josh-gottheimer');
    // One letter short of a name whose stem is the misspelling itself ("mcconnell" stems to "mcconnel").
    expect(await top('mitch mcconnel', 'politicians')).toBe('politician:mitch-mcconnell');
    const read = await getJson<{ corrections: { key: string; matched: unknown[] }[] }>(
      ctx,
      '/v1/semantic-search?q=mitch%20mcconnel&types=politicians',
    );
    expect(read.body.corrections[0]).toEqual({
      key: 'politician:mitch-mcconnell',
      matched: [
        { term: 'mitch', name: 'mitch', edits: 0 },
        { term: 'mcconnel', name: 'mcconnell', edits: 1 },
      ],
    });
    expect(await top('microsft', 'tickers')).toBe('ticker:MSFT');
    expect(await top('Lockheed Martn', 'tickers')).toBe('ticker:LMT');
  });

  it('answers a question that names a kind of record, or people, with that kind', async () => {
    const bill = await getJson<Answer>(ctx, '/v1/semantic-search?q=cloud%20computing%20security%20bill');
    // Not Representative Cloud: the question asks for a bill.
    expect(bill.body.results.length).toBeGreaterThan(0);
    expect(bill.body.results.every((r) => r.type === 'bills')).toBe(true);
    expect(bill.body.results.map((r) => r.key)).toContain('bill:hr21-117');
    // A question about people is answered with members, the stock it names read as their trades.
    const people = await getJson<Answer>(ctx, '/v1/semantic-search?q=members%20trading%20nvidia');
    expect(people.body.results.length).toBeGreaterThan(0);
    expect(people.body.results.every((r) => r.type === 'politicians')).toBe(true);
    expect(people.body.results.some((r) => r.score_parts.trades)).toBe(true);
    const lobbying = await getJson<Answer>(ctx, '/v1/semantic-search?q=lobbying%20on%20defense');
    expect(lobbying.body.results.length).toBeGreaterThan(0);
    expect(lobbying.body.results.every((r) => r.type === 'lobbying')).toBe(true);
  });

  it('names a company by a product or an owner of its reviewed other names', async () => {
    // "maker" is in many company texts; "Windows" only in Microsoft's other names.
    const product = await getJson<Answer>(ctx, '/v1/semantic-search?q=Windows%20maker&types=tickers&limit=5');
    expect(product.body.results[0]?.ticker).toBe('MSFT');
  });

  it('finds by meaning what shares no word with the question (vector mode)', async () => {
    // "carrier" is not in Delta's text; the model learned it from records that share words.
    const vector = await getJson<Answer>(
      ctx,
      '/v1/semantic-search?q=airline&types=tickers&mode=vector&limit=10',
    );
    expect(vector.body.mode).toBe('vector');
    expect(vector.body.results.every((r) => r.score_parts.lexical === null)).toBe(true);
    expect(vector.body.results.map((r) => r.ticker)).toEqual(expect.arrayContaining(['DAL']));
    const lexical = await getJson<Answer>(
      ctx,
      '/v1/semantic-search?q=airline&types=tickers&mode=lexical&limit=10',
    );
    expect(lexical.body.results.every((r) => r.score_parts.vector === null)).toBe(true);
  });

  it('searches the newer records: lobbying and contracts', async () => {
    const answer = await getJson<Answer>(
      ctx,
      '/v1/semantic-search?q=defense%20contract&types=contracts,lobbying',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results.length).toBeGreaterThan(0);
    expect(answer.body.results.every((r) => ['contracts', 'lobbying'].includes(r.type))).toBe(true);
  });

  it('answers a question about people with the members whose trades fit its period, chamber and direction', async () => {
    const q = encodeURIComponent('senators who sold stock in February 2020');
    const answer = await getJson<Answer>(ctx, `/v1/semantic-search?q=${q}`);
    expect(answer.status).toBe(200);
    const ranked = answer.body.results.filter((result) => result.score_parts.trades);
    expect(ranked.length).toBeGreaterThan(0);
    // The first of that list, as /trades counts the Senate's sales of February 2020.
    const trades = await getJson<{ politician_slug: string }[]>(
      ctx,
      '/trades?chamber=senate&trade_type=sell&transaction_date_from=2020-02-01&transaction_date_to=2020-02-29&limit=1000',
    );
    const counts = new Map<string, number>();
    for (const trade of trades.body)
      counts.set(trade.politician_slug, (counts.get(trade.politician_slug) ?? 0) + 1);
    const most = Math.max(...counts.values());
    const first = ranked.find((result) => result.score_parts.trades?.rank === 1);
    expect(first?.type).toBe('politicians');
    expect(counts.get(first?.slug ?? '')).toBe(most);
    expect(first?.score_parts.trades?.trade_count).toBe(most);
    // Every member so ranked is a senator with such a sale.
    for (const result of ranked) expect(counts.has(result.slug ?? '')).toBe(true);
    // Without a period or stocks the question names no trades to rank by.
    const vague = await getJson<Answer>(
      ctx,
      `/v1/semantic-search?q=${encodeURIComponent('senators who sold stock')}`,
    );
    expect(vague.body.results.some((result) => result.score_parts.trades)).toBe(false);
  });

  it('answers a former symbol or name with the company as it trades now, its trades under both symbols inside', async () => {
    type Grouped = Answer['results'][number] & {
      evidence: { ticker?: string; subtitle: string }[];
      evidence_count: number;
    };
    const ask = async (q: string) =>
      (
        await getJson<{ results: Grouped[] }>(
          ctx,
          `/v1/semantic-search?q=${encodeURIComponent(q)}&types=tickers,trades&limit=5`,
        )
      ).body.results;
    // Facebook's FB became META in 2022: one company, whichever symbol or name is typed.
    for (const q of ['FB', 'Facebook']) {
      const results = await ask(q);
      expect(results[0]).toMatchObject({ key: 'ticker:META', title: 'META', subtitle: 'Meta Platforms' });
      expect(results.map((result) => result.key)).not.toContain('ticker:FB');
      expect(results[0]?.evidence.map((item) => item.ticker)).toContain('FB');
    }
    // Asked as META, the FB-filed trades count under Meta too: more than the trades filed as META.
    const filedAsMeta = await ctx.store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ticker', '=', 'META')
      .where('superseded_by', 'is', null)
      .executeTakeFirstOrThrow();
    const meta = (await ask('META'))[0];
    expect(meta?.key).toBe('ticker:META');
    expect(meta?.evidence_count).toBeGreaterThan(Number(filedAsMeta.n));
    // United Technologies (UTX) is RTX since the Raytheon merger of 2020.
    const utx = (await ask('UTX'))[0];
    expect(utx?.key).toBe('ticker:RTX');
    expect(utx?.evidence.length).toBeGreaterThan(0);
    for (const item of utx?.evidence ?? []) expect(item.ticker).toBe('UTX');
  });

  it("keeps a reused symbol's companies apart by the trade's date: BBT was BB&T (Truist) until Beacon Financial took it", async () => {
    const { body } = await getJson<{
      results: { key: string; evidence: { ticker?: string; subtitle: string }[] }[];
    }>(ctx, '/v1/semantic-search?q=BBT&types=tickers,trades&limit=5');
    const truist = body.results.find((result) => result.key === 'ticker:TFC');
    const beacon = body.results.find((result) => result.key === 'ticker:BBT');
    const bbtDates = (result: typeof truist) =>
      (result?.evidence ?? [])
        .filter((item) => item.ticker === 'BBT')
        .map((item) => item.subtitle.slice(0, 10));
    // The subtitle of a trade starts with its transaction date.
    expect(bbtDates(truist).length).toBeGreaterThan(0);
    for (const date of bbtDates(truist)) expect(date < '2025-09-02').toBe(true);
    expect(bbtDates(beacon)).toEqual(['2025-09-25']);
  });

  it('validates its parameters', async () => {
    expect((await getJson(ctx, '/v1/semantic-search')).status).toBe(400);
    expect((await getJson(ctx, '/v1/semantic-search?q=a')).status).toBe(422);
    expect((await getJson(ctx, '/v1/semantic-search?q=apple&types=planets')).status).toBe(422);
    const mode = await getJson<{ detail: string }>(ctx, '/v1/semantic-search?q=apple&mode=psychic');
    expect(mode.status).toBeGreaterThanOrEqual(400);
    expect(mode.body.detail).toMatch(/mode/);
  });
});
