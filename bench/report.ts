// What every benchmark section says about the machine it ran on.
import { availableParallelism, cpus } from 'node:os';

export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`;
}
