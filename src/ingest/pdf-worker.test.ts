// The PDF reader's child process asked for several documents at once (sources filling side by
// side share one reader): each answer is its own document's text, as when asked one at a time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PdfTextWorker } from './pdf-worker.js';

const dataDir = inject('dataDir');
const EFILED = ['congress', 'raw-house', 'ptr-pdfs', 'efiled-2025'];

describe.skipIf(!dataDir)('PdfTextWorker', () => {
  const worker = new PdfTextWorker();
  afterAll(() => worker.close());

  it('answers documents asked for at once with the text of each', async () => {
    const folder = join(dataDir ?? '', ...EFILED);
    const files = readdirSync(folder)
      .filter((name) => name.endsWith('.pdf'))
      .sort()
      .slice(0, 8);
    const documents = files.map((name) => new Uint8Array(readFileSync(join(folder, name))));
    const oneByOne = [];
    for (const bytes of documents) oneByOne.push(await worker.extract(bytes));
    const atOnce = await Promise.all(documents.map((bytes) => worker.extract(bytes)));
    expect(files.length).toBe(8);
    expect(atOnce).toEqual(oneByOne);
  }, 120_000);
});
