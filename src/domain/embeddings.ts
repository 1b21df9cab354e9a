// How an embeddings API is called: the configuration reads these settings from the environment and
// the semantic search's remote embedder calls the API with them, so they are declared here, below both.

/** The built-in latent semantic model, or an embeddings API (OpenAI's shape, or Voyage's). */
export type EmbeddingsProviderName = 'lsa' | 'openai' | 'voyage';

export interface EmbeddingsApiSettings {
  /** e.g. https://api.openai.com/v1 or https://api.voyageai.com/v1 (POST {baseUrl}/embeddings). */
  baseUrl: string;
  /** Sent as a bearer token (never printed); optional for a local OpenAI-compatible server. */
  apiKey: string | undefined;
  model: string;
  /** The vector length the model returns (0: whatever it returns, neither asked for nor checked). */
  dimensions: number;
  /** How long one request may take. */
  timeoutMs: number;
  /** Texts per request. */
  batchSize: number;
}
