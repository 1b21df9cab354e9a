// Raw source documents, kept by content hash so that every parse can be reproduced and a document
// fetched twice is stored once.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export class DocumentArchive {
  constructor(private readonly root: string) {}

  /** Stores the bytes (once) and returns their SHA-256. */
  put(bytes: Buffer): string {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(hash);
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      // Write then rename, so an interrupted run never leaves a truncated document under its hash.
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, bytes);
      renameSync(temporary, path);
    }
    return hash;
  }

  get(hash: string): Buffer | undefined {
    const path = this.pathOf(hash);
    return existsSync(path) ? readFileSync(path) : undefined;
  }

  private pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a SHA-256: ${hash}`);
    return join(this.root, hash.slice(0, 2), hash);
  }
}
