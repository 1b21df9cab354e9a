// `npm run bench -- search`: retrieval quality and latency of /v1/semantic-search's engine on the
// 115k-trade bench database the HTTP bench builds (the real data, trades grown four times).
// Quality: bench/search/queries.json holds realistic questions with relevance rules over the
// real records; the rules are resolved to stable keys (bench/search/judged.json, rewritten by
// each run) and every mode (lexical-only, vector-only, hybrid) is scored by nDCG@10 and
// recall@20. Copies made by the multiplier count as their original (first occurrence only).
// Latency: p50/p99 per mode, where one question's milliseconds go (stages timed by the engine,
// each retriever alone), what a restart costs (the stored IVF index loaded, not trained), and the
// whole HTTP request (key, validation, metering, serialization) against the engine call alone.
// BENCH_SEARCH_DB=<file> keeps the indexed database there and reuses it on the next run (the
// build and the indexing take minutes); without it a temporary database is built and removed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { createAccount } from '../src/accounts/admin.js';
import { buildApp } from '../src/app.js';
import { configuredEmbedder } from '../src/cli/search.js';
import { readEmbeddings } from '../src/config.js';
import type { RemoteEmbedder } from '../src/search/embedders.js';
import {
  SEARCH_MODES,
  SEMANTIC_TYPES,
  type SearchMode,
  type SearchStage,
  SemanticSearch,
  type SemanticType,
} from '../src/search/semantic.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import type { Database } from '../src/storage/schema.js';
import { repoRoot } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';
import { buildDatabase } from './http.js';
import { machine } from './report.js';

type Criteria =
  | {
      kind: 'trades';
      chamber?: string;
      action?: string;
      party?: string;
      member?: string;
      tickers?: string[];
      industry?: string[];
      from?: string;
      to?: string;
      /** An option trade (asset type Option or an option type); "call"/"put": of that kind. */
      option?: boolean | 'call' | 'put';
      owner?: string;
    }
  | { kind: 'tickers'; tickers: string[] }
  | { kind: 'politicians'; slugs: string[] };

interface LabeledQuery {
  query: string;
  criteria: Criteria;
}

const DIR = join(repoRoot, 'bench', 'search');

/** The configured embeddings provider's embedder, if one is configured (else the built-in LSA model). */
function providerEmbedder(): { embedder?: RemoteEmbedder } {
  const embedder = configuredEmbedder(readEmbeddings(process.env));
  return embedder ? { embedder } : {};
}

