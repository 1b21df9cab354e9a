// Webhook receivers for the webhook benchmarks, alone in their process:
// `webhook-receivers.ts <count> <secret> [--delay=MS] [--slow]`.
// Each checks the signature of every delivery and remembers (receiver, event id, delivery id),
// answering after MS milliseconds (default at once); on SIGTERM it prints what it saw and exits.
// With --slow, one more receiver (the last port) answers its first 50 deliveries never and the
// rest with a 200 whose body trickles a byte a second and never ends.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const positional = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const flags = process.argv.slice(2).filter((argument) => argument.startsWith('--'));
const [countText, secret] = positional;
const count = Number(countText);
const delayMs = Number(
  /^--delay=(\d+)$/.exec(flags.find((flag) => flag.startsWith('--delay=')) ?? '')?.[1] ?? 0,
);
const slow = flags.includes('--slow');
if (!Number.isInteger(count) || count < 1 || !secret)
  throw new Error('usage: webhook-receivers.ts <count> <secret> [--delay=MS] [--slow]');

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
      if (delayMs > 0) setTimeout(() => response.writeHead(204).end(), delayMs);
      else response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push((server.address() as AddressInfo).port);
}
if (slow) {
  let seen = 0;
  const answering = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    request.resume();
    seen += 1;
    answering.add(response);
    response.once('close', () => answering.delete(response));
    if (seen <= 50) return;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.flushHeaders();
    const timer = setInterval(() => response.write('.'), 1000);
    response.once('close', () => clearInterval(timer));
  });
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
