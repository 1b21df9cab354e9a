// Where embeddings come from. The default is the LSA model trained here on the indexed corpus
// (offline, nothing downloaded); an OpenAI-compatible or Voyage embeddings API can be configured
// instead (see config.ts: DCLEDGER_EMBEDDINGS_*). Both produce unit-length float32 vectors.
import type { EmbeddingsApiSettings } from '../domain/embeddings.js';
import { ThreadRequests, threadModule } from '../threads.js';
import {
  DEFAULT_LSA_OPTIONS,
  deserializeLsa,
  embedLsa,
  type LsaModel,
  serializeLsa,
  trainLsa,
} from './lsa.js';
import { trainLsaOffThread } from './lsa-training.js';

export type EmbeddingPurpose = 'document' | 'query';

export interface Embedder {
  /** Stored with each vector: vectors of another model are re-computed. */
  readonly model: string;
  readonly provider: 'lsa' | 'openai' | 'voyage';
  readonly dimensions: number;
  embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]>;
}

export class LsaEmbedder implements Embedder {
  readonly provider = 'lsa' as const;
  readonly model: string;
  readonly dimensions: number;
  private readonly index: Map<string, number>;

  constructor(
    private readonly lsa: LsaModel,
    model: string,
  ) {
    this.model = model;
    this.dimensions = lsa.dimensions;
    this.index = new Map(lsa.terms.map((term, i) => [term, i]));
  }

  static train(texts: readonly string[], trainedAt: Date): LsaEmbedder {
    return LsaEmbedder.named(trainLsa(texts, DEFAULT_LSA_OPTIONS), trainedAt);
  }

  /** train() in a worker thread (lsa-training.ts): what a serving process calls. */
  static async trainOffThread(texts: readonly string[], trainedAt: Date): Promise<LsaEmbedder> {
    return LsaEmbedder.named(await trainLsaOffThread(texts, DEFAULT_LSA_OPTIONS), trainedAt);
  }

  private static named(lsa: LsaModel, trainedAt: Date): LsaEmbedder {
    return new LsaEmbedder(
      lsa,
      `lsa-${lsa.dimensions}d-${trainedAt.toISOString().replace(/[-:.]/g, '').slice(0, 15)}`,
    );
  }

  static load(model: string, state: Uint8Array): LsaEmbedder {
    return new LsaEmbedder(deserializeLsa(state), model);
  }

  serialize(): Uint8Array {
    return serializeLsa(this.lsa);
  }

  get vocabularySize(): number {
    return this.lsa.terms.length;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => embedLsa(this.lsa, text, this.index));
  }

  /**
   * The same model embedding in a worker thread of its own at a lower priority (the same vectors,
   * bit for bit): for a long run of embedding in a process whose thread has other work (the
   * search warm-up's, which holds the database's write lock for its writes). close() ends it.
   */
  inThread(): ThreadEmbedder {
    return new ThreadEmbedder(this.lsa, this.model);
  }
}

/** LsaEmbedder.inThread(): embed() answered by a worker thread holding the model. */
export class ThreadEmbedder implements Embedder {
  readonly provider = 'lsa' as const;
  readonly dimensions: number;
  private readonly thread: ThreadRequests<string[], Float32Array[]>;

  constructor(
    lsa: LsaModel,
    readonly model: string,
  ) {
    this.dimensions = lsa.dimensions;
    this.thread = new ThreadRequests(
      threadModule(import.meta.url, 'lsa-embed-thread'),
      lsa,
      'the embedding thread',
    );
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.thread.ask([...texts]);
  }

  /** Ends the thread (what it was still asked fails). */
  close(): Promise<void> {
    return this.thread.close();
  }
}

export interface RemoteEmbedderOptions extends EmbeddingsApiSettings {
  provider: 'openai' | 'voyage';
}

export class EmbeddingProviderError extends Error {}

/**
 * An embeddings HTTP API: OpenAI's shape ({model, input} → {data:[{index, embedding}]}), which
 * OpenAI-compatible servers share, or Voyage's (the same plus input_type query/document).
 */
export class RemoteEmbedder implements Embedder {
  readonly provider: 'openai' | 'voyage';
  readonly model: string;
  readonly dimensions: number;

  constructor(private readonly options: RemoteEmbedderOptions) {
    this.provider = options.provider;
    this.model = `${options.provider}:${options.model}`;
    this.dimensions = options.dimensions;
  }

  async embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += this.options.batchSize) {
      out.push(...(await this.request(texts.slice(at, at + this.options.batchSize), purpose)));
    }
    return out;
  }

  private async request(input: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: this.options.model, input };
    if (this.provider === 'voyage') body.input_type = purpose;
    else if (this.options.dimensions > 0) body.dimensions = this.options.dimensions;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl.replace(/\/$/, '')}/embeddings`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new EmbeddingProviderError(
        `embeddings request failed: ${error instanceof Error ? error.message : error}`,
      );
    }
    if (!response.ok)
      throw new EmbeddingProviderError(`embeddings provider answered HTTP ${response.status}`);
    const parsed = (await response.json()) as { data?: { index?: number; embedding?: unknown }[] };
    const data = parsed.data ?? [];
    if (data.length !== input.length) {
      throw new EmbeddingProviderError(
        `embeddings provider returned ${data.length} vectors for ${input.length} texts`,
      );
    }
    return [...data]
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((item) => {
        if (!Array.isArray(item.embedding) || item.embedding.some((x) => typeof x !== 'number')) {
          throw new EmbeddingProviderError(
            'embeddings provider returned a vector that is not a list of numbers',
          );
        }
        if (this.dimensions > 0 && item.embedding.length !== this.dimensions) {
          throw new EmbeddingProviderError(
            `embeddings provider returned ${item.embedding.length} dimensions, configured ${this.dimensions}`,
          );
        }
        return unit(Float32Array.from(item.embedding as number[]));
      });
  }
}

export function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}