/** The stable keys a query's relevance rule selects among the original (not multiplied) records. */
export async function judge(db: Kysely<Database>, criteria: Criteria): Promise<string[]> {
  if (criteria.kind === 'tickers') {
    const rows = await db
      .selectFrom('search_documents')
      .select('doc_key')
      .where(
        'doc_key',
        'in',
        criteria.tickers.map((ticker) => `ticker:${ticker}`),
      )
      .execute();
    return rows.map((row) => row.doc_key);
  }
  if (criteria.kind === 'politicians') return criteria.slugs.map((slug) => `politician:${slug}`);
  let query = db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .leftJoin('companies as c', 'c.ticker', 't.ticker')
    .select(['t.source', 't.source_key'])
    .where('t.superseded_by', 'is', null)
    .where('t.source_key', 'not like', '%#bench%');
  if (criteria.chamber) query = query.where('p.chamber', '=', criteria.chamber);
  if (criteria.action) query = query.where('t.trade_action', '=', criteria.action);
  if (criteria.party) query = query.where('p.party', '=', criteria.party);
  if (criteria.member) query = query.where('p.slug', '=', criteria.member);
  if (criteria.tickers) query = query.where('t.ticker', 'in', criteria.tickers);
  if (criteria.from) query = query.where('t.transaction_date', '>=', criteria.from);
  if (criteria.to) query = query.where('t.transaction_date', '<', criteria.to);
  const option = criteria.option;
  if (option) {
    query = query.where((eb) =>
      eb.or([eb('t.asset_type', '=', 'Option'), eb('t.option_type', 'is not', null)]),
    );
  }
  // The option's kind is in option_type when the filing's parser found it, else only in the
  // asset's description ("NVIDIA Corporation - Purchased 50 Call options ...").
  if (option === 'call' || option === 'put') {
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(coalesce(t.option_type, ''))`, '=', option),
        eb(sql<string>`lower(coalesce(t.asset_description, ''))`, 'like', `%${option}%`),
      ]),
    );
  }
  if (criteria.owner) query = query.where('t.owner', '=', criteria.owner);
  const industry = criteria.industry;
  if (industry) {
    query = query.where((eb) =>
      eb.or(
        industry.map((pattern) => eb(sql<string>`coalesce(c.industry, t.industry, '')`, 'like', pattern)),
      ),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => `trade:${row.source}:${row.source_key}`);
}

/** A multiplied copy counts as its original; repeats of one original are dropped from the ranking. */
export function canonicalRanking(keys: readonly string[]): string[] {
  return [...new Set(keys.map((key) => key.replace(/#bench\d+$/, '')))];
}

/** Binary-relevance nDCG@k. */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((key, i) => {
    if (relevant.has(key)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Recall@k against what k results could hold: hits / min(k, |relevant|). */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const possible = Math.min(k, relevant.size);
  return possible === 0 ? 0 : ranked.slice(0, k).filter((key) => relevant.has(key)).length / possible;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runSearchBench(): Promise<string> {
  const labeled = (JSON.parse(readFileSync(join(DIR, 'queries.json'), 'utf8')) as { queries: LabeledQuery[] })
    .queries;
  const kept = process.env.BENCH_SEARCH_DB;
  const dir = kept ? undefined : mkdtempSync(join(tmpdir(), 'dcledger-search-bench-'));
  try {
    const file = kept ?? join(dir ?? '.', 'bench.db');
    let started = Date.now();
    const reused = existsSync(file);
    if (!reused) {
      const data = await buildDatabase(file);
      console.log(
        `[bench] search: database built (${data.trades} trades) in ${((Date.now() - started) / 1000).toFixed(0)}s`,
      );
    }
    const store = openStore({ kind: 'sqlite', file });
    await migrateToLatest(store.db);
    const trades = Number(
      (
        await store.db
          .selectFrom('trades')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let lastLog = 0;
    // An embeddings provider configured (DCLEDGER_EMBEDDINGS_*, docs/search.md): its vectors are measured.
    const provider = providerEmbedder();
    const engine = new SemanticSearch(store.db, {
      ...provider,
      onProgress: (stage, done, total) => {
        if (Date.now() - lastLog > 5_000 || stage.startsWith('vector-index')) {
          console.log(`[bench] search: indexing ${stage} ${done}/${total}`);
          lastLog = Date.now();
        }
      },
    });
    started = Date.now();
    await engine.prepare(FIXTURE_NOW);
    await engine.vectorIndexReady();
    const indexSeconds = (Date.now() - started) / 1000;
    // A restart: a new engine over the same database loads the stored index (and the vectors).
    const stages = new Map<string, number[]>();
    let profiling: SearchMode | undefined;
    const restarts: string[] = [];
    started = Date.now();
    const restarted = new SemanticSearch(store.db, {
      ...provider,
      onProgress: (stage) => {
        if (stage.startsWith('vector-index')) restarts.push(stage);
      },
      onTiming: (stage: SearchStage, ms) => {
        if (!profiling) return;
        const key = `${stage} (${profiling})`;
        stages.set(key, [...(stages.get(key) ?? []), ms]);
      },
    });
    await restarted.prepare(FIXTURE_NOW);
    await restarted.vectorIndexReady();
    const restartSeconds = (Date.now() - started) / 1000;
    const documents = Number(
      (
        await store.db
          .selectFrom('search_documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const judged: { query: string; kind: string; relevant: string[] }[] = [];
    for (const item of labeled) {
      judged.push({
        query: item.query,
        kind: item.criteria.kind,
        relevant: (await judge(store.db, item.criteria)).sort(),
      });
    }
    writeFileSync(join(DIR, 'judged.json'), `${JSON.stringify(judged, null, 2)}\n`);
    const usable = judged.filter((item) => item.relevant.length > 0);

    const rows: string[] = [];
    const scores: Record<string, { ndcg: number; recall: number; p50: number; p99: number }> = {};
    for (const mode of SEARCH_MODES as readonly SearchMode[]) {
      let ndcg = 0;
      let recall = 0;
      const latencies: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        profiling = pass === 1 ? mode : undefined;
        for (const item of usable) {
          const begin = performance.now();
          const answer = await restarted.search(
            { q: item.query, types: [item.kind as SemanticType], limit: 50, mode },
            FIXTURE_NOW,
          );
          latencies.push(performance.now() - begin);
          if (pass > 0) continue;
          // A result and the trades grouped inside it, in order, as one ranking of trades.
          const ranked = canonicalRanking(
            answer.results.flatMap((result) => [
              result.key,
              ...(result.evidence ?? []).map((item) => item.key),
            ]),
          );
          const relevant = new Set(item.relevant);
          ndcg += ndcgAt(ranked, relevant, 10);
          recall += recallAt(ranked, relevant, 20);
        }
      }
      scores[mode] = {
        ndcg: ndcg / usable.length,
        recall: recall / usable.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      };
    }
    profiling = undefined;
    const labelledTable = await labelledQuality(store.db, restarted);
    const profile = stageTable(stages);
    const http = await httpLatency(store.db, restarted, usable);
    const lexical = scores.lexical?.ndcg ?? 0;
    for (const mode of SEARCH_MODES) {
      const s = scores[mode];
      if (!s) continue;
      const gain =
        mode === 'lexical' || lexical === 0
          ? ''
          : ` (${(((s.ndcg - lexical) / lexical) * 100).toFixed(1)}% vs lexical)`;
      rows.push(
        `| ${mode} | ${s.ndcg.toFixed(3)}${gain} | ${s.recall.toFixed(3)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} |`,
      );
    }
    await store.close();
    return [
      '## Semantic search quality and latency',
      '',
      `Command: \`${kept ? 'BENCH_SEARCH_DB=<file> ' : ''}npm run bench -- search\`${kept ? ' (the database kept in <file> by an earlier run)' : ''}`,
      '',
      `${machine()} Load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} (the machine is shared; latencies include that).`,
      '',
      `Database: the HTTP bench's (${trades} trades, four copies of the real ones, plus the recorded SEC documents); ` +
        `${documents} search documents; ` +
        (reused
          ? `reused (BENCH_SEARCH_DB), bringing the index up to date took ${indexSeconds.toFixed(1)} s.`
          : `indexing from nothing (documents, LSA training, vectors, the in-memory IVF index) took ${indexSeconds.toFixed(0)} s.`),
      `A restart (a new engine over the same database) was ready in ${restartSeconds.toFixed(1)} s: ${restarts.join(', ') || 'no in-memory index'} ` +
        '(the vectors read into memory and the stored IVF index put back, migration 0023-search-ivf, instead of trained again).',
      `Queries: ${usable.length} of ${labeled.length} in bench/search/queries.json have at least one relevant record ` +
        '(judged keys in bench/search/judged.json); each searched within its judged kind, 50 results, copies folded into their original.',
      '',
      ...labelledTable,
      '',
      'The trade questions of bench/search/queries.json (a result and the trades grouped inside it read as one ranking):',
      '',
      '| mode | nDCG@10 | recall@20 | p50 ms | p99 ms |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      'Latency is the engine call in process (two passes over the queries), without HTTP.',
      '',
      "Where one question's milliseconds go (second pass, 50 results; stages as the engine times them, by mode).",
      "In hybrid mode the two retrievers are started together and their awaits interleave, so each one's own",
      'cost is read from its mode alone (full-text under lexical, embed and vector-scan under vector);',
      'fusion and hydrate from hybrid:',
      '',
      '| stage | mean ms | p50 ms | p99 ms |',
      '|---|---|---|---|',
      ...profile,
      '',
      `The whole HTTP request (GET /v1/semantic-search, 10 results, by app.inject: key, validation, search, metering, ` +
        `serialization), the ${usable.length} questions twice: p50 ${http.request.p50.toFixed(1)} ms, p99 ${http.request.p99.toFixed(1)} ms; ` +
        `the engine call alone for the same questions: p50 ${http.engine.p50.toFixed(1)} ms, p99 ${http.engine.p99.toFixed(1)} ms.`,
    ].join('\n');
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function stageTable(stages: ReadonlyMap<string, number[]>): string[] {
  return [...stages].map(([stage, times]) => {
    const mean = times.reduce((sum, ms) => sum + ms, 0) / Math.max(1, times.length);
    return `| ${stage} | ${mean.toFixed(2)} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} |`;
  });
}

/** The same questions through the HTTP route (app.inject, a real key and metering) and through the engine alone. */
async function httpLatency(
  db: Kysely<Database>,
  engine: SemanticSearch,
  questions: readonly { query: string; kind: string }[],
) {
  const account = await createAccount(
    db,
    { email: `search-bench-${Date.now()}@example.org`, plan: 'max', credits: 1_000_000_000, paid: true },
    FIXTURE_NOW,
  );
  const app = await buildApp({ db, dialect: 'sqlite', clock: () => FIXTURE_NOW, semanticSearch: engine });
  const request: number[] = [];
  const alone: number[] = [];
  try {
    for (let pass = 0; pass < 2; pass++) {
      for (const item of questions) {
        let begin = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: `/v1/semantic-search?q=${encodeURIComponent(item.query)}&types=${item.kind}`,
          headers: { 'dc-api-key': account.key.api_key },
        });
        request.push(performance.now() - begin);
        if (response.statusCode !== 200)
          throw new Error(`semantic search answered ${response.statusCode}: ${response.body}`);
        begin = performance.now();
        await engine.search({ q: item.query, types: [item.kind as SemanticType], limit: 10 }, FIXTURE_NOW);
        alone.push(performance.now() - begin);
      }
    }
  } finally {
    await app.close();
  }
  const summary = (times: number[]) => ({ p50: percentile(times, 50), p99: percentile(times, 99) });
  return { request: summary(request), engine: summary(alone) };
}

