// The module a tinypool worker thread loads. Compiled, it is the .js file beside the caller; run
// from the TypeScript sources (tests, tsx), it is a small module that loads the .ts file through
// tsx, because a worker thread does not inherit its parent's loader on Node 20.
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `callerUrl`: the caller's import.meta.url; `name`: the thread module beside it, without
 * extension; `exported`: the functions tinypool calls by name.
 */
export function threadModule(callerUrl: string, name: string, exported: readonly string[]): string {
  if (extname(fileURLToPath(callerUrl)) !== '.ts') return new URL(`./${name}.js`, callerUrl).href;
  const tsxApi = pathToFileURL(
    join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const source = [
    `const tsx = await import(${JSON.stringify(tsxApi)});`,
    `const thread = await tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(callerUrl)});`,
    ...exported.map((fn) => `export const ${fn} = thread.${fn};`),
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
