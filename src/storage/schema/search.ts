// The tables of search: the documents and their vectors, the embedding models, each source's
// watermark, and the stored inverted-file vector index.
import type { Generated } from 'kysely';

/** The stored inverted-file vector index of one embedding model (migration 0023-search-ivf). */
export interface SearchIvfTable {
  model: string;
  dimensions: number;
  lists: number;
  trained_vectors: number;
  trained_similarity: number;
  built_at: string;
}

export interface SearchIvfCentroidsTable {
  model: string;
  list: number;
  centroid: Uint8Array;
}

/** Valid while `seq` equals the vector's search_vectors.seq. */
export interface SearchIvfAssignmentsTable {
  model: string;
  document_id: number;
  list: number;
  seq: number;
}

/** One searchable record: the text full-text search and embeddings read (migration 0016-search). */
export interface SearchDocumentsTable {
  id: Generated<number>;
  doc_key: string;
  kind: string;
  ref_id: string;
  title: string;
  subtitle: string;
  body: string;
  /** JSON of the response's reference fields. */
  refs: string;
  vector_model: string | null;
  updated_at: string;
}

export interface SearchVectorsTable {
  document_id: number;
  model: string;
  kind: string;
  vector: Uint8Array;
  seq: number;
}

export interface SearchModelsTable {
  model: string;
  provider: string;
  dimensions: number;
  state: Uint8Array | null;
  trained_on: Generated<number>;
  active: Generated<number>;
  created_at: string;
}

export interface SearchSourcesTable {
  source: string;
  last_id: Generated<number>;
  last_updated: Generated<string>;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface SearchTables {
  search_documents: SearchDocumentsTable;
  search_vectors: SearchVectorsTable;
  search_models: SearchModelsTable;
  search_sources: SearchSourcesTable;
  search_ivf: SearchIvfTable;
  search_ivf_centroids: SearchIvfCentroidsTable;
  search_ivf_assignments: SearchIvfAssignmentsTable;
}
