// The OCR engine: tesseract.js (Tesseract 5 compiled to WebAssembly) with the English LSTM model
// from the npm registry (@tesseract.js-data/eng, "best_int"). Nothing is fetched at run time: the
// model is read from the installed package. The form reader asks for one cell at a time, so the
// model stays loaded between calls (a Tesseract process per cell would load it every time).
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { readOcrReadingsDir } from '../../config/ocr.js';
import type { GrayImage } from './bitmap.js';
import { pad, toPgm } from './bitmap.js';
import { KeptReadings } from './kept-readings.js';

export interface OcrWord {
  text: string;
  /** The engine's own confidence, 0..1. */
  confidence: number;
  /** Left and right edges within the image read (pixels). */
  left: number;
  right: number;
}

export interface OcrText {
  text: string;
  /** Mean word confidence, 0..1 (0 when nothing was read). */
  confidence: number;
  words: OcrWord[];
}

export type ReadMode = 'line' | 'block' | 'word';

export interface ReadOptions {
  mode: ReadMode;
  /** Only these characters may be read (dates: digits and separators). */
  charset?: string;
}

/** What the form reader needs from an engine: the text of one small image. */
export interface OcrEngine {
  read(image: GrayImage, options: ReadOptions): Promise<OcrText>;
  close(): Promise<void>;
}

/** Where the English model sits inside the installed @tesseract.js-data/eng package. */
export function englishModelPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(packageJson), '4.0.0_best_int');
}

const PAGE_SEGMENTATION: Record<ReadMode, string> = { block: '6', line: '7', word: '8' };

interface TesseractWorker {
  setParameters(parameters: Record<string, string>): Promise<unknown>;
  recognize(
    image: Buffer,
    options?: Record<string, unknown>,
    output?: Record<string, boolean>,
  ): Promise<{ data: TesseractPage }>;
  terminate(): Promise<unknown>;
}

interface TesseractPage {
  text: string;
  confidence: number;
  blocks: Array<{
    paragraphs: Array<{
      lines: Array<{ words: Array<{ text: string; confidence: number; bbox: { x0: number; x1: number } }> }>;
    }>;
  }> | null;
}

/** What Tesseract answered for one image: its text and its words in order (confidence 0..100, edges). */
export interface EngineAnswer {
  text: string;
  words: Array<{ text: string; confidence: number; x0: number; x1: number }>;
}

function ocrText(answer: EngineAnswer): OcrText {
  const words: OcrWord[] = answer.words
    .filter((word) => word.text.trim() !== '')
    .map((word) => ({
      text: word.text,
      confidence: Math.max(0, Math.min(1, word.confidence / 100)),
      left: word.x0 - MARGIN,
      right: word.x1 - MARGIN,
    }));
  const confidence =
    words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
  return { text: answer.text.replace(/\s+/g, ' ').trim(), confidence, words };
}

/** Blank margin around every cell: Tesseract misreads glyphs that touch the image edge. */
export const MARGIN = 12;

// Cells are not documents: no dictionary guesses on tickers and dates, keep spaces as printed.
const FIXED_PARAMETERS = { preserve_interword_spaces: '1', debug_file: '/dev/null' };

/** The engine as its kept readings name it: another version, model or setting reads otherwise. */
function engineName(): string {
  const require = createRequire(import.meta.url);
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return JSON.stringify([
    `tesseract.js ${version('tesseract.js')}`,
    `@tesseract.js-data/eng ${version('@tesseract.js-data/eng')}`,
    basename(englishModelPath()),
    FIXED_PARAMETERS,
    MARGIN,
  ]);
}

async function startWorker(): Promise<TesseractWorker> {
  const { createWorker, OEM } = await import('tesseract.js');
  const worker = (await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: englishModelPath(),
    cacheMethod: 'none',
    gzip: true,
  })) as unknown as TesseractWorker;
  await worker.setParameters(FIXED_PARAMETERS);
  return worker;
}

export class TesseractEngine implements OcrEngine {
  /** Started at the first image no kept reading answers (loading the model takes a second or two). */
  private worker: Promise<TesseractWorker> | undefined;

  private constructor(private readonly kept: KeptReadings | undefined) {}

  /** `readingsDir`: where readings are kept and taken again (DCLEDGER_OCR_READINGS_DIR; none by default). */
  static async start(readingsDir: string | undefined = readOcrReadingsDir()): Promise<TesseractEngine> {
    const engine = new TesseractEngine(readingsDir ? new KeptReadings(readingsDir, engineName()) : undefined);
    // Without kept readings every image needs the engine: load it now, as the callers expect.
    if (!engine.kept) engine.worker = startWorker();
    await engine.worker;
    return engine;
  }

  async read(image: GrayImage, options: ReadOptions): Promise<OcrText> {
    const pgm = toPgm(pad(image, MARGIN));
    const settings = {
      tessedit_pageseg_mode: PAGE_SEGMENTATION[options.mode],
      tessedit_char_whitelist: options.charset ?? '',
    };
    const key = this.kept?.key(pgm, [settings]);
    let answer = key === undefined ? undefined : this.kept?.get(key);
    if (!answer) {
      answer = await this.recognize(pgm, settings);
      if (key !== undefined) this.kept?.put(key, answer);
    }
    return ocrText(answer);
  }

  /** The engine's answer as it gave it: a kept reading is this, so that what is made of it may change. */
  private async recognize(pgm: Uint8Array, settings: Record<string, string>): Promise<EngineAnswer> {
    this.worker ??= startWorker();
    const worker = await this.worker;
    await worker.setParameters(settings);
    const { data } = await worker.recognize(Buffer.from(pgm), {}, { blocks: true });
    const words: EngineAnswer['words'] = [];
    for (const block of data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines)
          for (const word of line.words)
            words.push({ text: word.text, confidence: word.confidence, x0: word.bbox.x0, x1: word.bbox.x1 });
    return { text: data.text, words };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }
}
