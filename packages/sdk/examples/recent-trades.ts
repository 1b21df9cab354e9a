// Example: find a member, then page through their disclosed trades with the typed client.
//   DCLEDGER_URL=http://127.0.0.1:8080 DCLEDGER_API_KEY=dc_... npx tsx examples/recent-trades.ts "Nancy Pelosi"
import { createDcLedgerClient, DcLedgerError, paginate, type Trade, unwrap } from '../src/index.js';

const baseUrl = process.env.DCLEDGER_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.DCLEDGER_API_KEY;
const name = process.argv[2] ?? 'Nancy Pelosi';

const client = createDcLedgerClient({ baseUrl, ...(apiKey ? { apiKey } : {}) });

try {
  const found = unwrap(
    await client.GET('/search', { params: { query: { q: name, types: 'politicians', limit: 1 } } }),
  );
  const member = found.politicians[0];
  if (!member) {
    console.log(`no member matches ${name}`);
    process.exit(1);
  }
  let count = 0;
  // Each page comes with its response: the Link header's rel="next" names the next page.
  const trades = paginate<Trade>(
    async ({ offset, limit }) => {
      const page = await client.GET('/trades', {
        params: { query: { politician_id: String(member.politician_id), days: 3650, offset, limit } },
      });
      return { rows: unwrap(page), response: page.response };
    },
    { limit: 25, maxPages: 4 },
  );
  for await (const trade of trades) {
    count += 1;
    console.log(`${trade.transaction_date} ${trade.trade_type} ${trade.ticker} ${trade.amount_range ?? ''}`);
  }
  console.log(`${member.name}: ${count} trades`);
} catch (error) {
  if (error instanceof DcLedgerError) {
    console.error(`refused: ${error.status} ${error.detail}`);
    process.exit(2);
  }
  throw error;
}
