// npm run bench [-- section...]: runs the benchmarks and rewrites their sections of BENCHMARKS.md.
import { runHttpBench } from './http.js';
import { runWebhooksBench } from './webhooks.js';

const SECTIONS: Record<string, () => Promise<void>> = {
  http: runHttpBench,
  webhooks: runWebhooksBench,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(SECTIONS);
for (const name of names) {
  const section = SECTIONS[name];
  if (!section) {
    process.stderr.write(`unknown benchmark "${name}"; known: ${Object.keys(SECTIONS).join(', ')}\n`);
    process.exit(2);
  }
  await section();
}
