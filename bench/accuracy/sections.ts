// ACCURACY.md's sections that take minutes of OCR to measure: each between its own markers,
// rewritten in place by the script that measures it and kept as it is by `npm run accuracy`,
// which writes the rest of the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../src/test-support/data-dir.js';

export const ACCURACY_FILE = join(repoRoot, 'ACCURACY.md');

export type Markers = readonly [start: string, end: string];

/** `npm run bench -- ocr`: the House scans against the transcription. */
export const HOUSE_OCR: Markers = ['<!-- ocr:start -->', '<!-- ocr:end -->'];
/** `npx tsx bench/oge-ocr.ts`: the scanned OGE 278-T. */
export const OGE_OCR: Markers = ['<!-- oge-ocr:start -->', '<!-- oge-ocr:end -->'];
/** `npx tsx bench/ocr-robustness.ts`: House scans and the 278-T read differently scanned. */
export const OCR_ROBUSTNESS: Markers = ['<!-- ocr-robustness:start -->', '<!-- ocr-robustness:end -->'];

/** `npx tsx bench/ocr-engines.ts`: the stage's engine against PaddleOCR on the House scans' cells. */
export const OCR_ENGINES: Markers = ['<!-- ocr-engines:start -->', '<!-- ocr-engines:end -->'];

export const OCR_SECTIONS: readonly Markers[] = [HOUSE_OCR, OGE_OCR, OCR_ROBUSTNESS, OCR_ENGINES];

/** The section between `markers` in `text`, markers included, or null when it has none. */
export function markedSection(text: string, [start, end]: Markers): string | null {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  return from !== -1 && to > from ? text.slice(from, to + end.length) : null;
}

/** Writes `body` between `markers` in ACCURACY.md (or `file`): in place of the section, or at the end. */
export function writeMarkedSection(markers: Markers, body: string, file = ACCURACY_FILE): void {
  const document = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `${markers[0]}\n${body.trim()}\n${markers[1]}`;
  const section = markedSection(document, markers);
  // A function, not a string, replaces: the bodies hold "$1,001", which a string would expand.
  writeFileSync(
    file,
    section !== null ? document.replace(section, () => block) : `${document.trimEnd()}\n\n${block}\n`,
  );
}
