// The module a worker thread or a forked child process loads. Compiled, it is the .js file beside
// the caller; run from the TypeScript sources (tests, tsx), the .ts file has to be loaded through
// tsx, which neither a worker thread (on Node 20) nor a forked child inherits from its parent.
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const fromSources = (callerUrl: string) => extname(fileURLToPath(callerUrl)) === '.ts';

/** One of tsx's files, resolved from the caller. */
function tsxFile(callerUrl: string, file: string): string {
  return pathToFileURL(join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), file)).href;
}

/**
 * The module a thread loads (tinypool's `filename`, or `new Worker(new URL(…))`).
 * `callerUrl`: the caller's import.meta.url; `name`: the thread module beside it, without
 * extension; `exported`: the functions tinypool calls by name (none for a thread that runs its
 * module's body and talks over its port).
 */
export function threadModule(callerUrl: string, name: string, exported: readonly string[] = []): string {
  if (!fromSources(callerUrl)) return new URL(`./${name}.js`, callerUrl).href;
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const source = [
    `const tsx = await import(${JSON.stringify(tsxFile(callerUrl, 'dist/esm/api/index.mjs'))});`,
    `const thread = await tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(callerUrl)});`,
    ...exported.map((fn) => `export const ${fn} = thread.${fn};`),
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

/**
 * The file a child process runs (`fork(file, [], { execArgv })`) and the flags that load it:
 * `name` is the module beside the caller, without extension.
 */
export function childModule(callerUrl: string, name: string): { file: string; execArgv: string[] } {
  if (!fromSources(callerUrl))
    return { file: fileURLToPath(new URL(`./${name}.js`, callerUrl)), execArgv: [] };
  return {
    file: fileURLToPath(new URL(`./${name}.ts`, callerUrl)),
    execArgv: ['--import', tsxFile(callerUrl, 'dist/loader.mjs')],
  };
}
