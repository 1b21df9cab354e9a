// `dcledger search index`: brings the semantic-search index up to date (new records become
// documents, the embedding model is trained or chosen, documents are embedded), with progress.
// Also builds the engine `serve` hands to /v1/semantic-search from the configuration.
import type { Kysely } from 'kysely';
import { type EmbeddingsConfig, loadConfig } from '../config.js';
import { RemoteEmbedder } from '../search/embedders.js';
import { type SearchOptions, SemanticSearch } from '../search/semantic.js';
import { openMigratedStore } from '../storage/open.js';
import type { Database } from '../storage/schema.js';
import { printLine } from './output.js';
import { progressBar } from './progress.js';

/** The configured embeddings provider's embedder; undefined for the built-in LSA model. */
export function configuredEmbedder(config: EmbeddingsConfig): RemoteEmbedder | undefined {
  const { provider, ...api } = config;
  return provider === 'lsa' ? undefined : new RemoteEmbedder({ ...api, provider });
}

export function semanticSearchFromConfig(
  db: Kysely<Database>,
  config: EmbeddingsConfig,
  onProgress?: SearchOptions['onProgress'],
  options: Pick<SearchOptions, 'inThreads'> = {},
): SemanticSearch {
  const embedder = configuredEmbedder(config);
  return new SemanticSearch(db, {
    ...options,
    ...(embedder ? { embedder } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}

export async function searchIndexCommand(): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const bar = progressBar('embedding');
  let lastStage = '';
  const engine = semanticSearchFromConfig(store.db, config.embeddings, (stage, done, total) => {
    if (stage === 'vectors') bar.update(done, total);
    else if (stage !== lastStage) printLine(`search index: ${stage}${total ? ` (${total})` : ''}`);
    lastStage = stage;
  });
  try {
    const started = Date.now();
    await engine.prepare(new Date());
    bar.stop();
    printLine(`search index: up to date in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await store.close();
  }
}
