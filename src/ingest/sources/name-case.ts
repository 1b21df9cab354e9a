// How a name printed in capitals is written back in ordinary case: eFD search results and the
// filers the pipeline creates from them.
import { decodeEntities } from '../../domain/asset.js';

/** "JOHN " -> "John", "MCCONNELL" -> "McConnell"; mixed-case names are kept as written. */
export function nameCase(raw: string): string {
  const text = decodeEntities(raw).replace(/\s+/g, ' ').trim();
  if (text !== text.toUpperCase()) return text;
  return text
    .toLowerCase()
    .replace(
      /(^|[\s\-'’])([a-z])/g,
      (_whole, before: string, letter: string) => before + letter.toUpperCase(),
    )
    .replace(/\bMc([a-z])/g, (_whole, letter: string) => `Mc${letter.toUpperCase()}`);
}
