// The engine's answers kept on disk (DCLEDGER_OCR_READINGS_DIR): one file per cell image read,
// named by a hash of the engine, the read's options and the image's every pixel, so that a kept
// reading is only ever taken for the very image, read the very same way. Written under a
// temporary name and renamed into place: several threads and processes may share the directory.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { EngineAnswer } from './engine.js';

export class KeptReadings {
  /** `engine` names the engine, its model and its fixed parameters: another engine's readings differ. */
  constructor(
    private readonly dir: string,
    private readonly engine: string,
  ) {}

  /** The key of reading `image` with these settings (what the engine is told besides the image). */
  key(image: Uint8Array, settings: readonly unknown[]): string {
    return createHash('sha256')
      .update(JSON.stringify([this.engine, ...settings]))
      .update(image)
      .digest('hex');
  }

  get(key: string): EngineAnswer | undefined {
    try {
      return JSON.parse(readFileSync(this.path(key), 'utf8')) as EngineAnswer;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  put(key: string, reading: EngineAnswer): void {
    const path = this.path(key);
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${process.pid}-${threadId}.tmp`;
    writeFileSync(temporary, JSON.stringify(reading));
    renameSync(temporary, path);
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
