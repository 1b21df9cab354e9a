// The disclosure sources, their short names and the chamber each stands for: one table, read by
// the API filters, the resources, search, the CLI and the ingest pipeline.

/** The short names the CLI, the configuration and the parsers use. */
export const SOURCE_NAMES = ['house', 'senate', 'oge'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** The `source` column of filings and trades. */
export type TradeSource = 'house_clerk' | 'senate_efd' | 'oge';

export type Chamber = 'House' | 'Senate' | 'Executive';

export const SOURCE_OF_NAME: Readonly<Record<SourceName, TradeSource>> = {
  house: 'house_clerk',
  senate: 'senate_efd',
  oge: 'oge',
};

export const CHAMBER_OF_SOURCE: Readonly<Record<TradeSource, Chamber>> = {
  house_clerk: 'House',
  senate_efd: 'Senate',
  oge: 'Executive',
};

/** Chamber filter values of the API and the source each stands for. */
export const SOURCE_OF_CHAMBER_FILTER: Readonly<Record<string, TradeSource>> = {
  house: 'house_clerk',
  senate: 'senate_efd',
  executive: 'oge',
};

export const TRADE_SOURCES: readonly TradeSource[] = Object.values(SOURCE_OF_NAME);

export function isTradeSource(value: string): value is TradeSource {
  return (TRADE_SOURCES as readonly string[]).includes(value);
}

/** The chamber a stored `source` value stands for; null for a value this table does not know. */
export function chamberOfSource(source: string): Chamber | null {
  return isTradeSource(source) ? CHAMBER_OF_SOURCE[source] : null;
}
