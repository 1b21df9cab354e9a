// `dcledger prices import <path>`: loads price files (format detected per file), stores their bars
// and corporate actions idempotently, then re-checks the data quality of every symbol it touched.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import type { Kysely } from 'kysely';
import type { CloseBasis } from '../domain/close-basis.js';
import { filesUnder } from '../files.js';
import {
  actionsOfSymbols,
  allSeriesMeta,
  barsOfSymbols,
  type FlagRow,
  findSeriesMeta,
  flagsOfSymbols,
  markSeriesChanged,
  replaceActions,
  replaceFlags,
  saveSeriesMeta,
  writeBars,
} from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { BENCHMARK_SYMBOL } from './benchmark.js';
import {
  FORMAT_PRIORITY,
  type ParsedSeries,
  type PriceFormat,
  PriceFormatError,
  parsePriceFile,
} from './price-files.js';
import { assessSymbol, type SymbolSeries } from './quality.js';
import { TradingCalendar } from './series.js';

export class PriceInputError extends Error {}

export interface PriceFileReport {
  file: string;
  format: PriceFormat | null;
  series: number;
  bars: number;
  rejected: Record<string, number>;
  /** Why a file in a directory was passed over (not a price file). */
  skipped?: string;
}

export interface PriceImportReport {
  files: PriceFileReport[];
  series: number;
  added: number;
  changed: number;
  unchanged: number;
  actionsAdded: number;
  /** Problems found in the touched symbols: counts by kind, and the ones not seen before. */
  problems: { byKind: Record<string, number>; newFlags: FlagRow[] };
}

export type Progress = (done: number, total: number) => void;

export interface SeriesWrite {
  symbol: string;
  source: string;
  format: PriceFormat;
  closeBasis: CloseBasis;
  origin: string;
  parsed: ParsedSeries;
}

/** The price files behind a path: the file itself, or every .txt/.csv below a directory. */
export function priceFiles(path: string): string[] {
  if (!existsSync(path)) throw new PriceInputError(`no such file or directory: ${path}`);
  if (!statSync(path).isDirectory()) return [path];
  const files = filesUnder(path, (name) => ['.txt', '.csv'].includes(extname(name).toLowerCase()));
  if (files.length === 0) throw new PriceInputError(`no .txt or .csv files under ${path}`);
  return files;
}

/** Imports a file or directory (or several: their quality is checked once, at the end). */
export async function importPrices(
  db: Kysely<Database>,
  paths: string | readonly string[],
  options: { now?: Date; progress?: Progress; source?: string } = {},
): Promise<PriceImportReport> {
  const now = (options.now ?? new Date()).toISOString();
  const roots = typeof paths === 'string' ? [paths] : paths;
  const files = roots.flatMap((root) => priceFiles(root).map((file) => ({ root, file })));
  const single = files.length === 1 && files[0]?.file === files[0]?.root;
  const report: PriceImportReport = {
    files: [],
    series: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
    actionsAdded: 0,
    problems: { byKind: {}, newFlags: [] },
  };
  const touched = new Set<string>();
  const seen = new Set<string>();
  // One transaction for the whole run: a directory lands completely or not at all, and SQLite
  // commits (and checkpoints its log) once instead of once per file.
  await db.transaction().execute(async (trx) => {
    for (const [index, { file }] of files.entries()) {
      // The parent directory names the data set (series of one data set end together: ma.ts).
      const name = `${basename(dirname(file))}/${basename(file)}`;
      let parsed: ReturnType<typeof parsePriceFile>;
      try {
        parsed = parsePriceFile(readFileSync(file, 'utf8'), file);
      } catch (error) {
        if (!(error instanceof PriceFormatError)) throw error;
        if (single) throw new PriceInputError(error.message);
        report.files.push({
          file: name,
          format: null,
          series: 0,
          bars: 0,
          rejected: {},
          skipped: error.message.replace(`${file}: `, ''),
        });
        continue;
      }
      const source = options.source ?? parsed.format;
      let bars = 0;
      for (const series of parsed.series) {
        const written = await writeSeries(
          trx,
          {
            symbol: series.symbol,
            source,
            format: parsed.format,
            closeBasis: parsed.closeBasis,
            origin: name,
            parsed: series,
          },
          now,
        );
        report.added += written.added;
        report.changed += written.changed;
        report.unchanged += written.unchanged;
        report.actionsAdded += written.actionsAdded;
        if (written.touched) touched.add(series.symbol);
        seen.add(series.symbol);
        bars += series.bars.length;
      }
      report.series += parsed.series.length;
      report.files.push({
        file: name,
        format: parsed.format,
        series: parsed.series.length,
        bars,
        rejected: parsed.rejected,
      });
      options.progress?.(index + 1, files.length);
    }
  });
  const { newFlags } = await checkPriceQuality(db, [...touched], now);
  // The problems of everything the files hold, also on a re-import that changed nothing.
  const byKind: Record<string, number> = {};
  for (const flag of await flagsOfSymbols(db, [...seen])) byKind[flag.kind] = (byKind[flag.kind] ?? 0) + 1;
  report.problems = { byKind, newFlags };
  return report;
}

