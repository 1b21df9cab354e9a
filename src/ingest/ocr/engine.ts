// The OCR engine: tesseract.js (Tesseract 5 compiled to WebAssembly) with the English LSTM model
// from the npm registry (@tesseract.js-data/eng, "best_int"). Nothing is fetched at run time: the
// model is read from the installed package. The form reader asks for one cell at a time, so the
// model stays loaded between calls (a Tesseract process per cell would load it every time).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GrayImage } from './bitmap.js';
import { pad, toPgm } from './bitmap.js';

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

/** Blank margin around every cell: Tesseract misreads glyphs that touch the image edge. */
const MARGIN = 12;

export class TesseractEngine implements OcrEngine {
  private constructor(private readonly worker: TesseractWorker) {}

  static async start(): Promise<TesseractEngine> {
    const { createWorker, OEM } = await import('tesseract.js');
    const worker = (await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishModelPath(),
      cacheMethod: 'none',
      gzip: true,
    })) as unknown as TesseractWorker;
    // Cells are not documents: no dictionary guesses on tickers and dates, keep spaces as printed.
    await worker.setParameters({ preserve_interword_spaces: '1', debug_file: '/dev/null' });
    return new TesseractEngine(worker);
  }

  async read(image: GrayImage, options: ReadOptions): Promise<OcrText> {
    await this.worker.setParameters({
      tessedit_pageseg_mode: PAGE_SEGMENTATION[options.mode],
      tessedit_char_whitelist: options.charset ?? '',
    });
    const { data } = await this.worker.recognize(
      Buffer.from(toPgm(pad(image, MARGIN))),
      {},
      { blocks: true },
    );
    const words: OcrWord[] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          for (const word of line.words) {
            if (word.text.trim() === '') continue;
            words.push({
              text: word.text,
              confidence: Math.max(0, Math.min(1, word.confidence / 100)),
              left: word.bbox.x0 - MARGIN,
              right: word.bbox.x1 - MARGIN,
            });
          }
        }
      }
    }
    const confidence =
      words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
    return { text: data.text.replace(/\s+/g, ' ').trim(), confidence, words };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
