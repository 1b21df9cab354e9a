// Ports on 127.0.0.1 for tests: one free to listen on, which is also one where nothing listens
// (bound, then released), for a source or service that must be unreachable.
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  if (port === 0) throw new Error('no free port on 127.0.0.1');
  return port;
}
