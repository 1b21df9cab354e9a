// What the command line says about the sources (`ingest [source]`, `parse --source`), read from
// the registry's manifests alone: the help is built without loading the ingest modules.
import { REGISTRY } from '../ingest/sources/registry.js';

/** Every registered source's name (`parse --source` takes them). */
export const SOURCE_NAMES: readonly string[] = REGISTRY.names;

/** The help of `ingest [source]`: every registered source, what `all` runs. */
export function ingestSourcesHelp(): string {
  const trade = REGISTRY.tradeDocuments.map((source) => source.manifest.name);
  const others = REGISTRY.sources
    .filter((source) => source.manifest.kind !== 'trade-documents')
    .map((source) => `${source.manifest.name} (${source.manifest.title})`);
  return `${trade.join(', ')} or all (${trade.join(' + ')}); ${others.join(', ')}`;
}
