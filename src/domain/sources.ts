// The disclosure sources, their short names and the chamber each stands for, read by the API
// filters, the resources, search, the CLI and the ingest pipeline. The tables are built from the
// trade-document sources' manifests (ingest/sources/<name>/manifest.ts, listed by the source
// registry): a source's name, `source` column and chamber are written once, in its own folder.
import { SOURCE_MANIFESTS, type TradeDocumentsSourceManifest } from '../ingest/sources/registry.js';

export type Chamber = 'House' | 'Senate' | 'Executive';

const TRADE_MANIFESTS = SOURCE_MANIFESTS.filter(
  (manifest): manifest is TradeDocumentsSourceManifest => manifest.kind === 'trade-documents',
);

/** The short names the CLI, the configuration and the parsers use. */
export type SourceName = TradeDocumentsSourceManifest['name'];
export const SOURCE_NAMES: readonly SourceName[] = TRADE_MANIFESTS.map((manifest) => manifest.name);

/** The `source` column of filings and trades. */
export type TradeSource = TradeDocumentsSourceManifest['column'];

export const SOURCE_OF_NAME = Object.fromEntries(
  TRADE_MANIFESTS.map((manifest) => [manifest.name, manifest.column]),
) as Readonly<Record<SourceName, TradeSource>>;

export const CHAMBER_OF_SOURCE = Object.fromEntries(
  TRADE_MANIFESTS.map((manifest) => [manifest.column, manifest.chamber]),
) as Readonly<Record<TradeSource, Chamber>>;

/** Chamber filter values of the API and the source each stands for. */
export const SOURCE_OF_CHAMBER_FILTER: Readonly<Record<string, TradeSource>> = Object.fromEntries(
  TRADE_MANIFESTS.map((manifest) => [manifest.chamberFilter, manifest.column]),
);

export const TRADE_SOURCES: readonly TradeSource[] = TRADE_MANIFESTS.map((manifest) => manifest.column);

/** Sources whose rows are charged per executive row (the price table's `perExecutiveRow`). */
export const EXECUTIVE_ROW_SOURCES: readonly TradeSource[] = TRADE_MANIFESTS.filter(
  (manifest) => manifest.executiveRows,
).map((manifest) => manifest.column);

export function isTradeSource(value: string): value is TradeSource {
  return (TRADE_SOURCES as readonly string[]).includes(value);
}

/** The chamber a stored `source` value stands for; null for a value this table does not know. */
export function chamberOfSource(source: string): Chamber | null {
  return isTradeSource(source) ? CHAMBER_OF_SOURCE[source] : null;
}
