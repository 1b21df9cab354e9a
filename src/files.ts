// Walking the files an import or the replay server reads.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` whose name `accept` takes, depth first in name order; [] when `dir` is missing. */
export function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, accept));
    else if (accept(name)) found.push(path);
  }
  return found;
}