interface Labelled {
  query: string;
  kind: string;
  split: 'dev' | 'test';
  expected?: string[];
  rule?: { kind: 'lobbying'; issue: string } | { kind: 'contracts'; agency: string };
}

/** The keys a labelled query expects: its list, or its rule resolved over the records. */
async function expectedKeys(db: Kysely<Database>, item: Labelled): Promise<string[]> {
  if (item.expected) return item.expected;
  const rule = item.rule;
  if (!rule) return [];
  if (rule.kind === 'lobbying') {
    const rows = await db
      .selectFrom('lobbying_filings as f')
      .innerJoin('lobbying_issues as i', 'i.filing_id', 'f.id')
      .select('f.filing_uuid')
      .distinct()
      .where('i.code', '=', rule.issue)
      .execute();
    return rows.map((row) => `lobbying:${row.filing_uuid}`);
  }
  const rows = await db
    .selectFrom('contract_awards')
    .select('award_key')
    .where('awarding_agency', '=', rule.agency)
    .execute();
  return rows.map((row) => `contract:${row.award_key}`);
}

/** nDCG@10 and recall@10 of bench/search/labelled.json per kind, split and mode (every kind searched, 10 results). */
async function labelledQuality(db: Kysely<Database>, engine: SemanticSearch): Promise<string[]> {
  const items = (JSON.parse(readFileSync(join(DIR, 'labelled.json'), 'utf8')) as { queries: Labelled[] })
    .queries;
  const cells = new Map<string, { ndcg: number; recall: number; n: number }>();
  const add = (key: string, ndcg: number, recall: number) => {
    const cell = cells.get(key) ?? { ndcg: 0, recall: 0, n: 0 };
    cell.ndcg += ndcg;
    cell.recall += recall;
    cell.n += 1;
    cells.set(key, cell);
  };
  const misses: string[] = [];
  for (const item of items) {
    const relevant = new Set(await expectedKeys(db, item));
    for (const mode of SEARCH_MODES as readonly SearchMode[]) {
      const answer = await engine.search(
        { q: item.query, types: SEMANTIC_TYPES, limit: 10, mode },
        FIXTURE_NOW,
      );
      const ranked = answer.results.map((result) => result.key);
      const ndcg = ndcgAt(ranked, relevant, 10);
      const recall = recallAt(ranked, relevant, 10);
      for (const kind of [item.kind, 'all'])
        for (const split of [item.split, 'both']) add(`${mode}|${kind}|${split}`, ndcg, recall);
      if (mode === 'hybrid' && item.split === 'dev' && recall < 1)
        misses.push(`${item.query}: recall ${recall.toFixed(2)}; top ${ranked.slice(0, 5).join(', ')}`);
    }
  }
  if (process.env.BENCH_SEARCH_VERBOSE) console.log(misses.join('\n'));
  const kinds = [...new Set(items.map((item) => item.kind)), 'all'];
  const rows: string[] = [
    `Labelled queries (bench/search/labelled.json, ${items.length} queries, every kind searched, 10 results): nDCG@10 / recall@10 on the **test split** (never tuned on), the dev split in brackets.`,
    '',
    `| kind | queries (test) | ${SEARCH_MODES.map((mode) => `${mode} nDCG@10`).join(' | ')} | ${SEARCH_MODES.map((mode) => `${mode} recall@10`).join(' | ')} |`,
    `|---|---|${SEARCH_MODES.map(() => '---|').join('')}${SEARCH_MODES.map(() => '---|').join('')}`,
  ];
  for (const kind of kinds) {
    const cell = (mode: string, split: string, field: 'ndcg' | 'recall') => {
      const c = cells.get(`${mode}|${kind}|${split}`);
      return c ? c[field] / c.n : 0;
    };
    const both = (mode: string, field: 'ndcg' | 'recall') =>
      `${cell(mode, 'test', field).toFixed(2)} (${cell(mode, 'dev', field).toFixed(2)})`;
    const n = cells.get(`hybrid|${kind}|test`)?.n ?? 0;
    rows.push(
      `| ${kind} | ${n} | ${SEARCH_MODES.map((mode) => both(mode, 'ndcg')).join(' | ')} | ${SEARCH_MODES.map((mode) => both(mode, 'recall')).join(' | ')} |`,
    );
  }
  return rows;
}