/** Stores one parsed series and its actions; keeps its metadata's change stamps honest. */
export async function writeSeries(
  db: Kysely<Database>,
  write: SeriesWrite,
  now: string,
): Promise<{ added: number; changed: number; unchanged: number; actionsAdded: number; touched: boolean }> {
  const { symbol, source } = write;
  const before = await findSeriesMeta(db, symbol, source);
  const result = await writeBars(
    db,
    symbol,
    source,
    write.parsed.bars.map((bar) => ({
      date: bar.date,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      adj_close: bar.adjClose,
      volume: bar.volume,
    })),
  );
  const actionsAdded = await replaceActions(db, symbol, source, write.parsed.actions);
  const touched = result.added + result.changed + actionsAdded > 0 || before === undefined;
  if (touched) {
    // A change before the previous last bar rewrites history: every trade of the symbol is redone.
    const rewroteHistory =
      before === undefined ||
      actionsAdded > 0 ||
      (result.firstChanged !== null && result.firstChanged <= before.last_date);
    await saveSeriesMeta(db, {
      symbol,
      source,
      format: write.format,
      close_basis: write.closeBasis,
      priority: FORMAT_PRIORITY[write.format],
      origin: write.origin,
      updated_at: now,
      history_changed_at: rewroteHistory ? now : (before?.history_changed_at ?? now),
    });
  }
  return { ...result, actionsAdded, touched };
}

/**
 * Re-assesses the data quality of `symbols` across all their sources (all symbols when the
 * benchmark changed, since its days are the calendar gaps are measured against) and stores the
 * flags. Symbols whose flags changed are marked changed, so their trades are re-enriched.
 */
export async function checkPriceQuality(
  db: Kysely<Database>,
  symbols: readonly string[],
  now: string,
): Promise<PriceImportReport['problems']> {
  if (symbols.length === 0) return { byKind: {}, newFlags: [] };
  const everything = symbols.includes(BENCHMARK_SYMBOL)
    ? [...new Set((await allSeriesMeta(db)).map((meta) => meta.symbol))]
    : [...symbols];
  const benchmark = await loadSymbolSeries(db, [BENCHMARK_SYMBOL]);
  const benchmarkSeries = benchmark.get(BENCHMARK_SYMBOL) ?? [];
  const calendar = new TradingCalendar(benchmarkSeries.flatMap((series) => series.dates));
  const market = [...benchmarkSeries].sort((a, b) => a.priority - b.priority)[0];
  const flags: FlagRow[] = [];
  // In slices, so that memory stays bounded however many symbols a directory holds.
  for (let start = 0; start < everything.length; start += 50) {
    const slice = everything.slice(start, start + 50);
    const loaded = await loadSymbolSeries(db, slice);
    for (const [symbol, all] of loaded) {
      for (const [source, findings] of assessSymbol(all, calendar, market)) {
        for (const finding of findings)
          flags.push({ symbol, source, date: finding.date, kind: finding.kind, detail: finding.detail });
      }
    }
  }
  const newFlags = await db.transaction().execute(async (trx) => {
    const { added, removed } = await replaceFlags(trx, everything, flags, now);
    await markSeriesChanged(trx, [...added, ...removed], now);
    return added;
  });
  const byKind: Record<string, number> = {};
  for (const flag of flags) byKind[flag.kind] = (byKind[flag.kind] ?? 0) + 1;
  return { byKind, newFlags };
}

async function loadSymbolSeries(
  db: Kysely<Database>,
  symbols: readonly string[],
): Promise<Map<string, SymbolSeries[]>> {
  const metas = new Map(
    (await allSeriesMetaOf(db, symbols)).map((meta) => [`${meta.symbol}|${meta.source}`, meta]),
  );
  const actions = await actionsOfSymbols(db, symbols);
  const bars = await barsOfSymbols(db, symbols);
  const grouped = new Map<string, { dates: string[]; adj: number[] }>();
  for (const bar of bars) {
    const key = `${bar.symbol}|${bar.source}`;
    const entry = grouped.get(key) ?? { dates: [], adj: [] };
    entry.dates.push(bar.date);
    entry.adj.push(bar.adj_close);
    grouped.set(key, entry);
  }
  const result = new Map<string, SymbolSeries[]>();
  for (const [key, entry] of grouped) {
    const meta = metas.get(key);
    if (!meta) continue;
    const actionDates = new Set(
      actions
        .filter(
          (action) =>
            action.symbol === meta.symbol && action.source === meta.source && action.kind !== 'dividend',
        )
        .map((action) => action.date),
    );
    const list = result.get(meta.symbol) ?? [];
    list.push({
      source: meta.source,
      priority: meta.priority,
      dates: entry.dates,
      adjClose: entry.adj,
      actionDates,
    });
    result.set(meta.symbol, list);
  }
  return result;
}

async function allSeriesMetaOf(db: Kysely<Database>, symbols: readonly string[]) {
  const wanted = new Set(symbols);
  return (await allSeriesMeta(db)).filter((meta) => wanted.has(meta.symbol));
}
