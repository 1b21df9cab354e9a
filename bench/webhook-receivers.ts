// Webhook receivers for the fan-out benchmark, alone in their process: `webhook-receivers.ts <count> <secret>`.
// Each checks the signature of every delivery and remembers (receiver, event id, delivery id);
// on SIGTERM it prints what it saw and exits.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [countText, secret] = process.argv.slice(2);
const count = Number(countText);
if (!Number.isInteger(count) || count < 1 || !secret)
  throw new Error('usage: webhook-receivers.ts <count> <secret>');

let received = 0;
let badSignatures = 0;
/** "receiver event-id" -> delivery ids seen for it. */
const deliveries = new Map<string, Set<string>>();

function signatureOk(body: Buffer, signature: string | string[] | undefined): boolean {
  const expected = createHmac('sha256', secret ?? '')
    .update(body)
    .digest();
  const got = Buffer.from(typeof signature === 'string' ? signature : '', 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

const ports: number[] = [];
for (let index = 0; index < count; index++) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received += 1;
      if (!signatureOk(body, request.headers['x-dcledger-signature'])) {
        badSignatures += 1;
        response.writeHead(401).end();
        return;
      }
      const payload = JSON.parse(body.toString('utf8')) as { data: { id: number } };
      const key = `${index} ${payload.data.id}`;
      const ids = deliveries.get(key) ?? new Set<string>();
      ids.add(String(request.headers['x-dcledger-delivery']));
      deliveries.set(key, ids);
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push((server.address() as AddressInfo).port);
}
process.stdout.write(`listening ${JSON.stringify(ports)}\n`);
process.once('SIGTERM', () => {
  let reusedIds = 0;
  for (const ids of deliveries.values()) if (ids.size > 1) reusedIds += 1;
  process.stdout.write(
    `report ${JSON.stringify({ received, badSignatures, unique: deliveries.size, pairsWithSeveralIds: reusedIds })}\n`,
    () => process.exit(0),
  );
});
