// The lists at their largest page (limit=1000) in the http bench, judged against /trades at 1000
// rows in the same run: what one call can ask of each list, at its longest range where it takes one.

/** What one load of an endpoint measured (bench/http.ts `load`). */
interface PageLoad {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  cpuMsPerRequest: number;
}

const pct = (share: number) => `${(share * 100).toFixed(0)}%`;

/** Every list at the largest page it takes, at its longest range where it takes one. */
export const LARGEST_PAGES: readonly string[] = [
  '/politicians?limit=1000',
  '/politicians/{member}/trades?limit=1000',
  '/politicians/{member}/votes?limit=1000',
  '/politicians/{member}/campaign-finance?limit=1000',
  '/tickers/NVDA/trades?limit=1000',
  '/tickers/top?days=3650&limit=1000',
  '/feed/recent?limit=1000',
  '/feed/live?limit=1000',
  '/filings?limit=1000',
  '/committees?limit=1000',
  '/insiders/trades?limit=1000',
  '/whales?limit=1000',
  '/lobbying?limit=1000',
  '/contracts?limit=1000',
  '/bills?limit=1000',
  '/overlap?days=3650&window_days=3650&limit=1000',
  '/conflict/josh-gottheimer?limit=1000',
  '/clusters/recent?days=3650&limit=1000',
  '/legislation/suspicious-timing?days=3650&limit=1000',
];

/** Share of /trades at 1000 rows (req/s, and CPU per request) a list at its largest page must reach. */
const LARGEST_PAGE_TARGET = 0.6;

export function largestPageSection(
  lists: ReadonlyArray<{ name: string; returned: number; result: PageLoad }>,
  trades: PageLoad | undefined,
): string {
  const rows = lists.map(({ name, returned, result }) => {
    const cells = [
      `\`${name}\``,
      String(returned),
      result.rps.toFixed(0),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
      result.cpuMsPerRequest.toFixed(2),
      `${(result.bytes / 1024).toFixed(1)} KB`,
    ];
    if (!trades) return `| ${cells.join(' | ')} | — | — | not judged |`;
    const rate = result.rps / trades.rps;
    const cpu = trades.cpuMsPerRequest / Math.max(0.001, result.cpuMsPerRequest);
    const verdict =
      rate >= LARGEST_PAGE_TARGET
        ? 'met'
        : cpu >= LARGEST_PAGE_TARGET
          ? '**missed** (CPU share met)'
          : '**missed**';
    return `| ${cells.join(' | ')} | **${pct(rate)}** | ${pct(cpu)} | ${verdict} |`;
  });
  const against = trades
    ? `\`/trades?limit=1000&days=3650&chamber=house\` in the same run: ${trades.rps.toFixed(0)} req/s, ${trades.cpuMsPerRequest.toFixed(2)} CPU ms per request (the mean of its rounds).`
    : 'Not judged: `/trades?limit=1000&days=3650&chamber=house` did not run in this run (add it to BENCH_ENDPOINTS).';
  return `### Every list at its largest page (\`limit=1000\`) against \`/trades\` at 1000 rows

Each list at the largest page it takes, at its longest range where it takes one (\`{id}\` is
nancy-pelosi's member id), one run each. Target: ≥ ${LARGEST_PAGE_TARGET * 100}% of \`/trades\` at 1000 rows. Against
${against} The target is judged on req/s; the CPU share (\`/trades\`' CPU per request over the
list's) is the figure to read when other jobs load the machine, since req/s moves with that load and
CPU per request does not. A list holding fewer than 1000 rows answers what it has.

| request | rows | req/s | p50 ms | p99 ms | CPU ms/req | answer | req/s share | CPU share | target |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}
