// Every source, one entry each: its manifest (what it is, read at once by every layer, the
// configuration and the domain tables included) and its definition (how it runs: connector,
// parser, store, replay routes), loaded when a command needs it. Adding a source is its folder
// under ingest/sources/ and one entry here (docs/adding-a-source.md).
//
// This file is read by the bottom layers (domain/sources.ts, config.ts), so it imports manifests
// only, which import nothing but types; the definitions, which import the rest of the ingest
// layer, are loaded by name (import()) when asked for.
import { billsManifest } from './congress/manifest.js';
import { houseManifest } from './house/manifest.js';
import { lobbyingManifest } from './lda/manifest.js';
import type { SourceManifest, TradeDocumentsManifest } from './manifest.js';
import { ogeManifest } from './oge/manifest.js';
import { secManifest } from './sec/manifest.js';
import { senateManifest } from './senate/manifest.js';
import type { SourceDefinition } from './source-definition.js';
import { contractsManifest } from './usaspending/manifest.js';
import { votesManifest } from './voteview/manifest.js';

export interface RegisteredSource<M extends SourceManifest = SourceManifest> {
  readonly manifest: M;
  /** Loads the source's definition (its folder's source.ts). */
  readonly load: () => Promise<SourceDefinition>;
}

/**
 * A registry entry: the manifest, and the module (beside this file) that exports the definition.
 * The definition's type is checked where it is written (`tradeDocumentsSource`, `recordsSource`
 * in its source.ts) and here at run time: the domain tables take their types from the manifests,
 * and a typed import of the definitions would make those types depend on themselves.
 */
function entry<M extends SourceManifest>(manifest: M, module: string): RegisteredSource<M> {
  return {
    manifest,
    load: async () => {
      const { definition } = (await import(module)) as { definition: unknown };
      if (!isDefinitionOf(definition, manifest))
        throw new Error(`the definition of source ${manifest.name} does not carry its manifest`);
      return definition;
    },
  };
}

function isDefinitionOf(definition: unknown, manifest: SourceManifest): definition is SourceDefinition {
  return (
    typeof definition === 'object' &&
    definition !== null &&
    (definition as { manifest?: unknown }).manifest === manifest
  );
}

/** The order is the order of `dcledger ingest all`, of the replay server's routes and of `parse`'s detection. */
export const SOURCES = [
  entry(houseManifest, './house/source.js'),
  entry(senateManifest, './senate/source.js'),
  entry(ogeManifest, './oge/source.js'),
  entry(secManifest, './sec/source.js'),
  entry(lobbyingManifest, './lda/source.js'),
  entry(contractsManifest, './usaspending/source.js'),
  entry(billsManifest, './congress/source.js'),
  entry(votesManifest, './voteview/source.js'),
] as const;

export type RegisteredManifest = (typeof SOURCES)[number]['manifest'];
export type TradeDocumentsSourceManifest = Extract<RegisteredManifest, { kind: 'trade-documents' }>;

/** The manifests of the registered sources, in registry order. */
export const SOURCE_MANIFESTS: readonly RegisteredManifest[] = SOURCES.map((source) => source.manifest);

export function isTradeDocuments(manifest: SourceManifest): manifest is TradeDocumentsManifest {
  return manifest.kind === 'trade-documents';
}

/** A set of sources: the registered ones, or those plus others (a test's constructed source). */
export class SourceRegistry {
  constructor(readonly sources: readonly RegisteredSource[]) {}

  get names(): string[] {
    return this.sources.map((source) => source.manifest.name);
  }

  find(name: string): RegisteredSource | undefined {
    return this.sources.find((source) => source.manifest.name === name.toLowerCase());
  }

  /** The trade-document sources: `dcledger ingest all` and serve's default schedule. */
  get tradeDocuments(): RegisteredSource<TradeDocumentsManifest>[] {
    return this.sources.filter((source): source is RegisteredSource<TradeDocumentsManifest> =>
      isTradeDocuments(source.manifest),
    );
  }

  /** Every definition, loaded (the replay server and `parse` read them all). */
  async definitions(): Promise<SourceDefinition[]> {
    return Promise.all(this.sources.map((source) => source.load()));
  }

  /** A registry with more sources after these. */
  with(...more: RegisteredSource[]): SourceRegistry {
    return new SourceRegistry([...this.sources, ...more]);
  }
}

export const REGISTRY = new SourceRegistry(SOURCES);

/** A source outside the registered list (a test's constructed source), to add with `REGISTRY.with()`. */
export function registeredSource(definition: SourceDefinition): RegisteredSource {
  return { manifest: definition.manifest, load: async () => definition };
}
