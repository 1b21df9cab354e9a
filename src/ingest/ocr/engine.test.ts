// The engine prints nothing of its own: Tesseract's debug tables (histograms it prints for an empty
// or noisy cell) would otherwise land on the stderr of `serve`, between its JSON log lines. Its
// kept readings are taken for the same image read the same way, and for nothing else.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TesseractEngine } from './engine.js';

const engine = fileURLToPath(new URL('./engine.ts', import.meta.url));

describe('TesseractEngine', () => {
  it('reads blank and noisy cells without writing to stderr', { timeout: 60_000 }, () => {
    const script = `
      const { TesseractEngine } = await import(${JSON.stringify(engine)});
      const engine = await TesseractEngine.start();
      const blank = { width: 200, height: 40, data: new Uint8Array(8000).fill(255) };
      const noisy = { width: 200, height: 40, data: Uint8Array.from({ length: 8000 }, (_, i) => (i % 7 === 0 ? 0 : 255)) };
      for (const mode of ['block', 'line', 'word']) {
        await engine.read(blank, { mode });
        await engine.read(noisy, { mode });
      }
      await engine.close();
      process.stdout.write('read');
    `;
    // A file, not --eval: the engine's own worker thread inherits the process's flags.
    const dir = mkdtempSync(join(tmpdir(), 'dcledger-engine-'));
    try {
      const file = join(dir, 'read-cells.mjs');
      writeFileSync(file, script);
      // The engine itself, never a kept reading: without the variable the test suite sets.
      const env = { ...process.env, DCLEDGER_OCR_READINGS_DIR: '' };
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', env });
      expect(run.stdout).toBe('read');
      expect(run.stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('TesseractEngine with kept readings', () => {
  const noisy = {
    width: 200,
    height: 40,
    data: Uint8Array.from({ length: 8000 }, (_, i) => (i % 7 === 0 ? 0 : 255)),
  };
  const files = (dir: string) =>
    readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.json'));

  it('keeps each reading and takes it again for the same image read the same way only', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcledger-readings-'));
    const engines: TesseractEngine[] = [];
    try {
      const first = await TesseractEngine.start(dir);
      engines.push(first);
      await first.read(noisy, { mode: 'line' });
      const [kept] = files(dir);
      expect(files(dir)).toHaveLength(1);
      // A kept answer is what a later engine reads: mark it to tell it from the engine's own. It is
      // the engine's answer as given, made into the reading as every answer is.
      writeFileSync(
        join(dir, String(kept)),
        JSON.stringify({ text: ' KEPT\n 42 ', words: [{ text: 'KEPT', confidence: 90, x0: 20, x1: 60 }] }),
      );
      const second = await TesseractEngine.start(dir);
      engines.push(second);
      expect(await second.read(noisy, { mode: 'line' })).toEqual({
        text: 'KEPT 42',
        confidence: 0.9,
        words: [{ text: 'KEPT', confidence: 0.9, left: 8, right: 48 }],
      });
      // Another way of reading the image, another image, or no directory: the engine reads.
      expect((await second.read(noisy, { mode: 'line', charset: '0123456789' })).text).not.toBe('KEPT 42');
      expect((await second.read(noisy, { mode: 'word' })).text).not.toBe('KEPT 42');
      const other = { ...noisy, data: noisy.data.map((value, i) => (i === 0 ? 255 - value : value)) };
      expect((await second.read(other, { mode: 'line' })).text).not.toBe('KEPT 42');
      expect(files(dir)).toHaveLength(4);
      const without = await TesseractEngine.start(undefined);
      engines.push(without);
      expect((await without.read(noisy, { mode: 'line' })).text).not.toBe('KEPT 42');
    } finally {
      for (const engine of engines) await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
