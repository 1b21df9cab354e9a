// The engine prints nothing of its own: Tesseract's debug tables (histograms it prints for an empty
// or noisy cell) would otherwise land on the stderr of `serve`, between its JSON log lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8' });
      expect(run.stdout).toBe('read');
      expect(run.stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
