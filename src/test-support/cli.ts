// Runs the `dcledger` command line in this process and captures what it prints and its exit code.
import { vi } from 'vitest';
import { run } from '../main.js';

export interface CliOutcome {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...args: string[]): Promise<CliOutcome> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  process.exitCode = 0;
  try {
    await run(['node', 'dcledger', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, out, err };
}
