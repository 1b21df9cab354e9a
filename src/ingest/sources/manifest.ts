// What a source is, as plain data: its name, kind, settings, size limit, events and, for trade
// documents, the `source` column and chamber of its filings. Each source folder has one
// (`<name>/manifest.ts`), the registry lists them, and every layer may read them, the domain
// tables and the configuration included: a manifest imports nothing but types. How a source runs
// (connector, parser, store, replay routes) is its definition, `<name>/source.ts`.
import type { Chamber } from '../../domain/sources.js';

/** One setting a source reads from the environment; config.ts reads and checks it with the others. */
export type SettingSpec =
  | { kind: 'url'; env: string; default?: string; description: string }
  | { kind: 'path'; env: string; default: string; description: string }
  | { kind: 'text'; env: string; default?: string; description: string }
  /** Never printed, never logged. */
  | { kind: 'secret'; env: string; description: string }
  | {
      kind: 'integer';
      env: string;
      default: number;
      /** Smaller values are refused. */
      minimum: number;
      /** Smaller values are raised to this one (a rate the site's rules do not let us exceed). */
      floor?: number;
      description: string;
    };

export type SettingValue<S extends SettingSpec> = S extends { kind: 'integer' }
  ? number
  : S extends { default: string }
    ? string
    : string | undefined;

export type SettingValues<Specs extends Readonly<Record<string, SettingSpec>>> = {
  readonly [K in keyof Specs]: SettingValue<Specs[K]>;
};

interface CommonManifest {
  /** `dcledger ingest <name>`, DCLEDGER_<NAME>_MAX_DOCUMENT_MB, the run log's `ingest` field. */
  readonly name: string;
  /** The site and what it publishes, for help texts and the docs. */
  readonly title: string;
  /** The ingest_state key of its runs (its cursor and last status). */
  readonly stateKey: string;
  readonly settings: Readonly<Record<string, SettingSpec>>;
  /** The setting `--base-url` stands in for (every source has one). */
  readonly baseUrlSetting: string;
  /** The largest document (MB) its site may serve, unless the operator sets another limit. */
  readonly maxDocumentMb: number;
  /** The webhook events its runs emit. */
  readonly events: readonly string[];
}

/** A source of disclosure documents whose rows become trades (filings and trades tables). */
export interface TradeDocumentsManifest extends CommonManifest {
  readonly kind: 'trade-documents';
  /** The `source` column of its filings and trades. */
  readonly column: string;
  readonly chamber: Chamber;
  /** The value of the API's `chamber` filter that stands for it. */
  readonly chamberFilter: string;
  /** Its rows are charged per executive row (the price table's `perExecutiveRow`). */
  readonly executiveRows: boolean;
}

/** A source of records kept in tables of their own (lobbying filings, awards, bills, votes, Form 4 lines). */
export interface RecordsManifest extends CommonManifest {
  readonly kind: 'records';
}

export type SourceManifest = TradeDocumentsManifest | RecordsManifest;
